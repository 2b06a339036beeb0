package posix

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/chainrun/chainrun/sandbox"
)

// Confinement holds the processes started through it to a sandbox
// boundary with Landlock. Landlock restricts a thread and everything it
// starts afterwards, for good: chainrun, which runs many chains, must not
// restrict itself. So one goroutine, locked to its own OS thread for its
// whole life, restricts that thread and starts every confined process of
// a run; each is forked from it, inherits the domain, and passes it on to
// every descendant (a setsid or a double fork changes nothing). The
// thread is never unlocked, so Go discards it when the goroutine ends
// (Close), and the runtime never clones its other threads from a locked
// one. The thread outlives every process it started, so the parent-death
// signal those processes carry (dieWithParent) stays tied to chainrun.
type Confinement struct {
	reqs chan confinedStart
	done chan struct{}
	// carve, when set, are the carving helper's arguments (carve_linux.go)
	// and ruleset the Landlock ruleset it applies: every process is then
	// started through the helper, zyg, instead of the restricted thread.
	carve   []string
	ruleset *os.File
	zyg     zygote
	// Notes are what the kernel could not express, from Boundary.Grants
	// and from an ABI older than the rules need.
	Notes []string
}

// confinedStart is one spawn asked of the confined thread.
type confinedStart struct {
	path string
	argv []string
	a    *Attr
	sys  *syscall.SysProcAttr
	res  chan startResult
}

type startResult struct {
	pid int
	err error
}

// ErrUnavailable is the error when the kernel offers no Landlock.
var ErrUnavailable = errors.New("no Landlock in this kernel")

// LandlockABI is the kernel's Landlock ABI version, 0 without Landlock.
func LandlockABI() int {
	v, _, e := syscall.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if e != 0 {
		return 0
	}
	return int(v)
}

// rights are the Landlock rights an ABI version handles, and what each
// sandbox.Access grants of them.
type rights struct {
	handled, read, list, write, fileOnly uint64
	net                                  uint64
}

func rightsFor(abi int, b *sandbox.Boundary) rights {
	r := rights{
		read: unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_EXECUTE,
		list: unix.LANDLOCK_ACCESS_FS_READ_DIR,
		write: unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_REMOVE_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_FILE |
			unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_DIR | unix.LANDLOCK_ACCESS_FS_MAKE_REG |
			unix.LANDLOCK_ACCESS_FS_MAKE_SOCK | unix.LANDLOCK_ACCESS_FS_MAKE_FIFO | unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK |
			unix.LANDLOCK_ACCESS_FS_MAKE_SYM,
		fileOnly: unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE,
	}
	if abi >= 2 { // renames and links across directories
		r.write |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 { // truncate(2) apart from opening for writing
		r.write |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
		r.fileOnly |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	r.handled = r.read | r.list | r.write
	if abi >= 4 && !b.Network {
		r.net = unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
		if !b.LocalBind {
			r.net |= unix.LANDLOCK_ACCESS_NET_BIND_TCP
		}
	}
	return r
}

// Confine builds the Landlock ruleset of b, best effort across ABI
// versions (what an older kernel cannot handle is left unrestricted and
// noted), and starts the thread that applies it.
func Confine(b *sandbox.Boundary) (*Confinement, error) {
	abi := LandlockABI()
	if abi == 0 {
		return nil, ErrUnavailable
	}
	r := rightsFor(abi, b)
	fd, err := ruleset(r, b.Grants())
	if err != nil {
		return nil, err
	}
	c := &Confinement{Notes: LandlockNotes(b)}
	if args, _ := carvings(b); len(args) > 0 && usernsWorks() {
		// Every process starts through the carving helper, which
		// applies the ruleset itself: no restricted thread here.
		c.carve, c.ruleset = args, os.NewFile(uintptr(fd), "landlock-ruleset")
		return c, nil
	}
	c.reqs, c.done = make(chan confinedStart), make(chan struct{})
	ready := make(chan error, 1)
	go c.serve(fd, ready)
	if err := <-ready; err != nil {
		return nil, err
	}
	return c, nil
}

// LandlockNotes says what of b Landlock on this kernel cannot hold, so the
// policy's judgement alone guards it: the denied paths inside writable
// trees when no user namespace lets a helper carve them out (or when they
// do not exist yet, so nothing can be bound over them), and TCP before
// ABI 4.
func LandlockNotes(b *sandbox.Boundary) []string {
	var notes []string
	_, left := carvings(b)
	for _, c := range b.Carves() {
		switch {
		case !usernsWorks():
			notes = append(notes, c.Why+": the kernel cannot take it back out of the tree (and no user namespace here lets a helper bind it), so the policy's judgement alone guards it")
		case slices.Contains(left, c):
			notes = append(notes, c.Why+": it does not exist, so nothing can be bound over it to stop its creation; the policy's judgement alone guards it")
		default:
			notes = append(notes, c.Why+": held there by a private mount namespace (bound read-only, or hidden for a denied read)")
		}
	}
	if abi := LandlockABI(); abi > 0 && abi < 4 && !b.Network {
		notes = append(notes, fmt.Sprintf("Landlock ABI %d cannot deny TCP (ABI 4 can): the network stays open", abi))
	}
	return notes
}

// ruleset creates the ruleset and adds a rule per grant whose path
// exists; a missing path needs no rule.
func ruleset(r rights, grants []sandbox.Grant) (int, error) {
	attr := unix.LandlockRulesetAttr{Handled_access_fs: r.handled, Handled_access_net: r.net}
	// The ABI 4 layout (older kernels accept it while net is 0); the
	// ruleset fd is close-on-exec by itself.
	size := unsafe.Sizeof(attr.Handled_access_fs) * 2
	fd, _, e := syscall.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), size, 0)
	if e != 0 {
		return -1, fmt.Errorf("landlock_create_ruleset: %w", e)
	}
	for _, g := range grants {
		if err := addRule(int(fd), r, g); err != nil {
			unix.Close(int(fd))
			return -1, err
		}
	}
	return int(fd), nil
}

