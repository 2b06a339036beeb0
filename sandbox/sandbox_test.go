package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
)

func TestPlacesPath(t *testing.T) {
	posixPaths(t)
	pl := Places{FileDir: "/p/.claude", Project: "/p", Home: "/h"}
	for in, want := range map[string]string{
		"//abs/x": "/abs/x", "~/x": "/h/x", "~": "/h", "/x": "/p/.claude/x", "./x": "/p/x", "x/y": "/p/x/y",
	} {
		if got := pl.Path(in); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}

func TestMergeHigherWins(t *testing.T) {
	yes, no := true, false
	var c Config
	c.Merge(&Settings{Enabled: &yes, AutoAllowBashIfSandboxed: &no, ExcludedCommands: []string{"a"}}, Places{})
	c.Merge(&Settings{AutoAllowBashIfSandboxed: &yes, ExcludedCommands: []string{"b"}}, Places{})
	if !c.Enabled || !c.AutoAllow() || !slices.Equal(c.Excluded, []string{"a", "b"}) {
		t.Errorf("%+v", c)
	}
}

func TestExcludes(t *testing.T) {
	b := New(&Config{Excluded: []string{"docker", "git push:*", "npm run *"}}, nil, "/tmp")
	for argv, want := range map[string]bool{
		"docker run x": true, "/usr/bin/docker ps": true, "git push": true, "git status": false,
		"npm run build": true, "npm install": false, "dockerd": false,
	} {
		if got := b.Excludes(strings.Fields(argv)); got != want {
			t.Errorf("%s: %v, want %v", argv, got, want)
		}
	}
}

// TestCheck is the boundary as chainrun applies it to what it opens
// itself: exact, denied paths inside writable trees included.
func TestCheck(t *testing.T) {
	posixPaths(t)
	b := &Boundary{Write: []string{"/w"}, DenyWrite: []string{"/w/locked"}, DenyRead: []string{"/s"}, AllowRead: []string{"/s/pub"}}
	for _, tt := range []struct {
		path  string
		write bool
		want  string
	}{
		{"/w/x", true, ""},
		{"/w/locked/x", true, "sandbox: write under denyWrite /w/locked"},
		{"/elsewhere/x", true, "sandbox: write outside the allowed paths"},
		{"/dev/null", true, ""},
		{"/elsewhere/x", false, ""},
		{"/s/key", false, "sandbox: read under denyRead /s"},
		{"/s/pub/k", false, ""},
	} {
		err := b.Check(tt.path, tt.write)
		var se *Error
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.path, err)
		case tt.want != "" && (!errors.As(err, &se) || !strings.HasPrefix(err.Error(), tt.want)):
			t.Errorf("%s: %v, want %s", tt.path, err, tt.want)
		}
	}
}

// TestGrants: a denied read outside the writable trees is enforced by
// granting what is beside it; what Landlock cannot take out is a Carve.
func TestGrants(t *testing.T) {
	posixPaths(t)
	dir, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	for _, d := range []string{"home/.ssh", "home/proj", "home/docs"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	os.WriteFile(filepath.Join(dir, "home", "notes"), nil, 0o644)
	os.Symlink(".ssh/id", filepath.Join(dir, "home", "link"))
	home := filepath.Join(dir, "home")
	b := &Boundary{Write: []string{filepath.Join(home, "proj")}, DenyRead: []string{filepath.Join(home, ".ssh"), filepath.Join(home, "proj", ".env")},
		DenyWrite: []string{filepath.Join(home, "proj", ".git")}}
	grants := b.Grants()
	has := func(p string, a Access) bool { return slices.Contains(grants, Grant{Path: p, Access: a}) }
	if !has(filepath.Join(home, "docs"), Read|List) || !has(filepath.Join(home, "notes"), Read) || !has("/", List) {
		t.Errorf("siblings of the denied path not granted: %v", grants)
	}
	for _, g := range grants {
		if Within(g.Path, filepath.Join(home, ".ssh")) || g.Path == filepath.Join(home, "link") || g.Path == home && g.Access&Read != 0 || g.Path == "/" && g.Access&Read != 0 {
			t.Errorf("grant %v reaches the denied path", g)
		}
	}
	want := []Carve{
		{Path: filepath.Join(home, "proj", ".git"), Why: "denyWrite " + filepath.Join(home, "proj", ".git") + " is inside the writable tree " + filepath.Join(home, "proj")},
		{Path: filepath.Join(home, "proj", ".env"), Hide: true, Why: "denyRead " + filepath.Join(home, "proj", ".env") + " is inside or beside the writable tree " + filepath.Join(home, "proj")},
	}
	if got := b.Carves(); !slices.Equal(got, want) {
		t.Errorf("carves %+v, want %+v", got, want)
	}
}

// TestSeatbelt: the profile denies writes but under the writable trees,
// carves the denied paths back out after them, and passes every path as
// a parameter.
func TestSeatbelt(t *testing.T) {
	b := &Boundary{Write: []string{"/w"}, DenyWrite: []string{"/w/locked"}, DenyRead: []string{`/s/"x")(allow`}}
	profile, params := b.Seatbelt()
	if strings.Contains(profile, "/w") || strings.Contains(profile, "allow file-read* (subpath \"/s") {
		t.Errorf("a path is quoted into the profile:\n%s", profile)
	}
	for _, want := range []string{"(deny file-write*)\n", `(allow file-write* (subpath (param "P0")))`, "(deny network-outbound (remote ip))"} {
		if !strings.Contains(profile, want) {
			t.Errorf("profile lacks %s:\n%s", want, profile)
		}
	}
	allow := strings.Index(profile, `(allow file-write* (subpath (param "P0")))`)
	deny := strings.Index(profile, "(deny file-write* (subpath (param")
	if deny < allow {
		t.Errorf("the denyWrite must come after the allow it carves from:\n%s", profile)
	}
	if params[0] != "P0=/w" || params[len(params)-1] != fmt.Sprintf(`P%d=/s/"x")(allow`, len(params)-1) {
		t.Errorf("params %q", params)
	}
	args := b.SeatbeltArgs("/bin/prog", []string{"prog", "a"})
	if args[0] != "sandbox-exec" || args[1] != "-p" || args[len(args)-2] != "/bin/prog" || args[len(args)-1] != "a" {
		t.Errorf("args %q", args)
	}
}

// posixPaths skips a test written with POSIX paths on Windows, where no
// boundary is enforced (docs/policy.md, "Windows").
func posixPaths(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX paths; Windows confines nothing, so no boundary is built there")
	}
}
