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

// The watchdog ends a chain's processes when the process running the chain
// dies without ending them itself: killed by SIGKILL, by the OOM killer,
// or by a signal it does not handle. Nothing inside a dying process can do
// that, and the kernel's own help (PR_SET_PDEATHSIG, which Start sets on
// Linux) reaches only direct children, so a second, small process
// watches: the same executable, started once per process in a session of
// its own so that a signal to the caller's group or terminal does not
// take it down too. It holds the read end of a pipe whose write end only
// this process has; the pipe carries the process groups that running
// chains hold (HoldGroup "+pgid", Sweep "-pgid"), and its end of file
// says this process is gone. If groups are held then, the watchdog stops and
// kills them and every descendant of theirs (watchdogReap).
//
// Starting it costs a fork and an exec of this executable, more than a
// short chain takes, so it starts only once chains have held processes
// for WatchdogDelay without a break, from a timer, never in a chain's way
// (armWatchdog). The window this leaves: on Linux the direct children die
// with this process at once, but a descendant forked in the first
// WatchdogDelay of a chain killed within that time can remain; elsewhere
// the chain's processes can.
const (
	watchdogEnv  = "CHAINRUN_POSIX_WATCHDOG"
	watchdogArg0 = "chainrun-watchdog"
	// watchdogTick is how often the watchdog reads the pipe: the most the kill
	// can come after this process died.
	watchdogTick = 50 * time.Millisecond
	// watchdogPoll is how often the watchdog records which orphans the process
	// adopted (Linux), while chains run.
	watchdogPoll = 200 * time.Millisecond
)

// WatchdogDelay is how long chains must have held processes before the
// watchdog starts. Most runs of the CLI end sooner (one /bin/true takes 4 ms
// on a 2-core machine, twenty of them chained 16 ms), and for them the
// watchdog's start was a large share of the cost (1.2 ms idle, 5-20 ms on a
// loaded machine); a chain that runs longer pays it once, in the
// background, early enough that little can escape before.
const WatchdogDelay = 20 * time.Millisecond

// init turns a process started as the watchdog into the watchdog before the
// program it was built as runs: every program importing this package can
// be its own watchdog, with no separate executable to install.
func init() {
	if len(os.Args) == 1 && os.Args[0] == watchdogArg0 && os.Getenv(watchdogEnv) == "1" {
		os.Exit(runWatchdog())
	}
}

var watchdog struct {
	once  sync.Once
	on    bool      // messages go to the pipe; regMu protects it
	pid   int       // the watchdog's pid once it runs; regMu
	armed bool      // a timer is pending, or the watchdog was started; regMu
	since time.Time // when the held groups last went from none to some; regMu
	fd    int       // the pipe's write end, non-blocking
	buf   [24]byte  // one message; regMu protects it
}

// StartWatchdog starts this process's watchdog at once, if it was not started;
// chains start it by themselves after WatchdogDelay (armWatchdog). It reports
// whether a watchdog runs. Without one (the executable cannot be started
// again), a chain's processes outlive this process when it is killed.
func StartWatchdog() bool {
	watchdog.once.Do(startWatchdog)
	return WatchdogRunning()
}

// WatchdogRunning reports whether this process's watchdog runs.
func WatchdogRunning() bool {
	regMu.Lock()
	defer regMu.Unlock()
	return watchdog.pid != 0
}

// armWatchdog starts the timer that starts the watchdog, when the held groups
// go from none to some and neither a timer nor the watchdog exists; regMu is
// held. A timer costs no thread and nothing when it fires to find the
// chains gone, so runs that end before WatchdogDelay never start a watchdog.
func armWatchdog() {
	watchdog.since = time.Now()
	if !watchdog.armed {
		watchdog.armed = true
		time.AfterFunc(WatchdogDelay, watchdogTimer)
	}
}

