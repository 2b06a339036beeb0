package resolve

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFindWindowsRealFiles runs the Windows rules against the real file
// system (natively or under Wine).
func TestFindWindowsRealFiles(t *testing.T) {
	// Not t.TempDir: its cleanup fails under Wine 8 ("Invalid function"
	// from unlinkat), which would fail a test that passed.
	root, err := os.MkdirTemp("", "resolve")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(root)
	for _, f := range []string{`bin\tool.cmd`, `bin\prog.exe`, `bin\notes.txt`, `sub\a.bat`, `here.exe`} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"Path=" + filepath.Join(root, "bin") + ";" + os.Getenv("PATH"), "PATHEXT=.COM;.EXE;.BAT;.CMD"}
	for _, tt := range []struct {
		name string
		want string
		kind Kind
		err  error
	}{
		{name: "tool", want: `bin\tool.cmd`, kind: Batch},
		{name: "TOOL.CMD", want: `bin\TOOL.CMD`, kind: Batch},
		{name: "prog", want: `bin\prog.exe`, kind: Native},
		{name: `sub\a`, want: `sub\a.bat`, kind: Batch},
		{name: `.\sub\a.bat.`, want: `sub\a.bat`, kind: Batch},
		{name: `sub/a.bat. .`, want: `sub\a.bat`, kind: Batch},
		{name: "notes.txt", err: ErrNotExecutable},
		{name: "here", err: ErrDot},
		{name: "nosuch", err: ErrNotFound},
		{name: "dir", want: "dir", kind: CmdBuiltin},
	} {
		got, err := Find(tt.name, root, env)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("Find(%q) = %+v, %v; want %v", tt.name, got, err, tt.err)
			}
			continue
		}
		want := tt.want
		if tt.kind != CmdBuiltin {
			want = filepath.Join(root, want)
		}
		if err != nil || !strings.EqualFold(got.Path, want) || got.Kind != tt.kind {
			t.Errorf("Find(%q) = %+v, %v; want {%s %s}", tt.name, got, err, want, tt.kind)
		}
	}
	// A real System32 program is found through the inherited PATH.
	if got, err := Find("where", root, env); err != nil || got.Kind != Native || !strings.HasSuffix(strings.ToLower(got.Path), `\where.exe`) {
		t.Errorf("Find(where) = %+v, %v", got, err)
	}
}
