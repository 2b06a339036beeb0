package policy

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
)

func TestResolvePathFollowsLinksBeforeDotDot(t *testing.T) {
	root, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	outside, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	deep := filepath.Join(outside, "deep", "dir")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	testprog.NeedSymlinks(t, root)
	if err := os.Symlink(deep, filepath.Join(root, "a")); err != nil {
		t.Fatal(err)
	}
	// The OS reads a/.. as the parent of the link's target, not as root.
	got := resolvePath(filepath.Join(root, "a") + "/../x")
	if want := filepath.Join(outside, "deep", "x"); got != want {
		t.Errorf("resolvePath = %q, want %q", got, want)
	}
	if got := resolvePath(filepath.Join(root, "missing", "..", "b")); got != filepath.Join(root, "b") {
		t.Errorf("missing element: %q", got)
	}
	p := &Policy{Allow: mustRules(t, []string{"cat:*"}), Home: testprog.TempDir(t)}
	c, _ := chain.ParseDialect("cat a/../x", chain.POSIX)
	d, _ := p.Authorize(context.Background(), c, root)
	if d.Verdict != chain.Ask {
		t.Errorf("cat a/../x through a link leaving the root: %s %q", d.Verdict, d.Segments[0].Reasons)
	}
}

// TestResolveDirOncePerCall: a working directory is resolved once per call
// and then kept for the rest of it, however many the chain has (the first
// few in resolveDir's room, the rest in its map); a new call resolves
// afresh.
func TestResolveDirOncePerCall(t *testing.T) {
	root, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	elsewhere := filepath.Join(root, "elsewhere")
	var dirs []string
	for i := range 7 {
		d := filepath.Join(root, "d"+string(rune('0'+i)))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, d)
	}
	if err := os.Mkdir(elsewhere, 0o755); err != nil {
		t.Fatal(err)
	}
	e := &pathEnv{p: &Policy{}, startDir: root}
	for _, d := range dirs {
		if got := e.resolveDir(d); got != d {
			t.Fatalf("resolveDir(%q) = %q", d, got)
		}
	}
	testprog.NeedSymlinks(t, root)
	// Each directory becomes a link elsewhere: this call keeps what it
	// resolved, the next call sees the links.
	for _, d := range dirs {
		if err := os.Remove(d); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(elsewhere, d); err != nil {
			t.Skip("symlinks unavailable:", err)
		}
	}
	next := &pathEnv{p: &Policy{}, startDir: root}
	for _, d := range dirs {
		if got := e.resolveDir(d); got != d {
			t.Errorf("same call: resolveDir(%q) = %q, want it as first resolved", d, got)
		}
		if got := next.resolveDir(d); got != elsewhere {
			t.Errorf("next call: resolveDir(%q) = %q, want %q", d, got, elsewhere)
		}
	}
}

func TestSensitive(t *testing.T) {
	home := "/home/u"
	e := &pathEnv{p: &Policy{Home: home}, startDir: "/work/p"}
	e.init()
	e.home, e.homeKey = home, home+"/"
	for p, want := range map[string]bool{
		"/home/u/.ssh/id_ed25519": true, "/home/u/.aws/credentials": true, "/home/u/.config/gh/hosts.yml": true,
		"/home/u/.bashrc": true, "/work/p/.git/hooks/pre-commit": true, "/work/p/.git/config": true,
		"/work/p/.claude/settings.json": true, "/work/p/sub/.vscode/tasks.json": true, "/proc/1/environ": true,
		"/dev/tcp/1.2.3.4/80": true, "/work/p/.env.local": true, "/work/p/key.pem": true, "/etc/shadow": true,
		"/work/p/main.go": false, "/work/p/.git/HEAD": false, "/home/u/src/x.go": false, "/work/p/.github/x.yml": false,
		"/home/u/.config/git/config": true, "/work/p/docs/environ": false,
	} {
		if got := e.sensitive(p) != ""; got != want {
			t.Errorf("sensitive(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestWithinAndRemoval(t *testing.T) {
	// The paths are the host's: on Windows "/work/p" is \work\p on the
	// temporary directory's drive, as a resolved path is.
	vol := filepath.VolumeName(os.TempDir())
	abs := func(p string) string { return vol + filepath.FromSlash(p) }
	if !within(abs("/a/b"), abs("/a")) || within(abs("/ab"), abs("/a")) || !within(abs("/a"), abs("/a")) || !within(abs("/a/b"), abs("/")) ||
		!within(abs("/a/b"), abs("/a/")) || within(abs("/ab"), abs("/a/")) || within(abs("/a"), abs("/a/b")) {
		t.Error("within")
	}
	e := &pathEnv{p: &Policy{Roots: []string{abs("/work/p")}, Home: abs("/home/u")}, startDir: abs("/work/p")}
	e.init()
	e.home = abs("/home/u")
	for p, want := range map[string]bool{"/": true, "/home/u": true, "/home": true, "/work": true, "/work/p": true,
		"/work/p/build": false, "/tmp/x": false} {
		if got := e.dangerousRemoval(abs(p)); got != want {
			t.Errorf("dangerousRemoval(%q) = %v, want %v", abs(p), got, want)
		}
	}
}

func TestPathReasons(t *testing.T) {
	root, _ := fixture(t)
	p := &Policy{Allow: mustRules(t, []string{"cat:*"}), Home: testprog.TempDir(t), Mode: ModeAcceptEdits}
	c, _ := chain.ParseDialect("cat docs/readme.md > out.txt 2>/dev/null", chain.POSIX)
	d, _ := p.Authorize(context.Background(), c, root)
	got := strings.Join(d.Segments[0].Reasons, "|")
	if d.Verdict != chain.Allow || !strings.Contains(got, "path docs/readme.md is inside the roots") ||
		!strings.Contains(got, "output redirect out.txt is inside the roots") || strings.Contains(got, "/dev/null") {
		t.Errorf("%s: %s", d.Verdict, got)
	}
}

func TestIsPathLike(t *testing.T) {
	for a, want := range map[string]bool{"/etc": true, "~/x": true, "..": true, "../x": true, "a/../b": true,
		`C:\x`: true, "a/b": false, "x..y": false, "./...": false, "-rf": false, "https://x/y": false} {
		if got := isPathLike(a); got != want {
			t.Errorf("isPathLike(%q) = %v", a, got)
		}
	}
}
