package posix

import (
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// dieWithParent has the kernel send the child SIGKILL when its parent
// dies (PR_SET_PDEATHSIG), so that a direct child never outlives this
// process, watchdog or no watchdog. The kernel sends it when the thread that
// forked the child exits, not the process; that is safe here because Go's
// runtime ends a thread only when a goroutine locked to it
// (runtime.LockOSThread) exits without unlocking, which neither this
// module nor the standard library does, and because Run never returns
// before its children have ended, so a normal exit kills none. (A host
// program whose goroutines exit while locked would have such a thread's
// children killed with it.) A set-user-ID program clears the setting when
// it starts; only the watchdog covers such a child, as it covers every
// descendant.
func dieWithParent(sys *syscall.SysProcAttr) { sys.Pdeathsig = syscall.SIGKILL }

// recordAdopted notes the orphans the parent adopted as a subreaper
// (descendants that left their group and whose parent exited) while its
// chains run: once the parent dies they are re-parented to init, and
// nothing else links them to the chain. Only children outside the
// parent's session, or in a held group, are chain processes (Sweep's
// rule); the start time keeps a reused pid from being mistaken for one.
func recordAdopted(parent int, held map[int]bool, adopted map[int]uint64) {
	own, ok := statOf(parent)
	if !ok {
		return
	}
	self := os.Getpid()
	for _, pid := range childrenOf(parent) {
		st, ok := statOf(pid)
		if !ok || pid == self || st.ppid != parent {
			continue
		}
		if st.sid != own.sid || held[st.pgrp] {
			adopted[pid] = st.start
		}
	}
}

// childrenOf lists parent's children from every one of its threads.
func childrenOf(parent int) []int {
	dir := "/proc/" + strconv.Itoa(parent) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []int
	for _, t := range tasks {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/children")
		if err != nil {
			continue
		}
		for _, f := range splitFields(b) {
			if pid, err := strconv.Atoi(f); err == nil {
				out = append(out, pid)
			}
		}
	}
	return out
}

func splitFields(b []byte) []string {
	var out []string
	start := -1
	for i, c := range b {
		if c == ' ' || c == '\n' {
			if start >= 0 {
				out = append(out, string(b[start:i]))
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, string(b[start:]))
	}
	return out
}

// watchdogReap ends what the dead parent's chains left running: every
// process in a held group or session, every recorded orphan, and every
// descendant of those. It stops them first, top down and scan after scan
// until a scan finds no one new, so that no process can fork or leave
// its parent (which would re-parent its children to init, beyond reach)
// while the tree is being walked; then it kills them all.
func watchdogReap(held map[int]bool, adopted map[int]uint64) {
	self := os.Getpid()
	stopped := map[int]bool{}
	for round := 0; round < 100; round++ {
		procs := allProcs()
		found := false
		for changed := true; changed; {
			changed = false
			for pid, st := range procs {
				if pid == self || pid <= 1 || stopped[pid] {
					continue
				}
				start, orphan := adopted[pid]
				if held[st.pgrp] || held[st.sid] || stopped[st.ppid] || orphan && start == st.start {
					syscall.Kill(pid, syscall.SIGSTOP)
					stopped[pid] = true
					changed, found = true, true
				}
			}
		}
		if !found {
			break
		}
	}
	for pid := range stopped {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	for g := range held {
		KillGroup(g)
	}
}

// allProcs reads every process's procStat from /proc.
func allProcs() map[int]procStat {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	out := make(map[int]procStat, len(ents))
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := statOf(pid); ok {
			out[pid] = st
		}
	}
	return out
}

// growWatchdogPipe lets the pipe hold what a busy process sends between two
// reads of the watchdog (a message is about eight bytes); where the fcntl is
// refused the pipe keeps its 64 KiB.
func growWatchdogPipe(fd int) { unix.FcntlInt(uintptr(fd), unix.F_SETPIPE_SZ, 1<<20) }
