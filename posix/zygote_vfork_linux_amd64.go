package posix

import "golang.org/x/sys/unix"

// vforkFlags share the zygote's memory with the child until its exec, so
// the fork copies no page tables (1.2 ms of CPU for the zygote on a
// virtual machine measured, against 0.6 ms for a whole vfork and exec).
// The child then needs a stack of its own (zygoteStack), and rawVfork is
// written in assembly so that it returns in the child on that stack.
const vforkFlags = unix.CLONE_VM | unix.CLONE_VFORK

// rawVfork clones with args; the child runs vforkChild(s) (zygote_vfork_linux_amd64.s).
func rawVfork(args *cloneArgs, s *forkSpec) (pid uintptr, errno uintptr)

// vforkChild is the child's entry from rawVfork.
//
//go:nosplit
//go:norace
func vforkChild(s *forkSpec) { s.child() }

// Only the assembly calls vforkChild; this tells the linters it is used.
var _ = vforkChild
