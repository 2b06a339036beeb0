package posix

import (
	"fmt"
	"os"
	"runtime"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// runZygote is the zygote's life: carve, restrict the serving thread,
// say so, then fork what chainrun asks for until it closes the socket.
func runZygote(carve []string) int {
	runtime.LockOSThread() // never unlocked: this thread holds the Landlock domain
	for _, fd := range []int{0, 1, 2, zygoteSock} {
		unix.CloseOnExec(fd) // none of them is a child's
	}
	if err := prepareZygote(carve); err != nil {
		writeHello(zygoteSock, err.Error())
		return 126
	}
	writeHello(zygoteSock, "")
	ppid := os.Getppid()
	for {
		q, fds, err := readRequest(zygoteSock)
		if err != nil {
			return 0 // chainrun closed the socket, or is gone
		}
		pid, errno := q.serve(fds, ppid)
		closeFds(fds)
		if writeReply(zygoteSock, pid, errno) != nil {
			return 0
		}
	}
}

// prepareZygote makes the mounts private, carves, and restricts the
// calling thread with the ruleset.
func prepareZygote(carve []string) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("private mounts: %w", err)
	}
	for ; len(carve) >= 2; carve = carve[2:] {
		if err := carveOne(carve[0], carve[1]); err != nil {
			return err
		}
	}
	err := restrictThread(zygoteRuleset)
	unix.Close(zygoteRuleset)
	findCaught()
	// A kernel before 5.3, or a seccomp filter (container runtimes'
	// defaults), may refuse clone3: say so rather than fail each spawn.
	if _, _, e := syscall.RawSyscall(unix.SYS_CLONE3, 0, 0, 0); err == nil && e == syscall.ENOSYS {
		err = fmt.Errorf("clone3: %w", e)
	}
	return err
}

// serve forks and execs one request from the restricted thread. It
// returns the child's pid, and the errno when the exec (or the set-up
// before it) failed, with the pid of the child that exited then.
func (q *spawnRequest) serve(fds []int, ppid int) (int, syscall.Errno) {
	s, extra, err := q.forkSpec(fds, ppid)
	defer closeFds(extra)
	if err != nil {
		return 0, errnoOf(err)
	}
	var pipe [2]int
	if err := unix.Pipe2(pipe[:], unix.O_CLOEXEC); err != nil {
		return 0, errnoOf(err)
	}
	w, err := above(pipe[1], len(q.present))
	if w != pipe[1] {
		unix.Close(pipe[1])
	}
	if err != nil {
		unix.Close(pipe[0])
		return 0, errnoOf(err)
	}
	s.errPipe = uintptr(w)
	pid, e := s.fork()
	runtime.KeepAlive(s)
	unix.Close(w)
	defer unix.Close(pipe[0])
	if e != 0 {
		return 0, e
	}
	var b [4]byte
	if readFull(pipe[0], b[:]) == nil {
		return pid, syscall.Errno(native.Uint32(b[:])) // exec failed; the child exits
	}
	return pid, 0
}

// forkSpec prepares q for the fork: the strings as C strings, and every
// received fd moved above the child's fd table (the copies made for that
// are extra, to close after the fork).
func (q *spawnRequest) forkSpec(fds []int, ppid int) (s *forkSpec, extra []int, err error) {
	s = &forkSpec{setsid: q.setsid, setpgid: q.setpgid, fg: q.fg, pgid: int32(q.pgid), ctty: -1,
		pdeathsig: uintptr(q.pdeathsig), ppid: uintptr(ppid)}
	n := len(q.present)
	for i, j := 0, 0; i < n; i++ {
		s.fds = append(s.fds, -1)
		if !q.present[i] || j >= len(fds) {
			continue
		}
		fd, err := above(fds[j], n)
		if fd != fds[j] {
			extra = append(extra, fd)
		}
		if err != nil {
			return nil, extra, err
		}
		s.fds[i], j = int32(fd), j+1
		if i == q.ctty {
			s.ctty = int32(fd)
		}
	}
	if q.fg && s.ctty < 0 {
		return nil, extra, syscall.EBADF
	}
	return s, extra, s.strings(q)
}

// strings makes q's path, argv, environment and directory C strings.
func (s *forkSpec) strings(q *spawnRequest) error {
	path, err := syscall.BytePtrFromString(q.path)
	if err != nil {
		return err
	}
	argv, err := syscall.SlicePtrFromStrings(q.argv)
	if err != nil {
		return err
	}
	env, err := syscall.SlicePtrFromStrings(q.env)
	if err != nil {
		return err
	}
	s.path, s.argv, s.envv = uintptr(unsafe.Pointer(path)), uintptr(unsafe.Pointer(&argv[0])), uintptr(unsafe.Pointer(&env[0]))
	s.keep = []any{path, argv, env}
	if q.dir != "" {
		dir, err := syscall.BytePtrFromString(q.dir)
		if err != nil {
			return err
		}
		s.dir = uintptr(unsafe.Pointer(dir))
		s.keep = append(s.keep, dir)
	}
	return nil
}

// above returns fd if it is n or more, else a close-on-exec copy that is.
func above(fd, n int) (int, error) {
	if fd >= n {
		return fd, nil
	}
	return unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, n)
}

func errnoOf(err error) syscall.Errno {
	if e, ok := err.(syscall.Errno); ok {
		return e
	}
	return syscall.EINVAL
}
