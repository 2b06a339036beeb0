//go:build windows

package engine

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/chainrun/chainrun/resolve"
	"github.com/chainrun/chainrun/winconsole"
	"github.com/chainrun/chainrun/winproc"
	"golang.org/x/sys/windows"
)

// treeWait bounds how long Wait lingers, after the program itself exited,
// for the rest of its job (children it started) to finish.
const treeWait = 250 * time.Millisecond

// winProcess is a segment running on Windows, inside its own job.
type winProcess struct {
	p *winproc.Process
}

// startProcess turns the resolved target into an application path and a
// command line (see windowsCommand) and starts it with winproc.
func startProcess(s *spawnSpec) (process, error) {
	for fd := 3; fd < len(s.Files); fd++ {
		if s.Files[fd] != nil {
			return nil, fmt.Errorf("redirecting fd %d is not supported on Windows (only 0, 1 and 2 exist there)", fd)
		}
	}
	consoleAtStart() // the code pages as they were before the first segment
	app, line, err := windowsCommand(s.Target, s.Args, s.Captured)
	if err != nil {
		return nil, err
	}
	p, err := winproc.Start(&winproc.Attr{
		Path:        app,
		CommandLine: line,
		Dir:         s.Dir,
		// winproc.Start merges the spellings of PATH and PATHEXT
		// (environ.MergeWindows): the child searches what the resolver
		// searched.
		Env:    s.Env,
		Stdin:  s.Files[0],
		Stdout: s.Files[1],
		Stderr: s.Files[2],
	})
	if err != nil {
		return nil, err
	}
	return &winProcess{p: p}, nil
}

// cmdLineError is a command line that cannot be built safely: the segment
// fails with status 126, like a program that cannot be run as asked, and
// the message names the argument. errors.Is matches both
// resolve.ErrNotExecutable and winproc.ErrRefused.
type cmdLineError struct {
	target resolve.Target
	err    *winproc.ArgError
}

func (e *cmdLineError) Error() string {
	via := "cmd.exe"
	if e.target.Kind == resolve.Native {
		via = "a Windows command line"
	}
	return fmt.Sprintf("%s cannot pass this safely through %s: %v", e.target.Path, via, e.err)
}

func (e *cmdLineError) Unwrap() []error { return []error{e.err, resolve.ErrNotExecutable} }

func refused(t resolve.Target, err error) error {
	var ae *winproc.ArgError
	if errors.As(err, &ae) {
		return &cmdLineError{target: t, err: ae}
	}
	return err
}

// systemCmd is GetSystemDirectory()\cmd.exe: batch files and built-ins
// never run through %COMSPEC%, which the environment controls.
func systemCmd() (string, error) {
	dir, err := windows.GetSystemDirectory()
	if err != nil {
		return "", fmt.Errorf("GetSystemDirectory: %w", err)
	}
	return filepath.Join(dir, "cmd.exe"), nil
}

// windowsCommand builds (lpApplicationName, lpCommandLine) for a target:
//
//   - Native: the program itself, argv quoted for its C runtime, argv0
//     being the resolved path; `powershell -Command X` and `pwsh -c X` get
//     the UTF-8 output prelude.
//   - Batch: cmd.exe with winproc.BatchCommandLine.
//   - CmdBuiltin: cmd.exe with winproc.BuiltinCommandLine; with /u
//     (UTF-16 output) when chainrun captures the output and decodes it,
//     in the console code page when it feeds another program or a file,
//     and never for type, whose output is a file's own bytes.
//   - PowerShell: powershell.exe -File with the script and its arguments.
func windowsCommand(t resolve.Target, args []string, captured bool) (app, line string, err error) {
	switch t.Kind {
	case resolve.Native, "":
		// powershell -Command X and pwsh -c X get the UTF-8 output prelude.
		argv := append([]string{t.Path}, winconsole.PowerShellArgs(t.Path, args[1:])...)
		line, err = winproc.ComposeCommandLine(argv)
		return t.Path, line, refused(t, err)
	case resolve.Batch:
		if app, err = systemCmd(); err != nil {
			return "", "", err
		}
		line, err = winproc.BatchCommandLine(t.Path, args[1:])
		return app, line, refused(t, err)
	case resolve.CmdBuiltin:
		if app, err = systemCmd(); err != nil {
			return "", "", err
		}
		if captured && winproc.BuiltinUnicodeSafe(t.Path) {
			line, err = winproc.BuiltinCommandLine(t.Path, args[1:])
		} else {
			line, err = winproc.BuiltinCommandLineCP(t.Path, args[1:])
		}
		return app, line, refused(t, err)
	case resolve.PowerShell:
		return powerShellScript(t, args)
	}
	return "", "", fmt.Errorf("%s: cannot run a program of kind %q", t.Path, t.Kind)
}

func (w *winProcess) Pid() int { return w.p.Pid }

// Wait waits for the program, then briefly for the rest of its job. The
// status is bash's view (winproc.BashStatus); Raw keeps the unsigned
// 32-bit exit code.
func (w *winProcess) Wait() (exitInfo, error) {
	raw, err := w.p.Wait()
	if err != nil {
		return exitInfo{}, err
	}
	w.p.WaitTree(treeWait)
	return exitInfo{Code: winproc.BashStatus(raw), Raw: raw}, nil
}

// Interrupt sends Ctrl+Break to the segment's process group. Where that is
// impossible (no shared console, Wine) the tree is terminated at once: a
// stop that silently did nothing would leave the chain running.
func (w *winProcess) Interrupt() error {
	if err := w.p.Interrupt(); err != nil {
		return w.p.Kill()
	}
	return nil
}

// warning says when the process runs outside a job object, so stopping
// it cannot reach its children.
func (w *winProcess) warning() string { return w.p.Warning }

func (w *winProcess) Kill() error  { return w.p.Kill() }
func (w *winProcess) Close() error { return w.p.Close() }

// powerShellExe is Windows PowerShell 5.1, present on every Windows 10/11.
func powerShellExe() (string, error) {
	dir, err := windows.GetSystemDirectory()
	if err != nil {
		return "", fmt.Errorf("GetSystemDirectory: %w", err)
	}
	return filepath.Join(dir, `WindowsPowerShell\v1.0\powershell.exe`), nil
}

// powerShellScript runs a .ps1 file with -File, no profile, no prompts.
func powerShellScript(t resolve.Target, args []string) (app, line string, err error) {
	if app, err = powerShellExe(); err != nil {
		return "", "", err
	}
	line, err = winproc.ComposeCommandLine(winconsole.PowerShellFileArgs(app, t.Path, args[1:], false))
	return app, line, refused(t, err)
}

// consoleAtStart is the console's code-page state before the first
// segment started: output lines that are not UTF-8 are decoded with the
// code page it implies, whatever a segment did to the console since.
var consoleAtStart = sync.OnceValue(winconsole.Snapshot)
