//go:build unix

package posix

import (
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The guard ends a chain's processes when the process running the chain
// dies without ending them itself: killed by SIGKILL, by the OOM killer,
// or by a signal it does not handle. Nothing inside a dying process can do
// that, and the kernel's own help (PR_SET_PDEATHSIG) reaches only direct
// children, so a second, small process watches: the same executable,
// started once per process before its first child (StartGuard), in a
// session of its own so that a signal to the caller's group or terminal
// does not take it down too. It holds the read end of a pipe whose write
// end only this process has; the pipe carries the process groups that
// running chains hold (HoldGroup "+pgid", Sweep "-pgid"), and its end of
// file says this process is gone. If groups are held then, the guard
// stops and kills them and every descendant of theirs (guardReap).
const (
	guardEnv  = "CHAINRUN_POSIX_GUARD"
	guardArg0 = "chainrun-guard"
	// guardTick is how often the guard reads the pipe: the most the kill
	// can come after this process died.
	guardTick = 50 * time.Millisecond
	// guardPoll is how often the guard records which orphans the process
	// adopted (Linux), while chains run.
	guardPoll = 200 * time.Millisecond
)

// init turns a process started as the guard into the guard before the
// program it was built as runs: every program importing this package can
// be its own guard, with no separate executable to install.
func init() {
	if os.Getenv(guardEnv) == "1" && len(os.Args) == 1 && os.Args[0] == guardArg0 {
		os.Exit(runGuard())
	}
}

var guard struct {
	once sync.Once
	on   bool     // a guard runs
	fd   int      // the pipe's write end, non-blocking
	buf  [24]byte // one message; regMu guards it
}

// StartGuard starts this process's guard, once; Start calls it before the
// first child. It reports whether a guard runs. Without one (the
// executable cannot be started again), a chain's processes outlive this
// process when it is killed.
func StartGuard() bool {
	guard.once.Do(startGuard)
	return guard.on
}

func startGuard() {
	var p [2]int
	syscall.ForkLock.RLock() // no child may inherit the pipe: its end of file is the news
	err := syscall.Pipe(p[:])
	if err == nil {
		syscall.CloseOnExec(p[0])
		syscall.CloseOnExec(p[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return
	}
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		unix.Close(p[0])
		unix.Close(p[1])
		return
	}
	pid, _, err := syscall.StartProcess(selfExe(), []string{guardArg0}, &syscall.ProcAttr{
		Dir: "/", Env: []string{guardEnv + "=1"},
		Files: []uintptr{null.Fd(), null.Fd(), null.Fd(), uintptr(p[0])},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	null.Close()
	unix.Close(p[0])
	if err != nil {
		unix.Close(p[1])
		return
	}
	registerChild(pid) // the sweep never touches it; it exits after us
	// A guard that stopped reading must not block a chain: a message that
	// does not fit is dropped.
	unix.SetNonblock(p[1], true)
	growGuardPipe(p[1])
	guard.fd, guard.on = p[1], true
}

// selfExe is the path that starts this executable again, even after the
// file was replaced or removed (Linux).
func selfExe() string {
	if _, err := os.Stat("/proc/self/exe"); err == nil {
		return "/proc/self/exe"
	}
	exe, err := os.Executable()
	if err != nil {
		return os.Args[0]
	}
	return exe
}

// tellGuard sends one message ('+' or '-' and a process group) to the
// guard, if one runs; regMu is held.
func tellGuard(op byte, pgid int) {
	if !guard.on {
		return
	}
	m := strconv.AppendInt(append(guard.buf[:0], op), int64(pgid), 10)
	m = append(m, '\n')
	unix.Write(guard.fd, m)
}

// runGuard is the guard's whole life: it follows the held groups until
// the pipe ends, then ends what is still held, and returns its status. It
// reads the pipe every guardTick rather than waking for each message: a
// wake-up per started process, on a machine with few cores, took the CPU
// from the chain itself (50 pairs of /bin/false || /bin/true ran 13 %
// slower). Messages wait in the pipe meanwhile, and are still there to
// read after the writer is gone.
func runGuard() int {
	parent := os.Getppid()
	held := map[int]bool{}
	adopted := map[int]uint64{} // orphans the parent adopted, by start time
	unix.SetNonblock(3, true)
	buf := make([]byte, 64<<10)
	var line []byte
	for tick := 0; ; tick++ {
		time.Sleep(guardTick)
		eof := false
		for {
			n, err := unix.Read(3, buf)
			line = guardMessages(buf[:max(n, 0)], line, held)
			if n == 0 && err == nil || err != nil && err != unix.EAGAIN && err != unix.EINTR {
				eof = true
			}
			if n <= 0 {
				break
			}
		}
		if eof {
			break
		}
		if len(held) > 0 && tick%(int(guardPoll/guardTick)) == 0 {
			recordAdopted(parent, held, adopted)
		}
	}
	if len(held) > 0 {
		guardReap(held, adopted)
	}
	return 0
}

// guardMessages applies the complete messages in b (line holds a partial
// one from before) to held, and returns the partial one at its end.
func guardMessages(b, line []byte, held map[int]bool) []byte {
	for _, c := range b {
		if c != '\n' {
			line = append(line, c)
			continue
		}
		if len(line) > 1 {
			if g, e := strconv.Atoi(string(line[1:])); e == nil && g > 1 {
				if line[0] == '+' {
					held[g] = true
				} else {
					delete(held, g)
				}
			}
		}
		line = line[:0]
	}
	return line
}

// forgetGroups tells the guard that a sweep has ended groups, unless a
// running chain still holds one.
func forgetGroups(gs []int) {
	regMu.Lock()
	defer regMu.Unlock()
	for _, g := range gs {
		if groups[g] <= 0 {
			tellGuard('-', g)
		}
	}
}
