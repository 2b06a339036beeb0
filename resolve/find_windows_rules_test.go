package resolve

import (
	"errors"
	"strings"
	"testing"
)

const winRoot = `C:\t`

// winFiles roots relative specs at C:\t.
func winFiles(specs []string) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		prefix := ""
		if p, rest, ok := strings.Cut(s, ":"); ok && (p == "alias" || p == "noexec") {
			prefix, s = p+":", rest
		}
		if !winIsAbs(s) {
			s = winRoot + `\` + s
		}
		out[i] = prefix + s
	}
	return out
}

func TestFindWindows(t *testing.T) {
	for _, tt := range []struct {
		name     string
		files    []string // relative to C:\t; `x\` is a directory
		env      []string // default: PATH=C:\t\p1;C:\t\p2
		dir      string   // default C:\t
		find     string
		want     string // Target.Path; relative to C:\t unless a built-in
		kind     Kind
		wantErr  error
		wantHint string // substring of the error's hint
	}{
		// Search order.
		{name: "first match", files: []string{`p1\a.exe`, `p2\a.exe`, `p2\a`}, find: "a", want: `p1\a.exe`},
		{name: "dirs with extensions", files: []string{`p1.dir\a`, `p2.dir\a.exe`},
			env: []string{`PATH=C:\t\p1.dir;C:\t\p2.dir`}, find: "a", want: `p2.dir\a.exe`},
		{name: "first with extension", files: []string{`p1\a.exe`, `p2\a.exe`}, find: "a.exe", want: `p1\a.exe`},
		{name: "specific name", files: []string{`p1\a.exe`, `p2\b.exe`}, find: "b", want: `p2\b.exe`},
		{name: "no extension", files: []string{`p1\b`, `p2\a`}, find: "a", wantErr: ErrNotFound},
		{name: "no match", files: []string{`p1\a.exe`, `p2\a.exe`}, find: "b", wantErr: ErrNotFound},
		{name: "extensionless file in dir ignored", files: []string{`a`, `p1\a.exe`, `p2\a.exe`}, find: "a", want: `p1\a.exe`},
		{name: "extensionless file in PATH ignored", files: []string{`p1\a`, `p2\a.exe`}, find: "a", want: `p2\a.exe`},
		{name: "specific extension", files: []string{`p1\a.exe`, `p2\a.bat`}, find: "a.bat", want: `p2\a.bat`, kind: Batch},
		{name: "mismatched extension", files: []string{`p1\a.exe`, `p2\a.exe`}, find: "a.com", wantErr: ErrNotFound},
		{name: "doubled extension", files: []string{`p1\a.exe.exe`}, find: "a.exe", want: `p1\a.exe.exe`},
		{name: "first dir wins over PATHEXT order", files: []string{`p1\a.bat`, `p2\a.exe`}, find: "a", want: `p1\a.bat`, kind: Batch},
		{name: "PATHEXT order within a dir", files: []string{`p1\a.bat`, `p1\a.exe`, `p1\a.com`, `p2\a.exe`}, find: "a", want: `p1\a.com`},
		{name: "directory with a PATHEXT extension", files: []string{`p1\a.exe\`}, find: "a", wantErr: ErrNotFound},
		{name: "directory named exactly", files: []string{`p1\a.exe\`, `p2\a.exe`}, find: "a.exe", want: `p2\a.exe`},
		{name: "case-insensitive file names", files: []string{`P1\A.EXE`}, find: "A", want: `p1\A.exe`},

		// PATHEXT.
		{name: "extension not in PATHEXT still tried bare", files: []string{`p1\a.exe`, `p2\a.exe`},
			env: []string{`PATH=C:\t\p1;C:\t\p2`, `PATHEXT=.COM;.BAT`}, find: "a.exe", want: `p1\a.exe`},
		{name: "first allowed by PATHEXT", files: []string{`p1\a.bat`, `p2\a.exe`},
			env: []string{`PATH=C:\t\p1;C:\t\p2`, `PATHEXT=.COM;.EXE`}, find: "a", want: `p2\a.exe`},
		{name: "PATHEXT order", files: []string{`p1\a.bat`, `p1\a.exe`},
			env: []string{`PATH=C:\t\p1`, `PATHEXT=.BAT;.EXE`}, find: "a", want: `p1\a.bat`, kind: Batch},
		{name: "PATHEXT lower case without dots", files: []string{`p1\a.cmd`},
			env: []string{`PATH=C:\t\p1`, `PATHEXT=exe;cmd`}, find: "a", want: `p1\a.cmd`, kind: Batch},
		{name: "empty PATHEXT means the default", files: []string{`p1\a.cmd`},
			env: []string{`PATH=C:\t\p1`, `PATHEXT=`}, find: "a", want: `p1\a.cmd`, kind: Batch},
		{name: "PATHEXT without default entries", files: []string{`p1\a.exe`},
			env: []string{`PATH=C:\t\p1`, `PATHEXT=.BAT`}, find: "a", wantErr: ErrNotFound},
		{name: "PATHEXT variants merged", files: []string{`p1\a.ps1`},
			env: []string{`PATH=C:\t\p1`, `PATHEXT=.EXE`, `Pathext=.PS1`}, find: "a", want: `p1\a.ps1`, kind: PowerShell},
		{name: "PATHEXT match that Windows cannot run", files: []string{`p1\a.js`, `p2\a.exe`},
			env: []string{`PATH=C:\t\p1;C:\t\p2`, `PATHEXT=.COM;.EXE;.JS`}, find: "a",
			wantErr: ErrNotExecutable, wantHint: `C:\t\p1\a.js is a Windows Script Host file`},

		// PATH.
		{name: "empty PATH entries skipped", files: []string{`a.bat`, `p\a.bat`},
			env: []string{`PATH=;;C:\t\p;`}, find: "a", want: `p\a.bat`, kind: Batch},
		{name: "quoted PATH entry with a semicolon", files: []string{`p;1\a.exe`, `p2\a.exe`},
			env: []string{`PATH="C:\t\p;1";C:\t\p2`}, find: "a", want: `p;1\a.exe`},
		{name: "quoted PATH entry with spaces", files: []string{`Program Files\x\a.exe`},
			env: []string{`PATH="C:\t\Program Files\x"`}, find: "a", want: `Program Files\x\a.exe`},
		{name: "PATH entry with trailing separator", files: []string{`p1\a.exe`},
			env: []string{`PATH=C:\t\p1\`}, find: "a", want: `p1\a.exe`},
		{name: "PATH entry with forward slashes", files: []string{`p1\a.exe`},
			env: []string{`PATH=C:/t/p1`}, find: "a", want: `p1\a.exe`},
		{name: "UNC PATH entry", files: []string{`\\srv\share\bin\a.exe`},
			env: []string{`PATH=\\srv\share\bin`}, find: "a", want: `\\srv\share\bin\a.exe`},
		{name: "Path and PATH both searched", files: []string{`p2\a.exe`},
			env: []string{`Path=C:\t\p1`, `PATH=C:\t\p2`}, find: "a", want: `p2\a.exe`},
		{name: "PATH variants in env order", files: []string{`p1\a.exe`, `p2\a.exe`},
			env: []string{`path=C:\t\p2`, `Path=C:\t\p1`}, find: "a", want: `p2\a.exe`},
		{name: "no PATH", files: []string{`p1\a.exe`}, env: []string{}, find: "a", wantErr: ErrNotFound},

		// No implicit current directory.
		{name: "only in dir", files: []string{`a.exe`}, find: "a", wantErr: ErrDot,
			wantHint: `use .\a to run the program in the current directory`},
		{name: "only in dir, with extension", files: []string{`a.exe`}, find: "a.exe", wantErr: ErrDot, wantHint: `use .\a.exe`},
		{name: "only in the chain's dir, not the root", files: []string{`sub\a.exe`}, dir: `C:\t\sub`, find: "a", wantErr: ErrDot},
		{name: "in dir and in PATH: PATH wins", files: []string{`a.exe`, `p2\a.exe`}, find: "a", want: `p2\a.exe`},
		{name: "relative PATH entry", files: []string{`bin\a.exe`}, env: []string{`PATH=bin`}, find: "a",
			wantErr: ErrDot, wantHint: `relative PATH entry bin; use .\bin\a.exe`},
		{name: "dot PATH entry", files: []string{`a.exe`}, env: []string{`PATH=.`}, find: "a", wantErr: ErrDot, wantHint: `use .\a.exe or`},
		{name: "parent PATH entry", files: []string{`a.exe`}, dir: `C:\t\sub`, env: []string{`PATH=..`}, find: "a", wantErr: ErrDot, wantHint: `use ..\a.exe or`},
		{name: "root-relative PATH entry is relative", files: []string{`bin\a.exe`}, env: []string{`PATH=\t\bin`}, find: "a", wantErr: ErrDot, wantHint: `use \t\bin\a.exe or`},
		{name: "drive-relative PATH entry is relative", files: []string{`bin\a.exe`}, env: []string{`PATH=C:bin`}, find: "a", wantErr: ErrDot, wantHint: `use C:bin\a.exe or`},
		{name: "relative PATH entry then absolute", files: []string{`bin\a.exe`, `p2\a.exe`},
			env: []string{`PATH=bin;C:\t\p2`}, find: "a", want: `p2\a.exe`},
		{name: "nowhere", find: "a", wantErr: ErrNotFound},

		// Names with separators: relative to dir, never PATH.
		{name: "with dir", files: []string{`p\a.exe`}, find: `p\a.exe`, want: `p\a.exe`},
		{name: "with explicit dot", files: []string{`p\a.exe`}, find: `.\p\a.exe`, want: `p\a.exe`},
		{name: "with forward slash", files: []string{`p\a.exe`}, find: `./p/a.exe`, want: `p\a.exe`},
		{name: "with dot-dot", files: []string{`p\a.exe`}, dir: `C:\t\q`, find: `..\p\a`, want: `p\a.exe`},
		{name: "with slash and no extension", files: []string{`p\a.exe`, `p2\a.exe`}, find: `p\a`, want: `p\a.exe`},
		{name: "with separator, extensionless file ignored", files: []string{`p\a`}, find: `p\a`, wantErr: ErrNoFile},
		{name: "with separator, doubled extension", files: []string{`p\a.bat.exe`}, find: `p\a.bat`, want: `p\a.bat.exe`},
		{name: "with separator, existing file kept", files: []string{`p\a.bat`, `p\a.bat.exe`}, find: `p\a.bat`, want: `p\a.bat`, kind: Batch},
		{name: "with separator, never via PATH", files: []string{`p1\x\a.exe`}, env: []string{`PATH=C:\t\p1`}, find: `x\a`,
			wantErr: ErrNoFile, wantHint: `no file C:\t\x\a`},
		{name: "current dir explicitly", files: []string{`a.cmd`}, find: `.\a`, want: `a.cmd`, kind: Batch},
		{name: "absolute", files: []string{`p\a.exe`}, dir: `D:\elsewhere`, find: `C:\t\p\a`, want: `p\a.exe`},
		{name: "absolute with forward slashes", files: []string{`p\a.exe`}, find: `C:/t/p/a.exe`, want: `p\a.exe`},
		{name: "root-relative", files: []string{`p\a.exe`}, dir: `C:\other`, find: `\t\p\a.exe`, want: `p\a.exe`},
		{name: "drive-relative on dir's drive", files: []string{`a.exe`}, find: `c:a.exe`, want: `a.exe`},
		{name: "drive-relative on another drive", files: []string{`D:\work\a.exe`},
			env: []string{`=D:=D:\work`}, find: `D:a`, want: `D:\work\a.exe`},
		{name: "drive-relative without the drive's directory", files: []string{`D:\a.exe`}, find: `D:a`, want: `D:\a.exe`},
		{name: "UNC name", files: []string{`\\srv\share\a.exe`}, find: `\\srv\share\a`, want: `\\srv\share\a.exe`},
		{name: "empty name", find: "", wantErr: ErrNotFound},
		{name: "dot", files: []string{`..exe`, `p1\..exe`}, find: ".", wantErr: ErrNotFound},
		{name: "dot-dot", files: []string{`...exe`, `p1\...exe`}, find: "..", wantErr: ErrNotFound},

		// Classification and trailing dots and spaces.
		{name: "trailing dot batch", files: []string{`a.bat`}, find: `.\a.bat.`, want: `a.bat`, kind: Batch},
		{name: "trailing dots and spaces batch", files: []string{`p1\a.bat`}, find: `a.bat. .`, want: `p1\a.bat`, kind: Batch},
		{name: "trailing dot, no extension", files: []string{`p1\a`, `p2\a.exe`}, find: `a.`, want: `p2\a.exe`},
		{name: "upper-case batch", files: []string{`p1\A.CMD`}, find: "a", want: `p1\a.cmd`, kind: Batch},
		{name: "PowerShell script by name", files: []string{`p1\s.ps1`}, find: "s.ps1", want: `p1\s.ps1`, kind: PowerShell},
		{name: "PowerShell script not in PATHEXT", files: []string{`p1\s.ps1`}, find: "s", wantErr: ErrNotFound},
		{name: "text file is not executable", files: []string{`p1\notes.txt`}, find: "notes.txt",
			wantErr: ErrNotExecutable, wantHint: `C:\t\p1\notes.txt is a txt file`},
		{name: "script host file is not executable", files: []string{`x.vbs`}, find: `.\x.vbs`, wantErr: ErrNotExecutable},
		{name: "App Execution Alias", files: []string{`alias:Apps\python.exe`}, env: []string{`PATH=C:\t\Apps`}, find: "python", want: `Apps\python.exe`},
		{name: "App Execution Alias by path", files: []string{`alias:Apps\wt.exe`}, find: `Apps\wt.exe`, want: `Apps\wt.exe`},

		// cmd built-ins.
		{name: "built-in", find: "dir", want: "dir", kind: CmdBuiltin},
		{name: "built-in any case", find: "MkLink", want: "mklink", kind: CmdBuiltin},
		{name: "executable shadows built-in", files: []string{`p2\type.exe`}, find: "type", want: `p2\type.exe`},
		{name: "built-in beats a file in dir", files: []string{`dir.exe`}, find: "dir", want: "dir", kind: CmdBuiltin},
		{name: "built-in beats a relative PATH entry", files: []string{`bin\copy.bat`}, env: []string{`PATH=bin`}, find: "copy", want: "copy", kind: CmdBuiltin},
		{name: "built-in beats a file Windows cannot run", files: []string{`p1\type.js`},
			env: []string{`PATH=C:\t\p1`, `PATHEXT=.EXE;.JS`}, find: "type", want: "type", kind: CmdBuiltin},
		{name: "built-in with extension is a file name", find: "dir.exe", wantErr: ErrNotFound},
		{name: "built-in with separator is a file name", find: `.\dir`, wantErr: ErrNoFile},
		{name: "real executable, not a built-in", find: "findstr", wantErr: ErrNotFound},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env := tt.env
			if env == nil {
				env = []string{`PATH=C:\t\p1;C:\t\p2`}
			}
			dir := tt.dir
			if dir == "" {
				dir = winRoot
			}
			r := &Resolver{GOOS: "windows", FS: newFakeFS(true, winFiles(tt.files)...)}
			got, err := r.Find(tt.find, dir, env)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Find(%q) = %+v, %v; want error %v", tt.find, got, err, tt.wantErr)
				}
				var e *Error
				if !errors.As(err, &e) || e.Name != tt.find {
					t.Fatalf("error %#v is not an *Error naming %q", err, tt.find)
				}
				if !strings.Contains(e.Hint, tt.wantHint) {
					t.Fatalf("hint %q does not contain %q", e.Hint, tt.wantHint)
				}
				return
			}
			if err != nil {
				t.Fatalf("Find(%q): %v", tt.find, err)
			}
			want, kind := tt.want, tt.kind
			if kind == "" {
				kind = Native
			}
			if kind != CmdBuiltin && !winIsAbs(want) {
				want = winRoot + `\` + want
			}
			if !strings.EqualFold(got.Path, want) || got.Kind != kind {
				t.Fatalf("Find(%q) = %+v; want {%s %s}", tt.find, got, want, kind)
			}
		})
	}
}
