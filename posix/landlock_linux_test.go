package posix

import (
	"os"
	"testing"

	"github.com/chainrun/chainrun/sandbox"
)

// BenchmarkConfinedStart measures starting and reaping /bin/true plainly
// and through a confinement, in one sitting: "confined" is each further
// spawn of a run (through its confined thread), "confined-new" a run's
// first, with the ruleset and the thread made for it; "setup-only" that
// making alone; "carved" each further spawn of a run whose boundary
// denies a path inside the writable tree, forked by the run's carving
// helper (started on the first, in its own user and mount namespace).
func BenchmarkConfinedStart(b *testing.B) {
	if LandlockABI() == 0 {
		b.Skip("this kernel has no Landlock")
	}
	dir, _ := os.Getwd()
	bound := sandbox.New(&sandbox.Config{}, []string{dir}, os.TempDir())
	start := func(b *testing.B, c *Confinement) {
		p, err := Start("/bin/true", []string{"true"}, &Attr{Files: []*os.File{os.Stdin, os.Stdout, os.Stderr}, Confine: c})
		if err != nil {
			b.Fatal(err)
		}
		if st, err := p.Wait(); err != nil || st.Code != 0 {
			b.Fatal(err, st)
		}
	}
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			start(b, nil)
		}
	})
	b.Run("confined", func(b *testing.B) {
		c, err := Confine(bound)
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		for b.Loop() {
			start(b, c)
		}
	})
	b.Run("carved", func(b *testing.B) {
		root, err := os.MkdirTemp("", "chainrun-bench-")
		if err != nil {
			b.Fatal(err)
		}
		defer os.RemoveAll(root)
		os.Mkdir(root+"/locked", 0o755)
		carved := sandbox.New(&sandbox.Config{DenyWrite: []string{root + "/locked"}}, []string{root}, os.TempDir())
		c, err := Confine(carved)
		if err != nil || c.carve == nil {
			b.Skip("no user namespace to carve in", err)
		}
		defer c.Close()
		for b.Loop() {
			start(b, c)
		}
	})
	b.Run("setup-only", func(b *testing.B) {
		for b.Loop() {
			c, err := Confine(bound)
			if err != nil {
				b.Fatal(err)
			}
			c.Close()
		}
	})
	b.Run("confined-new", func(b *testing.B) {
		for b.Loop() {
			c, err := Confine(bound)
			if err != nil {
				b.Fatal(err)
			}
			start(b, c)
			c.Close()
		}
	})
}
