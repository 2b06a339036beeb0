package winproc

import "strings"

// PowerShellUTF8Prelude makes PowerShell write UTF-8 without a BOM, both
// its own output ([Console]::OutputEncoding, which also decodes what
// native programs print) and text it pipes into native programs
// ($OutputEncoding, ASCII in 5.1). It works on Windows PowerShell 5.1 and
// PowerShell 7: ::new() exists since 5.0, and the text has no space or
// quote, so it needs no quoting on any command line. Setting
// [Console]::OutputEncoding may throw without a console on .NET Framework,
// hence the try/catch; with a console it changes the shared console's
// output code page, which winconsole.Preserve puts back.
const PowerShellUTF8Prelude = `try{[Console]::OutputEncoding=[Text.UTF8Encoding]::new($false)}catch{};$OutputEncoding=[Text.UTF8Encoding]::new($false);`

// psParam is a PowerShell command-line parameter.
type psParam struct {
	name    string // full name, lower case
	min     int    // shortest accepted prefix
	aliases []string
	value   bool // takes the next argument as its value
}

var psParams = []psParam{
	{name: "command", min: 3, aliases: []string{"c"}},
	{name: "commandwithargs", min: 8, aliases: []string{"cwa"}},
	{name: "file", min: 2, aliases: []string{"f"}},
	{name: "encodedcommand", min: 2, aliases: []string{"e", "ec"}},
	{name: "encodedarguments", min: 8, aliases: []string{"ea", "encodeda"}, value: true},
	{name: "executionpolicy", min: 3, aliases: []string{"ex", "ep"}, value: true},
	{name: "inputformat", min: 3, aliases: []string{"if"}, value: true},
	{name: "outputformat", min: 2, aliases: []string{"o", "of"}, value: true},
	{name: "windowstyle", min: 2, aliases: []string{"w"}, value: true},
	{name: "configurationname", min: 14, aliases: []string{"config"}, value: true},
	{name: "configurationfile", min: 14, value: true},
	{name: "custompipename", min: 2, value: true},
	{name: "settingsfile", min: 2, aliases: []string{"settings"}, value: true},
	{name: "workingdirectory", min: 2, aliases: []string{"wd", "wo"}, value: true},
	{name: "psconsolefile", min: 2, value: true},
	{name: "version", min: 2, aliases: []string{"v"}, value: true},
	{name: "nologo", min: 3},
	{name: "noexit", min: 3, aliases: []string{"noe"}},
	{name: "noninteractive", min: 4},
	{name: "noprofile", min: 3, aliases: []string{"nop"}},
	{name: "noprofileloadtime", min: 10},
	{name: "interactive", min: 2, aliases: []string{"i"}},
	{name: "login", min: 2, aliases: []string{"l"}},
	{name: "sta", min: 3},
	{name: "mta", min: 3},
	{name: "sshservermode", min: 4, aliases: []string{"sshs"}},
}

// lookupPSParam finds the parameter arg names ("-Comm", "/c", "--nop"),
// or nil when arg is not a parameter chainrun knows unambiguously.
func lookupPSParam(arg string) *psParam {
	name := strings.ToLower(arg)
	switch {
	case strings.HasPrefix(name, "--"):
		name = name[2:]
	case strings.HasPrefix(name, "-"), strings.HasPrefix(name, "/"):
		name = name[1:]
	default:
		return nil
	}
	for i := range psParams {
		for _, a := range psParams[i].aliases {
			if name == a {
				return &psParams[i]
			}
		}
	}
	var found *psParam
	for i := range psParams {
		p := &psParams[i]
		if len(name) >= p.min && strings.HasPrefix(p.name, name) {
			if found != nil {
				return nil // ambiguous
			}
			found = p
		}
	}
	return found
}

// isPowerShell reports whether prog names powershell(.exe) or pwsh(.exe),
// with or without a directory, in any case.
func isPowerShell(prog string) (ok, pwsh bool) {
	base := strings.ToLower(prog[strings.LastIndexAny(prog, `\/`)+1:])
	base = strings.TrimSuffix(base, ".exe")
	return base == "powershell" || base == "pwsh", base == "pwsh"
}

// PowerShellArgs returns args (the arguments after the program name) with
// PowerShellUTF8Prelude placed before the command text when prog is
// powershell or pwsh (any case, with or without .exe or a directory) and
// the arguments run a command: -Command/-c (or any unambiguous prefix
// such as -Comm), -CommandWithArgs/-cwa, or for powershell.exe a first
// argument that is not a parameter (its default is -Command). -File,
// -EncodedCommand, "-Command -" (commands from stdin), parameters it does
// not know and other programs are returned unchanged (args itself). args
// is never modified.
func PowerShellArgs(prog string, args []string) []string {
	ps, pwsh := isPowerShell(prog)
	if !ps {
		return args
	}
	for i := 0; i < len(args); i++ {
		p := lookupPSParam(args[i])
		if p == nil {
			if strings.HasPrefix(args[i], "-") || strings.HasPrefix(args[i], "/") || pwsh {
				return args // an unknown parameter, or pwsh's default -File
			}
			return withPrelude(args, i, false)
		}
		switch {
		case p.name == "command":
			if i+1 == len(args) || args[i+1] == "-" {
				return args
			}
			return withPrelude(args, i+1, false)
		case p.name == "commandwithargs":
			if i+1 == len(args) {
				return args
			}
			return withPrelude(args, i+1, true)
		case p.name == "file", p.name == "encodedcommand":
			return args
		case p.name == "version" && pwsh:
			return args // pwsh -Version prints the version; it takes no value
		case p.value:
			i++
		}
	}
	return args
}

// withPrelude inserts the prelude as its own argument at i, or joins it to
// args[i] when only that argument is the command text.
func withPrelude(args []string, i int, join bool) []string {
	out := make([]string, 0, len(args)+1)
	out = append(out, args[:i]...)
	if join {
		out = append(out, PowerShellUTF8Prelude+args[i])
	} else {
		out = append(out, PowerShellUTF8Prelude, args[i])
	}
	return append(out, args[i+1:]...)
}

// PowerShellFileArgs returns the full argv (argv[0] first) that runs a
// .ps1 script: exe -NoLogo -NoProfile -NonInteractive -ExecutionPolicy
// Bypass -File script args…. exe is the resolved powershell.exe (or
// pwsh.exe when pwsh is set); "" means that name. Arguments after -File
// go to the script as they are, switches included. CommandLine uses it
// with Windows PowerShell 5.1 from the system directory.
func PowerShellFileArgs(exe, script string, args []string, pwsh bool) []string {
	if exe == "" {
		exe = "powershell.exe"
		if pwsh {
			exe = "pwsh.exe"
		}
	}
	out := []string{exe, "-NoLogo", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-File", script}
	return append(out, args...)
}
