package posix

import (
	"bytes"
	"os"
	"slices"
	"strconv"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

var (
	subreaperOnce sync.Once
	subreaperOK   bool
)

// EnableSubreaper makes this process a child subreaper (Linux), once per
// process: descendants orphaned by their parent's exit, including those
// that left their group with setsid or a double fork, are re-parented to
// this process instead of init, where Sweep can find them.
func EnableSubreaper() bool {
	subreaperOnce.Do(func() {
		subreaperOK = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == nil
	})
	return subreaperOK
}

// Sweep ends the processes a finished chain left behind. groups are the
// chain's process groups (and sessions), already released with
// ReleaseGroup. It kills with SIGKILL, and reaps with waitid on each pid
// (never wait(-1), which would steal statuses from os/exec), every child
// of this process that is not a running direct child, not in a group a
// running chain holds, and either outside this process's session or in
// one of groups; it repeats until none is left, since each death
// re-parents that process's own children here. It returns how many it
// killed.
func Sweep(groups []int) int {
	defer forgetGroups(groups)
	if len(groups) == 0 {
		return 0 // the chain started no process: nothing of it is left
	}
	if !EnableSubreaper() {
		for _, g := range groups {
			KillGroup(g)
		}
		return 0
	}
	self := os.Getpid()
	ownSid, _ := unix.Getsid(0)
	killed := 0
	for round := 0; round < 1000; round++ {
		startMu.Lock()
		var victims []int
		for _, pid := range listChildren(self) {
			regMu.Lock()
			_, direct := children[pid]
			regMu.Unlock()
			if direct {
				continue
			}
			ppid, pgrp, sid, ok := readStat(pid)
			if !ok || ppid != self {
				continue
			}
			regMu.Lock()
			held := groups2held(pgrp, sid)
			regMu.Unlock()
			if held {
				continue
			}
			if sid == ownSid && !slices.Contains(groups, pgrp) {
				continue // not from a chain: the host program's own child
			}
			syscall.Kill(pid, syscall.SIGKILL)
			victims = append(victims, pid)
		}
		startMu.Unlock()
		if len(victims) == 0 {
			return killed
		}
		killed += len(victims)
		for _, pid := range victims {
			var info unix.Siginfo
			for unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED, nil) == unix.EINTR {
			}
		}
	}
	return killed
}

func groups2held(pgrp, sid int) bool {
	return groups[pgrp] > 0 || groups[sid] > 0
}

// listChildren returns the children of this process that the kernel
// re-parented here, from /proc/self/task/PID/children, or by scanning
// /proc where that file is missing. An orphan goes to the first live
// thread of its subreaper, which is the thread group leader: Go never
// ends the main thread. Children that other threads started are the
// direct ones, registered and skipped by Sweep anyway, so the leader's
// list is the whole answer at the cost of one small read: it runs after
// every chain.
func listChildren(self int) []int {
	var buf [4096]byte
	b, err := readSmall("/proc/self/task/"+strconv.Itoa(self)+"/children", buf[:])
	if err != nil {
		return scanProc(self)
	}
	var out []int
	for len(b) > 0 {
		i := bytes.IndexByte(b, ' ')
		if i < 0 {
			i = len(b)
		}
		if pid, err := strconv.Atoi(string(bytes.TrimSpace(b[:i]))); err == nil {
			out = append(out, pid)
		}
		b = b[min(i+1, len(b)):]
	}
	return out
}

// readSmall reads a small /proc file into buf; a file longer than buf
// (thousands of children) falls back to os.ReadFile.
func readSmall(path string, buf []byte) ([]byte, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	n, err := unix.Read(fd, buf)
	unix.Close(fd)
	if err != nil {
		return nil, err
	}
	if n == len(buf) {
		return os.ReadFile(path)
	}
	return buf[:n], nil
}

func scanProc(self int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, _, _, ok := readStat(pid); ok && ppid == self {
			out = append(out, pid)
		}
	}
	return out
}

// readStat reads the parent, group and session of pid from /proc.
func readStat(pid int) (ppid, pgrp, sid int, ok bool) {
	st, ok := statOf(pid)
	return st.ppid, st.pgrp, st.sid, ok
}

// procStat is what /proc/PID/stat says of a process's place in the tree.
type procStat struct {
	ppid, pgrp, sid int
	start           uint64 // clock ticks after boot: with the pid, an identity no reuse repeats
}

// statOf reads pid's procStat.
func statOf(pid int) (procStat, bool) {
	var buf [512]byte
	b, err := readSmall("/proc/"+strconv.Itoa(pid)+"/stat", buf[:])
	if err != nil {
		return procStat{}, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 20 {
		return procStat{}, false
	}
	var st procStat
	st.ppid, _ = strconv.Atoi(string(f[1]))
	st.pgrp, _ = strconv.Atoi(string(f[2]))
	st.sid, _ = strconv.Atoi(string(f[3]))
	st.start, _ = strconv.ParseUint(string(f[19]), 10, 64)
	return st, true
}