// watchdogTimer starts the watchdog if groups have been held for WatchdogDelay
// without a break; if they are held since less, it waits for the rest,
// and if none is held, it disarms until the next HoldGroup.
func watchdogTimer() {
	regMu.Lock()
	wait := WatchdogDelay - time.Since(watchdog.since)
	start := len(groups) > 0 && wait <= 0
	switch {
	case len(groups) == 0:
		watchdog.armed = false
	case wait > 0:
		time.AfterFunc(wait, watchdogTimer)
	}
	regMu.Unlock()
	if start {
		StartWatchdog()
	}
}

// startWatchdog starts the watchdog. The groups held already are written to the
// pipe before the watchdog is started, and every later one after, so that
// the watchdog, once it runs, has all of them; a chain never waits for it.
func startWatchdog() {
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
	// A watchdog that stopped reading must not block a chain: a message that
	// does not fit is dropped.
	unix.SetNonblock(p[1], true)
	growWatchdogPipe(p[1])
	regMu.Lock()
	watchdog.fd, watchdog.on, watchdog.armed = p[1], true, true
	for g := range groups {
		tellWatchdog('+', g)
	}
	regMu.Unlock()
	// A sweep must not take it for an escaped process before it is
	// registered: one that ends a chain now waits for the exec.
	startMu.RLock()
	pid, err := execWatchdog(p[0])
	if err == nil {
		registerChild(pid) // the sweep never touches it; it exits after us
	}
	startMu.RUnlock()
	unix.Close(p[0])
	regMu.Lock()
	if err == nil {
		watchdog.pid = pid
	} else {
		watchdog.on = false
		unix.Close(p[1])
	}
	regMu.Unlock()
}

// execWatchdog starts this executable as the watchdog, reading the pipe rfd.
func execWatchdog(rfd int) (int, error) {
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return 0, err
	}
	defer null.Close()
	pid, _, err := syscall.StartProcess(selfExe(), []string{watchdogArg0}, &syscall.ProcAttr{
		Dir: "/", Env: []string{watchdogEnv + "=1"},
		Files: []uintptr{null.Fd(), null.Fd(), null.Fd(), uintptr(rfd)},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	return pid, err
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

// tellWatchdog sends one message ('+' or '-' and a process group) to the
// watchdog, if one runs; regMu is held.
func tellWatchdog(op byte, pgid int) {
	if !watchdog.on {
		return
	}
	m := strconv.AppendInt(append(watchdog.buf[:0], op), int64(pgid), 10)
	m = append(m, '\n')
	unix.Write(watchdog.fd, m)
}

// runWatchdog is the watchdog's whole life: it follows the held groups until
// the pipe ends, then ends what is still held, and returns its status. It
// reads the pipe every watchdogTick rather than waking for each message: a
// wake-up per started process, on a machine with few cores, took the CPU
// from the chain itself (50 pairs of /bin/false || /bin/true ran 13 %
// slower). Messages wait in the pipe meanwhile, and are still there to
// read after the writer is gone.
func runWatchdog() int {
	parent := os.Getppid()
	held := map[int]bool{}
	adopted := map[int]uint64{} // orphans the parent adopted, by start time
	unix.SetNonblock(3, true)
	buf := make([]byte, 64<<10)
	var line []byte
	for tick := 0; ; tick++ {
		time.Sleep(watchdogTick)
		eof := false
		for {
			n, err := unix.Read(3, buf)
			line = watchdogMessages(buf[:max(n, 0)], line, held)
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
		if len(held) > 0 && tick%(int(watchdogPoll/watchdogTick)) == 0 {
			recordAdopted(parent, held, adopted)
		}
	}
	if len(held) > 0 {
		watchdogReap(held, adopted)
	}
	return 0
}

// watchdogMessages applies the complete messages in b (line holds a partial
// one from before) to held, and returns the partial one at its end.
func watchdogMessages(b, line []byte, held map[int]bool) []byte {
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

// forgetGroups tells the watchdog that a sweep has ended groups, unless a
// running chain still holds one.
func forgetGroups(gs []int) {
	regMu.Lock()
	defer regMu.Unlock()
	for _, g := range gs {
		if groups[g] <= 0 {
			tellWatchdog('-', g)
		}
	}
}
