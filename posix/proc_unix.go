//go:build unix

package posix

import (
	"errors"
	"os"
	"runtime"
	"sync"
	"syscall"
	"time"
)

// Attr describes how to start a process.
type Attr struct {
	Dir string
	Env []string
	// Files is the child's fd table: Files[n] becomes fd n; nil entries
	// are closed in the child.
	Files []*os.File
	// Session starts the process in a new session (setsid): its own
	// process group, and no controlling terminal it could stop on.
	Session bool
	// Group, without Session, joins the process group Group; 0 leads a
	// new one. A pipeline's stages share the first stage's group, so they
	// are signalled together.
	Group int
	// Foreground, with Group 0, gives the new group the terminal found
	// among Files[0..2] (tcsetpgrp), so programs that read the terminal
	// keep working.
	Foreground bool
	// PollWait makes Wait park on the runtime's poller (a pidfd, Linux
	// 5.4+) instead of blocking a thread in waitid. While a thread blocks,
	// the runtime's monitor wakes every 20 µs to take its P back, CPU the
	// other processes of a pipeline could use (a three-stage pipeline ran
	// 3-7 % faster with it); for a lone process the blocking wait returns
	// sooner (20 sequential segments ran 5-10 % faster without it).
	PollWait bool
	// Confine, when set, starts the process inside a sandbox boundary
	// (Landlock on Linux); it and all its descendants stay inside.
	Confine *Confinement
}

// Status is how a process ended, as a shell reports it.
type Status struct {
	Code   int // 0-255, or 128+N when signal N ended it
	Signal int // the signal that ended it, 0 if none
	// User and Sys are the CPU time the process and the descendants it
	// waited for used, in user and kernel mode: the rusage wait4 reports,
	// what a shell's time keyword adds up.
	User, Sys time.Duration
}

// Process is a started process and its process group. Wait must be called
// once for every Process: it reaps the process and releases what Start
// took (the pidfd of a PollWait start).
type Process struct {
	pid   int
	pgid  int
	pidfd int // -1 where the kernel gives none

	mu     sync.Mutex
	exited bool // set before reaping, so no signal reaches a reused pid
}

// Start starts path with argv in the session or group Attr says and
// registers it as a direct child of this process, which the Linux
// sweep never touches while it runs. On Linux the child dies with this
// process (dieWithParent); the watchdog, which also ends its descendants,
// starts only once chains have held groups for a while (armWatchdog).
func Start(path string, argv []string, a *Attr) (*Process, error) {
	sys := &syscall.SysProcAttr{}
	switch {
	case a.Session:
		sys.Setsid = true
	case a.Group > 0:
		sys.Setpgid = true
		sys.Pgid = a.Group
	default:
		sys.Setpgid = true
		if a.Foreground {
			if tty := findTTY(a.Files); tty >= 0 {
				sys.Foreground = true
				sys.Ctty = tty
			}
		}
	}
	if a.PollWait {
		requestPidfd(sys)
	}
	dieWithParent(sys)
	var pid int
	var err error
	if a.Confine != nil {
		pid, err = a.Confine.spawn(path, argv, a, sys)
	} else {
		pid, err = spawn(path, argv, a, sys)
	}
	if err != nil {
		return nil, &os.PathError{Op: "fork/exec", Path: path, Err: err}
	}
	p := &Process{pid: pid, pgid: pid, pidfd: pidfdOf(sys)}
	if !a.Session && a.Group > 0 {
		p.pgid = a.Group
	}
	return p, nil
}

// spawn forks and execs through package syscall rather than os: an
// os.Process costs a pidfd per child, and the first os.StartProcess in a
// process probes pidfd support by starting and reaping an extra child
// (0.4-0.7 ms of a one-segment chain through the CLI, measured). Process
// keeps the pid safe from reuse itself (see Wait).
func spawn(path string, argv []string, a *Attr, sys *syscall.SysProcAttr) (int, error) {
	fds := make([]uintptr, len(a.Files))
	for i, f := range a.Files {
		fds[i] = f.Fd() // ^uintptr(0) for nil: closed in the child
	}
	env := a.Env
	if env == nil {
		env = syscall.Environ()
	}
	startMu.RLock()
	pid, _, err := syscall.StartProcess(path, argv, &syscall.ProcAttr{Dir: a.Dir, Env: env, Files: fds, Sys: sys})
	if err == nil {
		registerChild(pid)
	}
	startMu.RUnlock()
	runtime.KeepAlive(a.Files) // the fds must stay open until the child has them
	return pid, err
}

// Pid is the process id.
func (p *Process) Pid() int { return p.pid }

// Pgid is the process group the process was started in.
func (p *Process) Pgid() int { return p.pgid }

