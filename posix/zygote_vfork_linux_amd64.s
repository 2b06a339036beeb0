#include "textflag.h"

// func rawVfork(args *cloneArgs, s *forkSpec) (pid uintptr, errno uintptr)
//
// clone3 with the flags and the stack args gives; the child calls
// vforkChild(s) on that stack and never returns, so the parent's stack,
// which the child shares (CLONE_VM), is as the parent left it when it
// resumes (CLONE_VFORK: after the child's exec or exit).
TEXT ·rawVfork(SB),NOSPLIT,$0-32
	MOVQ	args+0(FP), DI
	MOVQ	$64, SI
	MOVQ	s+8(FP), R12
	MOVQ	$435, AX // SYS_clone3
	SYSCALL
	CMPQ	AX, $0
	JEQ	child
	CMPQ	AX, $0xfffffffffffff001
	JLS	ok
	MOVQ	$0, pid+16(FP)
	NEGQ	AX
	MOVQ	AX, errno+24(FP)
	RET
ok:
	MOVQ	AX, pid+16(FP)
	MOVQ	$0, errno+24(FP)
	RET
child:
	SUBQ	$16, SP
	MOVQ	R12, 0(SP)
	CALL	·vforkChild(SB)
	MOVL	$231, AX // SYS_exit_group, should it return
	MOVL	$253, DI
	SYSCALL
