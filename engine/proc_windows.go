//go:build windows

package engine

import (
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/chainrun/chainrun/winconsole"
	"github.com/chainrun/chainrun/winproc"
)

// treeWait bounds how long Wait lingers, after the program itself exited,
// for the rest of its job (children it started) to finish.
const treeWait = 250 * time.Millisecond

// winProcess is a segment running on Windows, inside its own job.
type winProcess struct {
	p *winproc.Process
}

// startProcess has winproc turn the resolved target into an application
// path and a command line (winproc.CommandLine) and start it.
func startProcess(s *spawnSpec) (process, error) {
	for fd := 3; fd < len(s.Files); fd++ {
		if s.Files[fd] != nil {
			return nil, fmt.Errorf("redirecting fd %d is not supported on Windows (only 0, 1 and 2 exist there)", fd)
		}
	}
	consoleAtStart() // the code pages as they were before the first segment
	app, line, err := winproc.CommandLine(s.Target.Kind, s.Target.Path, s.Args, s.Captured)
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
	user, sys, _ := w.p.CPUTimes() // zero when Windows cannot say: the report shows 0, not a guess
	return exitInfo{Code: winproc.BashStatus(raw), Raw: raw, User: user, Sys: sys}, nil
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

// Warning says when the process runs outside a job object, so stopping
// it cannot reach its children.
func (w *winProcess) Warning() string { return w.p.Warning }

// Signal interrupts: Windows cannot deliver a POSIX signal.
func (w *winProcess) Signal(os.Signal) error { return w.Interrupt() }

// Group is 0: the job object, not a process group, holds the tree.
func (w *winProcess) Group() int { return 0 }

func (w *winProcess) Kill() error  { return w.p.Kill() }
func (w *winProcess) Close() error { return w.p.Close() }

// consoleAtStart is the console's code-page state before the first
// segment started: output lines that are not UTF-8 are decoded with the
// code page it implies, whatever a segment did to the console since.
var consoleAtStart = sync.OnceValue(winconsole.Snapshot)
