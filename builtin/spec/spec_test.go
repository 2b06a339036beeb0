package spec

import (
	"errors"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestCdWindows is cd with Windows' path forms: a path rooted on the
// current drive, one relative to a drive, another drive, a share.
func TestCdWindows(t *testing.T) {
	if runtime.GOOS != "windows" {
		t.Skip("Windows: drive letters and shares (PathAnchor's table covers the rules on every OS)")
	}
	hooks := CdHooks{Lookup: func(string) (string, bool) { return "", false }, Stat: func(string) error { return nil }}
	for arg, want := range map[string]string{
		`\etc`: `C:\etc`, "/etc": `C:\etc`, "C:x": `C:\w\x`, `D:\x`: `D:\x`, "D:x": `D:\x`, `\\srv\share\x`: `\\srv\share\x`,
		`sub\..\y`: `C:\w\y`,
	} {
		res, err := Cd(`C:\w`, []string{arg}, hooks)
		if err != nil || res.Dir != want {
			t.Errorf("cd %s from C:\\w = %q, %v; want %q", arg, res.Dir, err, want)
		}
	}
}

// TestCd is bash's cd as a function of the directory, the variables and
// which paths are directories; TestLikeBash (engine) runs the same rules
// against bash.
func TestCd(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX: the table's paths are rooted at / (TestCdWindows has Windows' forms)")
	}
	dirs := []string{"/w", "/w/sub", "/w/a", "/w/a/sub", "/h", "/o", "/w/link"}
	vars := map[string]string{"HOME": "/h", "OLDPWD": "/o"}
	hooks := func(extra map[string]string) CdHooks {
		return CdHooks{
			Lookup: func(n string) (string, bool) {
				if v, ok := extra[n]; ok {
					return v, v != "unset"
				}
				v, ok := vars[n]
				return v, ok
			},
			Stat: func(p string) error {
				if slices.Contains(dirs, filepath.Clean(p)) && !strings.Contains(p, "missing") {
					return nil
				}
				return errors.New("no such directory")
			},
			Resolve: func(p string) string { return strings.Replace(p, "/w/link", "/w/a", 1) },
		}
	}
	for _, c := range []struct {
		args  []string
		extra map[string]string
		dir   string
		print bool
		err   string
	}{
		{args: []string{"sub"}, dir: "/w/sub"},
		{args: nil, dir: "/h"},
		{args: nil, extra: map[string]string{"HOME": "unset"}, err: "cd: HOME not set"},
		{args: []string{"-"}, dir: "/o", print: true},
		{args: []string{"-"}, extra: map[string]string{"OLDPWD": ""}, err: "cd: OLDPWD not set"},
		{args: []string{"sub"}, extra: map[string]string{"CDPATH": "/w/a"}, dir: "/w/a/sub", print: true},
		{args: []string{"sub"}, extra: map[string]string{"CDPATH": ":/w/a"}, dir: "/w/sub"},
		{args: []string{"./sub"}, extra: map[string]string{"CDPATH": "/w/a"}, dir: "/w/sub"},
		{args: []string{"o"}, extra: map[string]string{"CDPATH": ".."}, dir: "/o", print: true},
		{args: []string{"a"}, extra: map[string]string{"CDPATH": ".."}, dir: "/w/a"},
		{args: []string{"-P", "link"}, dir: "/w/a"},
		{args: []string{"-P", "-L", "link"}, dir: "/w/link"},
		{args: []string{"--", "sub"}, dir: "/w/sub"},
		{args: []string{"-x"}, err: "cd: -x: invalid option"},
		{args: []string{"a", "b"}, err: "cd: too many arguments"},
		{args: []string{"missing/.."}, err: "cd: missing/..: no such directory"},
		{args: []string{""}, dir: ""},
	} {
		res, err := Cd("/w", c.args, hooks(c.extra))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.err || res.Dir != c.dir || res.Print != c.print {
			t.Errorf("cd %q %v: %+v, %q; want dir %q print %v err %q", c.args, c.extra, res, got, c.dir, c.print, c.err)
		}
	}
}

// TestEffects: each record declares what its arguments make it do.
func TestEffects(t *testing.T) {
	eff := func(name string, args ...string) Effects {
		b, ok := Lookup(name)
		if !ok {
			t.Fatalf("no record for %s", name)
		}
		return b.Effects(args)
	}
	if e := eff("printf", "-v", "PATH", "%s", "x"); !slices.Equal(e.Assigns, []string{"PATH"}) || !e.State {
		t.Errorf("printf -v PATH: %+v", e)
	}
	if e := eff("printf", "-vX", "%s"); !slices.Equal(e.Assigns, []string{"X"}) {
		t.Errorf("printf -vX: %+v", e)
	}
	if e := eff("printf", "%s", "-v"); len(e.Assigns) != 0 || e.State {
		t.Errorf("printf %%s -v: %+v", e)
	}
	if e := eff("test", "-f", "a", "-o", "-d", "b"); !slices.Equal(e.Stats, []string{"a", "b"}) {
		t.Errorf("test -f a -o -d b: %+v", e)
	}
	if e := eff("[", "x", "-nt", "y", "]"); !slices.Equal(e.Stats, []string{"x", "y"}) {
		t.Errorf("[ x -nt y ]: %+v", e)
	}
	if e := eff("test", "-n", "a"); len(e.Stats) != 0 {
		t.Errorf("test -n a: %+v", e)
	}
	if e := eff("cd", "x"); !e.Chdir || !e.State {
		t.Errorf("cd: %+v", e)
	}
	if e := eff("unset", "-v", "A", "B"); !slices.Equal(e.Unsets, []string{"A", "B"}) {
		t.Errorf("unset: %+v", e)
	}
	if e := eff("read", "-r", "a", "b"); !e.Stdin || !e.State || !slices.Equal(e.Assigns, []string{"a", "b"}) {
		t.Errorf("read -r a b: %+v", e)
	}
	if e := eff("read"); !slices.Equal(e.Assigns, []string{"REPLY"}) {
		t.Errorf("read: %+v", e)
	}
	for _, b := range All {
		if e := b.Effects(nil); len(e.Reads)+len(e.Writes) != 0 || (e.Stdin && b.Name != "read") {
			t.Errorf("%s reads or writes files: none of the built-ins does (read only its stdin)", b.Name)
		}
	}
}
