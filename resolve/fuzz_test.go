package resolve

import (
	"io/fs"
	"strings"
	"testing"
)

// everyFile is a file system on which every path is a regular file.
type everyFile struct{}

func (everyFile) Stat(name string) (fs.FileInfo, error) {
	return fakeInfo{name: name, mode: 0o755}, nil
}

// FuzzFindWindows checks what callers rely on whatever the name and
// environment: no panic, and a program found is an absolute path whose
// Kind is what Classify says of it, or a lower-case cmd built-in.
func FuzzFindWindows(f *testing.F) {
	for _, s := range []string{"a", `.\a.bat. .`, `C:a`, `\\srv\share\x`, `..\..\x.cmd`, "dir", `\\?\C:\a.bat.`, "a.", ". .", `D:`, `a/b\c:d`} {
		f.Add(s, `C:\p;"C:\q;r";rel;;\x`, ".COM;.EXE;.BAT;.CMD")
	}
	f.Fuzz(func(t *testing.T, name, path, pathext string) {
		r := &Resolver{GOOS: "windows", FS: everyFile{}}
		got, err := r.Find(name, `C:\w`, []string{"PATH=" + path, "PATHEXT=" + pathext, "=D:=D:\\d"})
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("Find(%q): %T is not *Error", name, err)
			}
			return
		}
		if got.Kind == CmdBuiltin {
			if got.Path != strings.ToLower(name) || !IsCmdBuiltin(name) {
				t.Fatalf("Find(%q) = %+v", name, got)
			}
			return
		}
		if !winIsAbs(got.Path) {
			t.Fatalf("Find(%q) = %+v: not absolute", name, got)
		}
		if k, err := Classify(got.Path); err != nil || k != got.Kind {
			t.Fatalf("Find(%q) = %+v, but Classify says %q, %v", name, got, k, err)
		}
	})
}
