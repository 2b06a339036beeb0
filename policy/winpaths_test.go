package policy

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/expand"
	"github.com/chainrun/chainrun/internal/testprog"
)

// TestWindowsPathForms judges the paths only Windows has, in the Windows
// dialect, on the host: a path rooted on the current drive, one relative
// to the drive, a \\?\ spelling of a path a rule names, the root of a
// drive and of a share. spec's PathAnchor, JoinPath, IsRootPath and
// PlainPath tables cover the rules themselves on every OS.
func TestWindowsPathForms(t *testing.T) {
	if runtime.GOOS != "windows" {
		t.Skip("Windows: drive letters, shares and \\\\?\\ paths (spec's tables cover their rules on every OS)")
	}
	root, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	home, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	testprog.MakeTree(t, root, "secret/", "secret/k", "f.txt", "sub/")
	vol := filepath.VolumeName(root)
	rel := root[len(vol):] // \users\...\chainrun-test-N
	for _, c := range []struct {
		cmd, verdict, reason string
	}{
		{`cd \`, "ask", "leaves the roots"},
		{`cd /`, "ask", "leaves the roots"},
		{`cd ` + rel + `\sub`, "allow", "stays inside the roots"},
		{`cat ` + rel + `\f.txt`, "allow", "inside the roots"},
		{`cat ` + vol + `f.txt`, "allow", "inside the roots"},
		{`cat \\?\` + root + `\f.txt`, "allow", "inside the roots"},
		{`cat \\?\` + root + `\secret\k`, "deny", "deny rule"},
		{`cat ` + vol + `secret\k`, "deny", "deny rule"},
		{`cat ` + strings.ToUpper(root) + `\SECRET\K`, "deny", "deny rule"},
		{`rm -rf ` + vol + `\`, "ask", "would remove"},
		{`rm -rf \`, "ask", "would remove"},
		{`rm -rf \\srv\share`, "ask", "would remove"},
		{`rm -rf \\?\` + vol + `\`, "ask", "would remove"},
		{`rm -rf sub`, "allow", "inside the roots"},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			p := &Policy{Allow: mustRules(t, []string{"cat:*", "cd:*", "rm:*"}), Home: home, Mode: ModeAcceptEdits}
			_, p.PathDeny = mustRulesAndPaths(t, []string{"Read(./secret/**)"})
			ch, err := chain.ParseDialect(c.cmd, chain.Windows)
			if err != nil {
				t.Fatal(err)
			}
			sh := expand.HostShell([]string{"HOME=" + home, "PWD=" + root}, root)
			sh.Writes = p.MayWrite
			if ch, err = expand.Plan(ch, sh); err != nil {
				t.Fatal(err)
			}
			d, err := p.Authorize(context.Background(), ch, root)
			if err != nil {
				t.Fatal(err)
			}
			reasons := strings.Join(d.Segments[0].Reasons, "; ")
			if string(d.Verdict) != c.verdict || !strings.Contains(reasons, c.reason) {
				t.Errorf("%s: %s, want %s with %q", d.Verdict, reasons, c.verdict, c.reason)
			}
		})
	}
}

// TestWindowsJunctions judges paths through junctions as through symbolic
// links: Go reports a junction as an irregular file, not a link, and
// cmd's mklink /J makes one without a privilege.
func TestWindowsJunctions(t *testing.T) {
	if runtime.GOOS != "windows" {
		t.Skip("Windows: junctions (TestHoles judges symbolic links on every OS)")
	}
	root, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	outside, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	home, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	testprog.MakeTree(t, outside, "f")
	for name, target := range map[string]string{"j": outside, "dangle": filepath.Join(outside, "missing")} {
		out, err := exec.Command("cmd", "/c", "mklink", "/J", filepath.Join(root, name), target).CombinedOutput()
		if fi, lerr := os.Lstat(filepath.Join(root, name)); err != nil || lerr != nil || !isLink(fi.Mode()) {
			testprog.SkipUnderWine(t, "mklink /J reports success and makes no junction")
			t.Fatalf("mklink /J: %v, %v: %s", err, lerr, out)
		}
	}
	for _, cmd := range []string{`cat j\f`, `echo x > dangle\f`, `cd j`} {
		t.Run(cmd, func(t *testing.T) {
			p := &Policy{Allow: mustRules(t, []string{"cat:*", "cd:*", "echo:*"}), Home: home, Mode: ModeAcceptEdits}
			ch, err := chain.ParseDialect(cmd, chain.Windows)
			if err != nil {
				t.Fatal(err)
			}
			d, err := p.Authorize(context.Background(), ch, root)
			if err != nil {
				t.Fatal(err)
			}
			if reasons := strings.Join(d.Segments[0].Reasons, "; "); d.Verdict != chain.Ask || !strings.Contains(reasons, outside) {
				t.Errorf("%s: %s, want ask naming %s", d.Verdict, reasons, outside)
			}
		})
	}
}
