package resolve

import (
	"errors"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	for _, tt := range []struct {
		path string
		want Kind // "" = not executable
	}{
		// Batch, including the names Windows trims to .bat/.cmd.
		{"a.bat", Batch}, {"a.BAT", Batch}, {"a.Cmd", Batch}, {"a.bat.", Batch}, {"a.bat ", Batch},
		{"a.bat. .", Batch}, {"a.cmd...", Batch}, {`C:\Program Files (x86)\t\x.cmd`, Batch},
		{`C:\a&b\x.bat`, Batch}, {`C:\a^b\x.bat`, Batch}, {`C:\dir.exe\x.bat`, Batch}, {"C:x.bat", Batch},
		// Not batch.
		{"a.bat.exe", Native}, {"a.batch", ""}, {"a.cm", ""}, {"a.cmdx", ""}, {"a.exe", Native}, {"a", ""},
		{"a.ps1", PowerShell},
		{"a.EXE", Native}, {"a.com", Native}, {"a.exe. ", Native}, {`C:\x.bat\a`, ""}, {`C:\x.bat\a.PS1`, PowerShell},
		{"a.js", ""}, {"a.vbs", ""}, {"a.txt", ""}, {"a.msc", ""}, {"a.", ""}, {"", ""}, {"...", ""},
	} {
		got, err := Classify(tt.path)
		if tt.want == "" {
			if !errors.Is(err, ErrNotExecutable) || got != "" {
				t.Errorf("Classify(%q) = %q, %v; want ErrNotExecutable", tt.path, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Classify(%q) = %q, %v; want %q", tt.path, got, err, tt.want)
		}
	}
}

func TestCmdBuiltins(t *testing.T) {
	for _, n := range []string{"assoc", "break", "call", "cd", "chdir", "cls", "color", "copy", "date", "del",
		"dir", "dpath", "echo", "endlocal", "erase", "exit", "for", "ftype", "goto", "if", "keys", "md", "mkdir",
		"mklink", "move", "path", "pause", "popd", "prompt", "pushd", "rd", "rem", "ren", "rename", "rmdir", "set",
		"setlocal", "shift", "start", "time", "title", "type", "ver", "verify", "vol", "DIR", "Type"} {
		if !IsCmdBuiltin(n) {
			t.Errorf("IsCmdBuiltin(%q) = false", n)
		}
	}
	for _, n := range []string{"findstr", "where", "find", "sort", "dir.exe", "", "xcopy", "chcp", "more", "tree"} {
		if IsCmdBuiltin(n) {
			t.Errorf("IsCmdBuiltin(%q) = true", n)
		}
	}
	for _, n := range []string{"call", "for", "if", "goto", "shift", "set", "setlocal", "endlocal", "start",
		"pause", "pushd", "popd", "chdir", "path", "prompt", "START", "Set"} {
		if reason, ok := CmdBuiltinRefused(n); !ok || reason == "" {
			t.Errorf("CmdBuiltinRefused(%q) = %q, %v; want refused with a reason", n, reason, ok)
		}
	}
	for _, n := range []string{"dir", "type", "copy", "del", "erase", "ren", "rename", "move", "mklink", "md",
		"mkdir", "rd", "rmdir", "ver", "vol", "assoc", "ftype", "date", "time", "cls", "rem", "echo", "findstr"} {
		if reason, ok := CmdBuiltinRefused(n); ok {
			t.Errorf("CmdBuiltinRefused(%q) = %q, true; want allowed", n, reason)
		}
	}
	// Every refused name is a built-in.
	for _, n := range strings.Fields(`call for if goto shift setlocal endlocal set path dpath prompt cd chdir
		pushd popd exit start pause title color`) {
		if _, refused := CmdBuiltinRefused(n); !refused {
			t.Errorf("%q is not refused", n)
		}
		if !IsCmdBuiltin(n) {
			t.Errorf("refused %q is not a built-in", n)
		}
	}
}
