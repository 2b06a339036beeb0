//go:build unix

package testprog

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// WaitForChild waits up to d for a child of pid whose argv[0] is argv0,
// and reports whether one runs: how a test sees that a process it started
// has started a helper of its own (package posix's guard, "chainrun-guard")
// before it kills that process, rather than sleeping and hoping.
func WaitForChild(pid int, argv0 string, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		if hasChild(pid, argv0) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// hasChild looks in /proc (Linux) or asks ps (elsewhere).
func hasChild(pid int, argv0 string) bool {
	tasks, err := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/children")
	if err != nil || len(tasks) == 0 {
		return psHasChild(pid, argv0)
	}
	for _, t := range tasks {
		b, _ := os.ReadFile(t)
		for _, c := range strings.Fields(string(b)) {
			cmd, _ := os.ReadFile("/proc/" + c + "/cmdline")
			if a, _, _ := bytes.Cut(cmd, []byte{0}); string(a) == argv0 {
				return true
			}
		}
	}
	return false
}

// psHasChild reads the parent and argv of every process from ps.
func psHasChild(pid int, argv0 string) bool {
	out, err := exec.Command("ps", "-A", "-o", "ppid=,args=").Output()
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == strconv.Itoa(pid) && f[1] == argv0 {
			return true
		}
	}
	return false
}