// addRule grants g; a file gets only the rights a file can have.
func addRule(fd int, r rights, g sandbox.Grant) error {
	pfd, err := unix.Open(g.Path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil // nothing there to grant
	}
	defer unix.Close(pfd)
	var access uint64
	if g.Access&sandbox.Read != 0 {
		access |= r.read
	}
	if g.Access&sandbox.List != 0 {
		access |= r.list
	}
	if g.Access&sandbox.Write != 0 {
		access |= r.write
	}
	var st unix.Stat_t
	if unix.Fstat(pfd, &st) == nil && st.Mode&unix.S_IFMT != unix.S_IFDIR {
		access &= r.fileOnly
	}
	if access == 0 {
		return nil
	}
	attr := unix.LandlockPathBeneathAttr{Allowed_access: access, Parent_fd: int32(pfd)}
	_, _, e := syscall.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(fd), unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&attr)), 0, 0, 0)
	runtime.KeepAlive(&attr)
	if e != 0 {
		return fmt.Errorf("landlock_add_rule %s: %w", g.Path, e)
	}
	return nil
}

// serve restricts its own thread with the ruleset fd (closed then: the
// domain outlives it) and starts what it is asked to until Close.
func (c *Confinement) serve(fd int, ready chan<- error) {
	runtime.LockOSThread() // never unlocked: the restricted thread ends with this goroutine
	defer close(c.done)
	err := restrictThread(fd)
	unix.Close(fd)
	ready <- err
	if err != nil {
		return
	}
	for q := range c.reqs {
		pid, err := spawn(q.path, q.argv, q.a, q.sys)
		q.res <- startResult{pid, err}
	}
}

// restrictThread sets no_new_privs and enforces the ruleset on the
// calling thread only (raw system calls: no all-threads variant).
func restrictThread(fd int) error {
	if _, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0, 0); e != 0 {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", e)
	}
	if _, _, e := syscall.RawSyscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(fd), 0, 0); e != 0 {
		return fmt.Errorf("landlock_restrict_self: %w", e)
	}
	return nil
}

// spawn starts a process from the confined thread, or through the
// carving helper when the boundary needs one.
func (c *Confinement) spawn(path string, argv []string, a *Attr, sys *syscall.SysProcAttr) (int, error) {
	if c.carve != nil {
		return c.spawnCarved(path, argv, a, sys)
	}
	res := make(chan startResult, 1)
	c.reqs <- confinedStart{path, argv, a, sys, res}
	r := <-res
	return r.pid, r.err
}

// Close ends the confined thread. Call it once the processes started
// through c have ended: their parent-death signal is tied to the thread.
func (c *Confinement) Close() error {
	if c.ruleset != nil {
		c.zyg.close()
		return c.ruleset.Close()
	}
	close(c.reqs)
	<-c.done
	return nil
}
