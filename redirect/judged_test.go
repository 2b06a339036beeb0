package redirect

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
)

// TestApplyJudged: with the targets pinned before the judgement, Apply
// opens only the files judged. A target swapped for a link, a file, a
// directory or a retargeted link between the pin and the open fails with
// ErrChanged and leaves the file it would have reached as it was; an
// unchanged target opens as without a pin, > truncating it.
func TestApplyJudged(t *testing.T) {
	type world struct{ dir, victim string }
	link := func(t *testing.T, target, name string) {
		t.Helper()
		testprog.NeedSymlinks(t, filepath.Dir(name))
		if err := os.Symlink(target, name); err != nil {
			t.Fatal(err)
		}
	}
	replace := func(t *testing.T, target, name string) {
		t.Helper()
		if err := os.Remove(name); err != nil {
			t.Fatal(err)
		}
		link(t, target, name)
	}
	for _, tc := range []struct {
		name   string
		op     chain.RedirOp
		target string
		before func(t *testing.T, w world) // the state judged
		swap   func(t *testing.T, w world) // the change after the judgement
		want   string                      // the target's content after, "" when changed
	}{
		{name: "unchanged file truncated", op: chain.RedirOut, target: "f",
			before: func(t *testing.T, w world) { writeFile(t, filepath.Join(w.dir, "f"), "old") }, want: "new"},
		{name: "unchanged append", op: chain.RedirAppend, target: "f",
			before: func(t *testing.T, w world) { writeFile(t, filepath.Join(w.dir, "f"), "old") }, want: "oldnew"},
		{name: "new file created", op: chain.RedirOut, target: "f", want: "new"},
		{name: "new file through a judged dangling link", op: chain.RedirOut, target: "l",
			before: func(t *testing.T, w world) { link(t, "made", filepath.Join(w.dir, "l")) }, want: "new"},
		{name: "file swapped for a link", op: chain.RedirOut, target: "f",
			before: func(t *testing.T, w world) { writeFile(t, filepath.Join(w.dir, "f"), "old") },
			swap:   func(t *testing.T, w world) { replace(t, w.victim, filepath.Join(w.dir, "f")) }},
		{name: "file swapped for a link, append", op: chain.RedirAppend, target: "f",
			before: func(t *testing.T, w world) { writeFile(t, filepath.Join(w.dir, "f"), "old") },
			swap:   func(t *testing.T, w world) { replace(t, w.victim, filepath.Join(w.dir, "f")) }},
		{name: "file swapped for a link, read", op: chain.RedirIn, target: "f",
			before: func(t *testing.T, w world) { writeFile(t, filepath.Join(w.dir, "f"), "old") },
			swap:   func(t *testing.T, w world) { replace(t, w.victim, filepath.Join(w.dir, "f")) }},
		{name: "new name made a link", op: chain.RedirOut, target: "f",
			swap: func(t *testing.T, w world) { link(t, w.victim, filepath.Join(w.dir, "f")) }},
		{name: "dangling link retargeted", op: chain.RedirOut, target: "l",
			before: func(t *testing.T, w world) { link(t, "made", filepath.Join(w.dir, "l")) },
			swap:   func(t *testing.T, w world) { replace(t, w.victim, filepath.Join(w.dir, "l")) }},
		{name: "directory swapped for a link", op: chain.RedirOut, target: "d/victim",
			before: func(t *testing.T, w world) { testprog.MakeTree(t, w.dir, "d/") },
			swap: func(t *testing.T, w world) {
				os.Remove(filepath.Join(w.dir, "d"))
				link(t, filepath.Dir(w.victim), filepath.Join(w.dir, "d"))
			}},
		{name: "file replaced by another", op: chain.RedirIn, target: "f",
			before: func(t *testing.T, w world) { writeFile(t, filepath.Join(w.dir, "f"), "old") },
			swap: func(t *testing.T, w world) {
				if err := os.Rename(w.victim, filepath.Join(w.dir, "f")); err != nil {
					t.Fatal(err)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := testprog.TempDir(t)
			w := world{dir: filepath.Join(base, "proj"), victim: filepath.Join(base, "outside", "victim")}
			testprog.MakeTree(t, base, "proj/", "outside/")
			writeFile(t, w.victim, "secret")
			if tc.before != nil {
				tc.before(t, w)
			}
			rules := []chain.Redirect{{Fd: 1, Op: tc.op, Target: tc.target}}
			if tc.op == chain.RedirIn {
				rules[0].Fd = 0
			}
			o := &Opener{Dir: w.dir}
			o.Judged = o.Pin(rules)
			if tc.swap != nil {
				tc.swap(t, w)
			}
			testprog.MakeTree(t, base, "stdout")
			stdout, err := os.OpenFile(filepath.Join(base, "stdout"), os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer stdout.Close()
			out, opened, err := o.Apply([]*os.File{nil, stdout, nil}, rules)
			defer closeAll(opened)
			if tc.want == "" {
				if !errors.Is(err, ErrChanged) {
					t.Fatalf("want ErrChanged, got %v", err)
				}
				if b, err := os.ReadFile(w.victim); err == nil && string(b) != "secret" { // (moved away in one case)
					t.Errorf("the file swapped in was changed: %q", b)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := out[1].WriteString("new"); err != nil {
				t.Fatal(err)
			}
			closeAll(opened)
			opened = nil
			if b, _ := os.ReadFile(filepath.Join(w.dir, tc.target)); string(b) != tc.want {
				t.Errorf("content %q, want %q", b, tc.want)
			}
		})
	}
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
