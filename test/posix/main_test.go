//go:build unix

// Package posix_test runs real chains on Linux and macOS: stopping whole
// process trees, leaks over thousands of runs, bounded capture and
// concurrent chains. The test binary doubles as the programs the chains
// run (see internal/testprog): linked into a bin directory under each
// program's name and started under one of them, it behaves as that program.
package posix_test

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chainrun/chainrun/internal/testprog"
)

// programs are this package's own test programs, beside the common ones
// of testprog.
var programs = map[string]testprog.Program{
	// spawn-tree PIDFILE starts a background grandchild (spawn-escapee),
	// which starts a great-grandchild (hang) in a new session, then hangs;
	// all three record their pids.
	"spawn-tree": func(args []string) int {
		testprog.AppendPid(args[0])
		cmd := testprog.Command("spawn-escapee", args[0])
		if err := cmd.Start(); err != nil {
			return 1
		}
		waitForLines(args[0], 3)
		fmt.Println("tree ready")
		time.Sleep(time.Hour)
		return 0
	},
	"spawn-escapee": func(args []string) int {
		testprog.AppendPid(args[0])
		cmd := testprog.Command("hang", args[0])
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			return 1
		}
		time.Sleep(time.Hour)
		return 0
	},
	// pattern N writes N bytes of the pattern byte(i % 251).
	"pattern": func(args []string) int {
		n, _ := strconv.ParseInt(args[0], 10, 64)
		block := make([]byte, 251*1024)
		for i := range block {
			block[i] = byte(i % 251)
		}
		w := os.Stdout
		for n > 0 {
			k := min(n, int64(len(block)))
			if _, err := w.Write(block[:k]); err != nil {
				return 1
			}
			n -= k
		}
		return 0
	},
	// wait-lines FILE N waits until FILE has N lines.
	"wait-lines": func(args []string) int {
		n, _ := strconv.Atoi(args[1])
		waitForLines(args[0], n)
		return 0
	},
	// fg-check prints whether its group holds the terminal on stdin.
	"fg-check": func(args []string) int {
		fmt.Printf("fg=%v\n", foreground(0))
		return 0
	},
	// tty-check prints whether it can open a controlling terminal.
	"tty-check": func(args []string) int {
		f, err := os.Open("/dev/tty")
		if err == nil {
			f.Close()
		}
		fmt.Printf("tty=%v\n", err == nil)
		return 0
	},
	// interactive-host runs args[0] as an interactive chain on its own
	// terminal, reports whether it got the terminal back, then runs
	// args[1] as a non-interactive chain.
	"interactive-host": func(args []string) int {
		code := runInteractive(args[0], true)
		fmt.Printf("restored=%v\n", foreground(0))
		if code == 0 && len(args) > 1 {
			code = runInteractive(args[1], false)
		}
		return code
	},
}

// TestMain lets the test binary be the programs the chains run; they find
// them in testprog.BinDir, which env puts first in PATH.
func TestMain(m *testing.M) {
	for name, p := range programs {
		testprog.Register(name, p)
	}
	testprog.Main(m)
}

// env is the environment for chains: the test programs first in PATH, and no
// one-second pause at exit when they are built with -race.
func env() []string {
	out := []string{"PATH=" + testprog.BinDir() + string(os.PathListSeparator) + os.Getenv("PATH"), "GORACE=atexit_sleep_ms=0"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "GORACE=") {
			out = append(out, kv)
		}
	}
	return out
}

func waitForLines(file string, n int) {
	for i := 0; i < 500; i++ {
		if len(readPids(file)) >= n {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func readPids(file string) []int {
	f, err := os.Open(file)
	if err != nil {
		return nil
	}
	defer f.Close()
	var pids []int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if p, err := strconv.Atoi(strings.TrimSpace(sc.Text())); err == nil {
			pids = append(pids, p)
		}
	}
	return pids
}

// alive reports whether pid exists and is not a zombie.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
		if i := strings.LastIndexByte(string(b), ')'); i > 0 && strings.HasPrefix(string(b[i+1:]), " Z") {
			return false
		}
	}
	return true
}
