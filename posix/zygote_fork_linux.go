package posix

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The sandbox zygote (zygote_linux.go) forks each confined process itself
// rather than through syscall.StartProcess, for two reasons. The process
// must be chainrun's child, not the zygote's, so that chainrun waits for
// it, reads its rusage and signals its group: it is cloned with
// CLONE_PARENT. syscall.StartProcess cannot serve such a child: after
// PR_SET_PDEATHSIG it compares the child's parent with the forking
// process and kills the child when they differ, and when exec fails it
// reaps the child (which is not its own) and returns no pid, leaving
// chainrun a zombie it cannot name. So the zygote clones with clone3 (the
// same layout on every architecture) and the child runs forkSpec.child:
// raw system calls only, on values prepared before the fork.

// cloneArgs is the kernel's struct clone_args, version 0.
type cloneArgs struct {
	flags            uint64
	_                [4]uint64 // pidfd, child_tid, parent_tid, exit_signal: none asked for
	stack, stackSize uint64
	_                uint64 // tls
}

// forkSpec is one spawn made ready for the fork. The child is a copy of
// the zygote with a single thread, running Go code the runtime knows
// nothing of: it may not allocate, grow its stack or write a pointer, so
// everything it reads is here as integers, and it writes only the two
// scratch words.
type forkSpec struct {
	path, argv, envv, dir uintptr // C strings and NULL-ended arrays (kept alive by keep)
	fds                   []int32 // fds[i] becomes fd i; -1: closed. Every source is above len(fds).
	setsid, setpgid, fg   bool
	pgid, ctty            int32
	pdeathsig             uintptr
	ppid                  uintptr // chainrun: the child's parent, if it is still alive
	errPipe               uintptr // write end, close-on-exec, above len(fds)
	keep                  []any   // what the pointers above point into

	pgrp  int32 // scratch: the group handed the terminal
	errno int32 // scratch: why exec failed
}

var (
	allSignals = ^uint64(0)
	noSignals  uint64
	sigDefault [4]uint64 // a struct sigaction of zeros: SIG_DFL, on every layout
	// caught are the signals the zygote's runtime handles, which the
	// child resets to the default before it unblocks signals (exec would
	// reset them, but a signal may come first). Set once, before serving.
	caught []uintptr
)

// findCaught records the signals with a handler installed.
func findCaught() {
	for sig := uintptr(1); sig <= 64; sig++ {
		var old [4]uint64
		if _, _, e := syscall.RawSyscall6(unix.SYS_RT_SIGACTION, sig, 0, uintptr(unsafe.Pointer(&old)), 8, 0, 0); e == 0 && old[0] > 1 {
			caught = append(caught, sig)
		}
	}
}

// zygoteStack is the stack of a child that shares the zygote's memory
// until its exec (vforkFlags); the zygote forks one child at a time.
var zygoteStack [64 << 10]byte

// fork starts the child with every signal of this thread blocked, so no
// handler of the runtime runs in it, and returns its pid.
func (s *forkSpec) fork() (int, syscall.Errno) {
	args := &cloneArgs{flags: unix.CLONE_PARENT | vforkFlags}
	if vforkFlags != 0 {
		base := uintptr(unsafe.Pointer(&zygoteStack[0]))
		args.stack, args.stackSize = uint64(base), uint64((base+uintptr(len(zygoteStack)))&^15-base)
	}
	var old uint64
	syscall.RawSyscall6(unix.SYS_RT_SIGPROCMASK, unix.SIG_SETMASK, uintptr(unsafe.Pointer(&allSignals)), uintptr(unsafe.Pointer(&old)), 8, 0, 0)
	pid, e := rawVfork(args, s)
	syscall.RawSyscall6(unix.SYS_RT_SIGPROCMASK, unix.SIG_SETMASK, uintptr(unsafe.Pointer(&old)), 0, 8, 0, 0)
	return int(pid), syscall.Errno(e)
}

// child sets the process up as syscall.StartProcess would and execs; on
// failure it writes the errno to the pipe and exits.
//
//go:nosplit
//go:norace
func (s *forkSpec) child() {
	e := s.place()
	if e == 0 {
		for i := 0; i < len(caught); i++ {
			syscall.RawSyscall6(unix.SYS_RT_SIGACTION, caught[i], uintptr(unsafe.Pointer(&sigDefault)), 0, 8, 0, 0)
		}
		e = s.files()
	}
	if e == 0 {
		syscall.RawSyscall6(unix.SYS_RT_SIGPROCMASK, unix.SIG_SETMASK, uintptr(unsafe.Pointer(&noSignals)), 0, 8, 0, 0)
		_, _, e = syscall.RawSyscall(unix.SYS_EXECVE, s.path, s.argv, s.envv)
	}
	s.errno = int32(e)
	syscall.RawSyscall(unix.SYS_WRITE, s.errPipe, uintptr(unsafe.Pointer(&s.errno)), 4)
	for {
		syscall.RawSyscall(unix.SYS_EXIT_GROUP, 253, 0, 0)
	}
}

// place puts the child in its session or group, hands the group the
// terminal (SIGTTOU is blocked), enters the directory and ties the child
// to chainrun's death.
//
//go:nosplit
//go:norace
func (s *forkSpec) place() syscall.Errno {
	var e syscall.Errno
	switch {
	case s.setsid:
		_, _, e = syscall.RawSyscall(unix.SYS_SETSID, 0, 0, 0)
	case s.setpgid || s.fg:
		_, _, e = syscall.RawSyscall(unix.SYS_SETPGID, 0, uintptr(s.pgid), 0)
	}
	if e == 0 && s.fg {
		s.pgrp = s.pgid
		if s.pgrp == 0 {
			pid, _, _ := syscall.RawSyscall(unix.SYS_GETPID, 0, 0, 0)
			s.pgrp = int32(pid)
		}
		_, _, e = syscall.RawSyscall(unix.SYS_IOCTL, uintptr(s.ctty), unix.TIOCSPGRP, uintptr(unsafe.Pointer(&s.pgrp)))
	}
	if e == 0 && s.dir != 0 {
		_, _, e = syscall.RawSyscall(unix.SYS_CHDIR, s.dir, 0, 0)
	}
	if e == 0 && s.pdeathsig != 0 {
		_, _, e = syscall.RawSyscall6(unix.SYS_PRCTL, unix.PR_SET_PDEATHSIG, s.pdeathsig, 0, 0, 0, 0)
		if ppid, _, _ := syscall.RawSyscall(unix.SYS_GETPPID, 0, 0, 0); e == 0 && ppid != s.ppid {
			pid, _, _ := syscall.RawSyscall(unix.SYS_GETPID, 0, 0, 0)
			syscall.RawSyscall(unix.SYS_KILL, pid, s.pdeathsig, 0) // chainrun died meanwhile
		}
	}
	return e
}

// files lays out the child's fd table; every source is above it, so no
// dup3 overwrites one still to be placed.
//
//go:nosplit
//go:norace
func (s *forkSpec) files() syscall.Errno {
	for i := 0; i < len(s.fds); i++ {
		var e syscall.Errno
		if s.fds[i] < 0 {
			syscall.RawSyscall(unix.SYS_CLOSE, uintptr(i), 0, 0)
		} else {
			_, _, e = syscall.RawSyscall(unix.SYS_DUP3, uintptr(s.fds[i]), uintptr(i), 0)
		}
		if e != 0 {
			return e
		}
	}
	return 0
}
