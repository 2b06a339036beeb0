package winproc

import (
	"errors"
	"testing"

	"github.com/chainrun/chainrun/resolve"
)

func TestCommandLine(t *testing.T) {
	cmd, err := systemProgram(cmdExe)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := systemProgram(powerShellExe)
	if err != nil {
		t.Fatal(err)
	}
	winPS := `C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe`
	for _, tt := range []struct {
		kind      resolve.Kind
		path      string
		args      []string
		captured  bool
		app, line string
	}{
		{resolve.Native, `C:\x\a b.exe`, []string{"ab", "x y", `q"`}, false, `C:\x\a b.exe`, `"C:\x\a b.exe" "x y" q\"`},
		{"", `C:\x\a.exe`, []string{"a"}, true, `C:\x\a.exe`, `"C:\x\a.exe"`},
		{resolve.Native, winPS, []string{"powershell", "-Command", "Get-Date"}, false, winPS,
			`"` + winPS + `" -Command ` + PowerShellUTF8Prelude + ` Get-Date`},
		{resolve.Batch, `C:\t\x.bat`, []string{"x", "a b", "%PATH%", "--save-dev"}, false, cmd,
			`cmd.exe /e:ON /v:OFF /d /c ""C:\t\x.bat" "a b" "%%cd:~,%PATH%%cd:~,%" --save-dev"`},
		{resolve.CmdBuiltin, "dir", []string{"dir", "/b", "a b"}, true, cmd, `cmd.exe /d /u /e:ON /v:OFF /s /c "dir /b "a b""`},
		{resolve.CmdBuiltin, "dir", []string{"DIR", "/b"}, false, cmd, `cmd.exe /d /e:ON /v:OFF /s /c "dir /b"`},
		{resolve.CmdBuiltin, "type", []string{"type", "f.txt"}, true, cmd, `cmd.exe /d /e:ON /v:OFF /s /c "type f.txt"`},
		{resolve.PowerShell, `C:\s\b.ps1`, []string{"b.ps1", "-Force", "a b"}, true, ps,
			`"` + ps + `" -NoLogo -NoProfile -NonInteractive -ExecutionPolicy Bypass -File C:\s\b.ps1 -Force "a b"`},
	} {
		app, line, err := CommandLine(tt.kind, tt.path, tt.args, tt.captured)
		if err != nil || app != tt.app || line != tt.line {
			t.Errorf("CommandLine(%q, %q, %q, %v)\n got %q, %q, %v\nwant %q, %q", tt.kind, tt.path, tt.args, tt.captured,
				app, line, err, tt.app, tt.line)
		}
	}
}

func TestCommandLineRefused(t *testing.T) {
	for _, tt := range []struct {
		kind resolve.Kind
		path string
		args []string
		want string
	}{
		{resolve.Batch, `C:\t\x.bat`, []string{"x", "a\nb"},
			`C:\t\x.bat cannot pass this safely through cmd.exe: argument 1 "a\nb" refused: contains a line feed, which ends the command cmd.exe runs`},
		{resolve.CmdBuiltin, "type", []string{"type", `a "b"`},
			`type cannot pass this safely through cmd.exe: argument 1 "a \"b\"" refused: a cmd.exe built-in cannot receive a double quote inside a quoted argument`},
		{resolve.Native, `C:\x.exe`, []string{"x", "a\x00"},
			`C:\x.exe cannot pass this safely through a Windows command line: argument 1 "a\x00" refused: contains a NUL character, which ends a Windows command line`},
	} {
		_, _, err := CommandLine(tt.kind, tt.path, tt.args, true)
		var ce *CommandError
		if !errors.As(err, &ce) || !errors.Is(err, ErrRefused) || !errors.Is(err, resolve.ErrNotExecutable) {
			t.Errorf("CommandLine(%q, %q, %q) = %v; want a *CommandError matching ErrRefused and resolve.ErrNotExecutable",
				tt.kind, tt.path, tt.args, err)
			continue
		}
		if ce.Path != tt.path || ce.Kind != tt.kind || err.Error() != tt.want {
			t.Errorf("CommandLine(%q, %q, %q) = %+v\n got %s\nwant %s", tt.kind, tt.path, tt.args, ce, err, tt.want)
		}
	}
	_, _, err := CommandLine("wsh", `C:\x.vbs`, []string{"x.vbs"}, false)
	var ce *CommandError
	if err == nil || errors.As(err, &ce) {
		t.Errorf("CommandLine of an unknown kind = %v; want a plain error", err)
	}
}

// Check and CommandLine refuse the same arguments.
func TestCheckAgreesWithCommandLine(t *testing.T) {
	for _, kind := range []resolve.Kind{resolve.Native, resolve.Batch, resolve.CmdBuiltin} {
		for _, arg := range []string{"plain", "a b", "a\nb", "a\x00", `x "y"`, `50%`, ""} {
			path := map[resolve.Kind]string{resolve.Native: `C:\x.exe`, resolve.Batch: `C:\x.bat`, resolve.CmdBuiltin: "dir"}[kind]
			args := []string{"x", arg}
			_, _, lerr := CommandLine(kind, path, args, false)
			cerr := Check(kind, path, args)
			if (lerr == nil) != (cerr == nil) {
				t.Errorf("%s %q: CommandLine says %v, Check says %v", kind, arg, lerr, cerr)
			}
		}
	}
}