// Wait waits for the process to exit and reaps it.
func (p *Process) Wait() (Status, error) {
	// Wait without reaping first: while the zombie exists its pid cannot
	// be reused, so Signal may still target the group safely.
	waitExited(p.pid, p.pidfd)
	p.mu.Lock()
	p.exited = true
	p.mu.Unlock()
	var ws syscall.WaitStatus
	var ru syscall.Rusage
	var err error
	for {
		_, err = syscall.Wait4(p.pid, &ws, 0, &ru)
		if err != syscall.EINTR {
			break
		}
	}
	unregisterChild(p.pid)
	if err != nil {
		return Status{Code: 1}, os.NewSyscallError("wait", err)
	}
	st := Status{Code: ws.ExitStatus(), User: time.Duration(ru.Utime.Nano()), Sys: time.Duration(ru.Stime.Nano())}
	if ws.Signaled() {
		st.Signal = int(ws.Signal())
		st.Code = 128 + st.Signal
	}
	return st, nil
}

// Signal sends sig to the process's whole group, as long as the process
// has not been reaped. It returns os.ErrProcessDone afterwards.
func (p *Process) Signal(sig syscall.Signal) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.exited {
		return os.ErrProcessDone
	}
	err := syscall.Kill(-p.pgid, sig)
	if errors.Is(err, syscall.ESRCH) {
		// The group may not exist yet (setsid not reached): the pid does.
		err = syscall.Kill(p.pid, sig)
	}
	return err
}

// Interrupt asks the group to stop: SIGTERM, then SIGCONT so a stopped
// process sees it.
func (p *Process) Interrupt() error {
	err := p.Signal(syscall.SIGTERM)
	p.Signal(syscall.SIGCONT)
	return err
}

// Kill sends SIGKILL to the group.
func (p *Process) Kill() error { return p.Signal(syscall.SIGKILL) }

// KillGroup sends SIGKILL to a process group whose leader has been reaped,
// to end members left behind. Use it only right after the leader's exit:
// a group id, once empty, may be reused.
func KillGroup(pgid int) {
	if pgid > 1 {
		syscall.Kill(-pgid, syscall.SIGKILL)
	}
}

// findTTY returns the parent fd of the first terminal among files[0..2]
// that is this process's controlling terminal with this process's group in
// the foreground; a chain never takes a terminal its caller does not hold.
func findTTY(files []*os.File) int {
	for i := 0; i < len(files) && i < 3; i++ {
		if files[i] == nil {
			continue
		}
		fd := -1
		if sc, err := files[i].SyscallConn(); err == nil {
			sc.Control(func(u uintptr) { fd = int(u) })
		}
		if fd >= 0 && IsTerminal(fd) && ownsForeground(fd) {
			return fd
		}
	}
	return -1
}

// ForegroundTTY returns the fd of the terminal among files that a
// Foreground start would hand over, or -1.
func ForegroundTTY(files []*os.File) int { return findTTY(files) }

// RestoreForeground gives the terminal on fd back to this process's own
// group after a foreground chain. SIGTTOU is ignored meanwhile, since this
// process is then in the background.
func RestoreForeground(fd int) error {
	if fd < 0 {
		return nil
	}
	return restoreForeground(fd)
}

// Registry of direct children and of groups of running chains, consulted
// by the sweep so it never touches a process a chain still owns.
var (
	startMu  sync.RWMutex // held for writing while a sweep decides
	regMu    sync.Mutex
	children = map[int]struct{}{}
	groups   = map[int]int{}
)

func registerChild(pid int) {
	regMu.Lock()
	children[pid] = struct{}{}
	regMu.Unlock()
}

func unregisterChild(pid int) {
	regMu.Lock()
	delete(children, pid)
	regMu.Unlock()
}

// HoldGroup marks a process group (or session) as belonging to a running
// chain, so sweeps by other chains leave its members alone until
// ReleaseGroup, and the watchdog kills them if this process dies before
// Sweep has ended them. The first group held while none was starts the
// watchdog's timer.
func HoldGroup(pgid int) {
	regMu.Lock()
	if len(groups) == 0 {
		armWatchdog()
	}
	if groups[pgid]++; groups[pgid] == 1 {
		tellWatchdog('+', pgid)
	}
	regMu.Unlock()
}

// ReleaseGroup undoes HoldGroup.
func ReleaseGroup(pgid int) {
	regMu.Lock()
	if groups[pgid]--; groups[pgid] <= 0 {
		delete(groups, pgid)
	}
	regMu.Unlock()
}

var (
	cttyOnce sync.Once
	ctty     bool
)

// HasControllingTerminal reports whether this process has a controlling
// terminal (checked once per process). Without one, no process of its
// session can acquire one, so a new process group isolates a child from
// terminals as well as a new session does.
func HasControllingTerminal() bool {
	cttyOnce.Do(func() {
		if f, err := os.OpenFile("/dev/tty", os.O_RDONLY|syscall.O_NOCTTY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
			ctty = true
		}
	})
	return ctty
}
