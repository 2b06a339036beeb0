package winproc

import (
	"errors"
	"fmt"

	"github.com/chainrun/chainrun/resolve"
)

// The programs that run what CreateProcess cannot run by itself, relative
// to the system directory. They are never looked up through %COMSPEC% or
// PATH, which the chain's environment controls.
const (
	cmdExe        = `cmd.exe`
	powerShellExe = `WindowsPowerShell\v1.0\powershell.exe` // Windows PowerShell 5.1, on every Windows 10/11
)

// CommandError is a command line that cannot be built safely for a
// resolved program. A runner fails the segment with status 126, as for a
// program that cannot be run as asked, and the message names the
// argument. errors.Is matches both ErrRefused and
// resolve.ErrNotExecutable.
type CommandError struct {
	Path string       // the resolved program, as in resolve.Target
	Kind resolve.Kind // how it was to be run
	Err  *ArgError    // the argument refused
}

func (e *CommandError) Error() string {
	via := "cmd.exe"
	if e.Kind == resolve.Native {
		via = "a Windows command line"
	}
	return fmt.Sprintf("%s cannot pass this safely through %s: %v", e.Path, via, e.Err)
}

// Unwrap lets callers sort the error both as a refusal and as an
// unrunnable program.
func (e *CommandError) Unwrap() []error { return []error{e.Err, resolve.ErrNotExecutable} }

// commandError wraps an *ArgError in a *CommandError naming the program;
// other errors (and nil) pass through.
func commandError(kind resolve.Kind, path string, err error) error {
	var ae *ArgError
	if errors.As(err, &ae) {
		return &CommandError{Path: path, Kind: kind, Err: ae}
	}
	return err
}

// CommandLine returns lpApplicationName and lpCommandLine for a program
// that package resolve found at path (for a built-in, its name) and
// classified as kind; args is the segment's argv, args[0] as the user
// wrote it. Each kind gets the only recipe that keeps its arguments
// intact:
//
//   - Native (or ""): the program itself, argv quoted for its C runtime
//     with the resolved path as argv0 (ComposeCommandLine); `powershell
//     -Command X` and `pwsh -c X` get the UTF-8 prelude (PowerShellArgs).
//   - Batch: the system's cmd.exe with BatchCommandLine, since a batch file
//     cannot be started any other way and cmd.exe does not split
//     arguments as programs do.
//   - CmdBuiltin: the system's cmd.exe with BuiltinCommandLine (UTF-16
//     output, /u) when captured says chainrun alone reads and decodes the
//     output, else BuiltinCommandLineCP, in the console code page that a
//     program or file reading it expects; never /u for type, whose output
//     is a file's own bytes.
//   - PowerShell: Windows PowerShell 5.1 from the system directory with
//     -File and no profile or prompts (PowerShellFileArgs).
//
// An argument that cannot be carried is a *CommandError.
func CommandLine(kind resolve.Kind, path string, args []string, captured bool) (app, line string, err error) {
	rest := argsAfter0(args)
	switch kind {
	case resolve.Native, "":
		argv := append([]string{path}, PowerShellArgs(path, rest)...)
		line, err = ComposeCommandLine(argv)
		return path, line, commandError(kind, path, err)
	case resolve.Batch:
		if app, err = systemProgram(cmdExe); err != nil {
			return "", "", err
		}
		line, err = BatchCommandLine(path, rest)
		return app, line, commandError(kind, path, err)
	case resolve.CmdBuiltin:
		if app, err = systemProgram(cmdExe); err != nil {
			return "", "", err
		}
		if captured && BuiltinUnicodeSafe(path) {
			line, err = BuiltinCommandLine(path, rest)
		} else {
			line, err = BuiltinCommandLineCP(path, rest)
		}
		return app, line, commandError(kind, path, err)
	case resolve.PowerShell:
		if app, err = systemProgram(powerShellExe); err != nil {
			return "", "", err
		}
		line, err = ComposeCommandLine(PowerShellFileArgs(app, path, rest, false))
		return app, line, commandError(kind, path, err)
	}
	return "", "", fmt.Errorf("%s: cannot run a program of kind %q", path, kind)
}

// argsAfter0 is argv without argv0, the program as the user named it,
// which every recipe replaces with the resolved path.
func argsAfter0(args []string) []string {
	if len(args) == 0 {
		return nil
	}
	return args[1:]
}
