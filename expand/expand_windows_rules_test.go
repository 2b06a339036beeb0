package expand

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/chainrun/chainrun/chain"
)

// Windows rules are selected by Shell.Rules == WindowsRules, not by the
// OS, so they are tested here on a fake file system whatever the host.

// fakeFS maps a directory to its entries ("/" ends a directory's name).
// Look-ups ignore case, as on Windows.
type fakeFS map[string][]string

type fakeEntry struct {
	name string
	dir  bool
}

func (e fakeEntry) Name() string { return e.name }
func (e fakeEntry) IsDir() bool  { return e.dir }
func (e fakeEntry) Type() fs.FileMode {
	if e.dir {
		return fs.ModeDir
	}
	return 0
}
func (e fakeEntry) Info() (fs.FileInfo, error) { return nil, fs.ErrInvalid }

// ReadDir lists dir; a file is not a directory, anything else does not
// exist.
func (f fakeFS) ReadDir(dir string) ([]fs.DirEntry, error) {
	// The glob joins with the host's separator: \w on Windows.
	dir = filepath.ToSlash(dir)
	for d, names := range f {
		if !strings.EqualFold(d, dir) {
			continue
		}
		out := make([]fs.DirEntry, len(names))
		for i, n := range names {
			out[i] = fakeEntry{strings.TrimSuffix(n, "/"), strings.HasSuffix(n, "/")}
		}
		return out, nil
	}
	parent, base := dir[:max(strings.LastIndexByte(dir, '/'), 0)], dir[strings.LastIndexByte(dir, '/')+1:]
	for d, names := range f {
		if strings.EqualFold(d, parent) && slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, base) }) {
			return nil, &fs.PathError{Op: "readdir", Path: dir, Err: syscall.ENOTDIR}
		}
	}
	return nil, &fs.PathError{Op: "readdir", Path: dir, Err: fs.ErrNotExist}
}

// windowsShell is a Windows shell in /w of the fake file system, with
// Path (not PATH) and USERPROFILE set and HOME unset.
func windowsShell() *Shell {
	fake := fakeFS{
		"/w":     {"Main.GO", "util.go", "README.md", "Sub/"},
		"/w/Sub": {"x.GO", "notes.txt"},
	}
	return &Shell{
		Env:   []string{`Path=C:\bin`, `USERPROFILE=C:\Users\me`, "USER=me", "PWD=/w"},
		Dir:   "/w",
		Rules: WindowsRules,
		ReadDir: func(dir string) ([]fs.DirEntry, error) {
			return fake.ReadDir(dir)
		},
	}
}

func TestExpandWindowsRules(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		d         chain.Dialect
		set       []string
		want      []string
		bug       string
	}{
		{name: "names fold", src: "echo $PATH $path ${PATH:-x}", want: []string{"echo", `C:\bin`, `C:\bin`, `C:\bin`}},
		{name: "glob ignores case", src: "echo *.go *.GO m* [M]ain.go readme.*", want: []string{"echo",
			"Main.GO", "util.go", "Main.GO", "util.go", "Main.GO", "Main.GO", "README.md"}},
		{name: "glob in a folded directory", src: "echo sub/*.go s*/", want: []string{"echo", "sub/x.GO", "Sub/"}},
		{name: "no match stays", src: "echo *.rs", want: []string{"echo", "*.rs"}},
		{name: "tilde falls back to USERPROFILE", src: "echo ~ ~/x $HOME", want: []string{"echo", `C:\Users\me`, `C:\Users\me/x`, `C:\Users\me`}},
		{name: "tilde prefers HOME", src: "echo ~ $HOME", set: []string{"HOME=/h"}, want: []string{"echo", "/h", "/h"}},
		{name: "backslashes kept around an expansion", src: `dir C:\Users\x$USER\y "C:\dir\sub$USER" $USERPROFILE\x "$USERPROFILE\x"`,
			d: chain.Windows, want: []string{"dir", `C:\Users\xme\y`, `C:\dir\subme`, `C:\Users\me\x`, `C:\Users\me\x`}},
		{name: "posix dialect reads them as escapes", src: `dir C:\Users\x$USER\y`, d: chain.POSIX, want: []string{"dir", "C:Usersxmey"}},
		// \$ escapes the $ in the Windows dialect too (docs/syntax.md): the
		// variable joins a path through quotes or a slash.
		{name: "backslash before $ escapes it", src: `dir C:\Users\$USER\x "C:\dir\$USER" "$HOME"\x`, d: chain.Windows,
			want: []string{"dir", `C:\Users$USER\x`, `C:\dir$USER`, `C:\Users\me\x`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			skipBug(t, tt.bug)
			sh := windowsShell()
			setVars(sh, tt.set)
			d := tt.d
			if d == "" {
				d = chain.Windows
			}
			plan, run := expandOne(t, sh, d, tt.src)
			if !slices.Equal(plan.Args, tt.want) || !slices.Equal(run.Args, tt.want) {
				t.Errorf("plan %q, run %q, want %q", plan.Args, run.Args, tt.want)
			}
		})
	}
}

// TestPlanWindowsNames: a variable set under another case is the same
// variable on Windows.
func TestPlanWindowsNames(t *testing.T) {
	c, err := chain.ParseDialect(`PATH=C:\x; echo $Path; export path=y; echo $PATH`, chain.Windows)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Plan(c, windowsShell())
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{nil, {"echo", `C:\x`}, {"export", "path=y"}, {"echo", "y"}}
	if got := argvs(p); !slicesEqual2(got, want) {
		t.Errorf("plan = %q, want %q", got, want)
	}
}

// TestPlanWindowsUnknownNames: a variable the plan cannot know stays
// unknown under any case of its name on Windows.
func TestPlanWindowsUnknownNames(t *testing.T) {
	c, err := chain.ParseDialect(`false && Path=C:\x; echo $PATH`, chain.Windows)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Plan(c, windowsShell())
	if err != nil {
		t.Fatal(err)
	}
	if got := typedArgs(p.Segments()[2]); len(got) != 2 || got[1] != u("$PATH") {
		t.Errorf("Args = %q, want [echo %q]", got, u("$PATH"))
	}
}
