package posix

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// zygote is a confinement's carving helper (carve_linux.go): one process
// per confinement, started at its first spawn, which carves once and then
// forks every process of the confinement. Re-executing this program per
// spawn cost 3-7 ms (a Go runtime starting, a user namespace made, the
// mounts); a request to the zygote costs a fork. Its children are cloned
// with CLONE_PARENT (zygote_fork_linux.go), so they are chainrun's own:
// Wait reaps them and reads their rusage, Signal reaches their groups,
// they die with chainrun (PR_SET_PDEATHSIG, tied to chainrun as the
// zygote's is), and the zygote, which is not their parent, never reaps
// one. The zygote dies with chainrun too, reads end of file when chainrun
// closes its socket, and is killed by Close.
//
// A confinement's carves are fixed when it is made (one boundary per
// run), so one zygote serves them all; a boundary that changed between
// spawns would need a new confinement.
type zygote struct {
	mu   sync.Mutex
	pid  int
	sock int
	err  error // why it cannot serve: it failed to start, ended, or was closed
}

// The zygote's fds besides 0-2 (the null device, the null device, and
// chainrun's stderr).
const (
	zygoteSock    = 3
	zygoteRuleset = 4
)

// zygoteStarts counts the zygotes this process started.
var zygoteStarts atomic.Int64

var errZygoteClosed = errors.New("sandbox: the confinement is closed")

// spawnCarved starts path through the confinement's zygote.
func (c *Confinement) spawnCarved(path string, argv []string, a *Attr, sys *syscall.SysProcAttr) (int, error) {
	z := &c.zyg
	z.mu.Lock()
	defer z.mu.Unlock()
	if err := z.start(c.carve, c.ruleset); err != nil {
		return 0, err
	}
	q, fds, err := newSpawnRequest(path, argv, a, sys)
	if err != nil {
		return 0, err
	}
	startMu.RLock() // as spawn: no sweep between the fork and registerChild
	defer startMu.RUnlock()
	pid, errno, err := z.call(q, fds)
	runtime.KeepAlive(a.Files)
	switch {
	case err != nil:
		return 0, err
	case errno != 0:
		if pid > 0 {
			reap(pid) // exec failed: the child is chainrun's to reap
		}
		return 0, errno
	}
	registerChild(pid)
	if sys.PidFD != nil {
		// The child is ours and unreaped, so its pid names it.
		if *sys.PidFD, err = unix.PidfdOpen(pid, 0); err != nil {
			*sys.PidFD = -1
		}
	}
	return pid, nil
}

// newSpawnRequest is the request for a spawn Start prepared, and the fds
// of its files.
func newSpawnRequest(path string, argv []string, a *Attr, sys *syscall.SysProcAttr) (*spawnRequest, []int, error) {
	q := &spawnRequest{setsid: sys.Setsid, setpgid: sys.Setpgid, fg: sys.Foreground, pgid: sys.Pgid, ctty: -1,
		pdeathsig: int(sys.Pdeathsig), path: path, dir: a.Dir, argv: argv, env: a.Env}
	if q.env == nil {
		q.env = syscall.Environ()
	}
	if q.dir == "" { // the zygote's directory is "/", not this process's
		q.dir, _ = os.Getwd()
	}
	var fds []int
	for i, f := range a.Files {
		q.present = append(q.present, f != nil)
		if f == nil {
			continue
		}
		fd := int(f.Fd())
		if sys.Foreground && fd == sys.Ctty {
			q.ctty = i
		}
		fds = append(fds, fd)
	}
	if len(fds) > maxPassedFds {
		return nil, nil, fmt.Errorf("sandbox: %d files are more than a confined process can be given (%d)", len(fds), maxPassedFds)
	}
	return q, fds, nil
}

// start starts the zygote unless it runs (or could not).
func (z *zygote) start(carve []string, ruleset *os.File) error {
	if z.pid == 0 && z.err == nil {
		z.err = z.launch(carve, ruleset)
	}
	return z.err
}

// launch starts the zygote in a new user and mount namespace, in a
// process group of its own (a signal to chainrun's group or to a chain's
// spares it), and waits until it has carved.
func (z *zygote) launch(carve []string, ruleset *os.File) error {
	pair, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	theirs := os.NewFile(uintptr(pair[1]), "zygote")
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0) // the zygote's stdin and stdout
	if err != nil {
		theirs.Close()
		unix.Close(pair[0])
		return fmt.Errorf("sandbox: %w", err)
	}
	sys := &syscall.SysProcAttr{Setpgid: true}
	userns(sys)
	dieWithParent(sys)
	a := &Attr{Dir: "/", Env: []string{carverEnv + "=1"}, Files: []*os.File{null, null, os.Stderr, theirs, ruleset}}
	pid, err := spawn(selfExe(), append([]string{carverArg0}, carve...), a, sys)
	theirs.Close()
	null.Close()
	if err != nil {
		unix.Close(pair[0])
		return fmt.Errorf("sandbox: starting the carving helper: %w", err)
	}
	zygoteStarts.Add(1)
	z.pid, z.sock = pid, pair[0]
	if err := readHello(z.sock); err != nil {
		z.stop()
		return fmt.Errorf("sandbox: the carving helper: %w", err)
	}
	return nil
}

// call sends one request and reads its reply.
func (z *zygote) call(q *spawnRequest, fds []int) (int, syscall.Errno, error) {
	err := sendRequest(z.sock, q.encode(), fds)
	if err == nil {
		var pid int
		var errno syscall.Errno
		if pid, errno, err = readReply(z.sock); err == nil {
			return pid, errno, nil
		}
	}
	z.stop()
	z.err = fmt.Errorf("sandbox: the carving helper ended: %w", err)
	return 0, 0, z.err
}

// stop ends and reaps the zygote, if it runs; the processes it started
// are chainrun's and live on.
func (z *zygote) stop() {
	if z.pid == 0 {
		return
	}
	unix.Close(z.sock)
	syscall.Kill(z.pid, syscall.SIGKILL)
	reap(z.pid)
	unregisterChild(z.pid)
	z.pid, z.err = 0, errZygoteClosed
}

// close ends the zygote for good.
func (z *zygote) close() {
	z.mu.Lock()
	z.stop()
	z.err = errZygoteClosed
	z.mu.Unlock()
}

// reap waits for the child pid to exit and reaps it.
func reap(pid int) {
	var ws syscall.WaitStatus
	for {
		if _, err := syscall.Wait4(pid, &ws, 0, nil); err != syscall.EINTR {
			return
		}
	}
}
