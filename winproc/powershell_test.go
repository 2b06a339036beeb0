package winproc

import (
	"slices"
	"testing"
)

func TestPowerShellArgs(t *testing.T) {
	const P = PowerShellUTF8Prelude
	for _, tt := range []struct {
		prog string
		args []string
		want []string
	}{
		{"powershell", []string{"-Command", "Get-Date"}, []string{"-Command", P, "Get-Date"}},
		{"pwsh", []string{"-c", "Get-Date -Format o"}, []string{"-c", P, "Get-Date -Format o"}},
		{"PowerShell.EXE", []string{"-command", "gci"}, []string{"-command", P, "gci"}},
		{"PWSH.exe", []string{"-COMMAND", "gci", "-Force"}, []string{"-COMMAND", P, "gci", "-Force"}},
		{`C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe`, []string{"-Comm", "x"}, []string{"-Comm", P, "x"}},
		{`C:/Program Files/PowerShell/7/pwsh.exe`, []string{"-Com", "x"}, []string{"-Com", P, "x"}},
		{"pwsh", []string{"/c", "x"}, []string{"/c", P, "x"}},
		{"pwsh", []string{"--command", "x"}, []string{"--command", P, "x"}},
		{"powershell", []string{"-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-Command", "x"},
			[]string{"-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-Command", P, "x"}},
		{"pwsh", []string{"-nop", "-noni", "-ep", "Bypass", "-wd", `C:\w`, "-c", "x"},
			[]string{"-nop", "-noni", "-ep", "Bypass", "-wd", `C:\w`, "-c", P, "x"}},
		{"powershell", []string{"-OutputFormat", "Text", "-Command", "x"}, []string{"-OutputFormat", "Text", "-Command", P, "x"}},
		// A value that looks like -Command is a value.
		{"powershell", []string{"-ExecutionPolicy", "-Command", "x"}, []string{"-ExecutionPolicy", "-Command", P, "x"}},
		// powershell.exe's default is -Command, pwsh's is -File.
		{"powershell", []string{"Get-Process"}, []string{P, "Get-Process"}},
		{"powershell", []string{"-NoProfile", "Get-Process", "-Name", "x"}, []string{"-NoProfile", P, "Get-Process", "-Name", "x"}},
		{"pwsh", []string{"script.ps1", "a"}, []string{"script.ps1", "a"}},
		// -CommandWithArgs: only the first argument is the command text.
		{"pwsh", []string{"-cwa", "$args", "a", "b"}, []string{"-cwa", P + "$args", "a", "b"}},
		{"pwsh", []string{"-CommandWithArgs", "$args"}, []string{"-CommandWithArgs", P + "$args"}},
		// Untouched.
		{"powershell", []string{"-File", "s.ps1", "-Command", "x"}, []string{"-File", "s.ps1", "-Command", "x"}},
		{"pwsh", []string{"-f", "s.ps1"}, []string{"-f", "s.ps1"}},
		{"powershell", []string{"-EncodedCommand", "ZABpAHIA"}, []string{"-EncodedCommand", "ZABpAHIA"}},
		{"pwsh", []string{"-e", "ZABpAHIA"}, []string{"-e", "ZABpAHIA"}},
		{"pwsh", []string{"-ec", "ZABpAHIA"}, []string{"-ec", "ZABpAHIA"}},
		{"powershell", []string{"-Command", "-"}, []string{"-Command", "-"}},
		{"powershell", []string{"-Command"}, []string{"-Command"}},
		{"powershell", nil, nil},
		{"powershell", []string{"-NoProfile"}, []string{"-NoProfile"}},
		{"pwsh", []string{"-Version"}, []string{"-Version"}},
		{"pwsh", []string{"-Co", "x"}, []string{"-Co", "x"}}, // ambiguous: Command or ConfigurationName
		{"powershell", []string{"-Unknown", "-Command", "x"}, []string{"-Unknown", "-Command", "x"}},
		{"powershell", []string{"-?"}, []string{"-?"}},
		{"cmd", []string{"-Command", "x"}, []string{"-Command", "x"}},
		{"powershell_ise", []string{"-Command", "x"}, []string{"-Command", "x"}},
		{"pwsh.ps1", []string{"-c", "x"}, []string{"-c", "x"}},
	} {
		in := slices.Clone(tt.args)
		got := PowerShellArgs(tt.prog, tt.args)
		if !slices.Equal(got, tt.want) {
			t.Errorf("PowerShellArgs(%q, %q)\n got %q\nwant %q", tt.prog, tt.args, got, tt.want)
		}
		if !slices.Equal(in, tt.args) {
			t.Errorf("PowerShellArgs(%q, %q) modified its input", tt.prog, in)
		}
	}
}

func TestPowerShellUTF8PreludeNeedsNoQuoting(t *testing.T) {
	for _, c := range PowerShellUTF8Prelude {
		if c == ' ' || c == '\t' || c == '"' || c == '\'' || c == '%' || c == '^' || c == '&' || c == '|' {
			t.Fatalf("prelude contains %q", c)
		}
	}
}

func TestPowerShellFileArgs(t *testing.T) {
	for _, tt := range []struct {
		exe, script string
		args        []string
		pwsh        bool
		want        []string
	}{
		{"", `C:\w\build.ps1`, []string{"-Force", "a b"}, false, []string{"powershell.exe", "-NoLogo", "-NoProfile",
			"-NonInteractive", "-ExecutionPolicy", "Bypass", "-File", `C:\w\build.ps1`, "-Force", "a b"}},
		{"", `s.ps1`, nil, true, []string{"pwsh.exe", "-NoLogo", "-NoProfile", "-NonInteractive", "-ExecutionPolicy",
			"Bypass", "-File", `s.ps1`}},
		{`C:\Program Files\PowerShell\7\pwsh.exe`, `s.ps1`, []string{"x"}, true, []string{`C:\Program Files\PowerShell\7\pwsh.exe`,
			"-NoLogo", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-File", `s.ps1`, "x"}},
	} {
		if got := PowerShellFileArgs(tt.exe, tt.script, tt.args, tt.pwsh); !slices.Equal(got, tt.want) {
			t.Errorf("PowerShellFileArgs(%q, %q, %q, %v)\n got %q\nwant %q", tt.exe, tt.script, tt.args, tt.pwsh, got, tt.want)
		}
	}
}
