//go:build unix

// Package posix_test runs real chains on Linux and macOS: stopping whole
// process trees, leaks over thousands of runs, bounded capture and
// concurrent chains. The test binary doubles as the programs the chains
// run: TestMain links it into a bin directory under several names and,
// when started under one of them, behaves as that program.
package posix_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// programs maps a program name to its behaviour.
var programs = map[string]func(args []string) int{
	// echo-argv prints each argument on its own line.
	"echo-argv": func(args []string) int {
		for _, a := range args {
			fmt.Println(a)
		}
		return 0
	},
	// cat copies stdin to stdout.
	"cat": func(args []string) int {
		if _, err := io.Copy(os.Stdout, os.Stdin); err != nil {
			return 1
		}
		return 0
	},
	// hang records its pid in the file args[0] (if given) and sleeps.
	"hang": func(args []string) int {
		if len(args) > 0 {
			recordPid(args[0])
		}
		time.Sleep(time.Hour)
		return 0
	},
	// spawn-tree PIDFILE starts a background grandchild (spawn-escapee),
	// which starts a great-grandchild in a new session, then hangs; all
	// three record their pids.
	"spawn-tree": func(args []string) int {
		recordPid(args[0])
		cmd := exec.Command(self("spawn-escapee"), args[0])
		if err := cmd.Start(); err != nil {
			return 1
		}
		waitForLines(args[0], 3)
		fmt.Println("tree ready")
		time.Sleep(time.Hour)
		return 0
	},
	"spawn-escapee": func(args []string) int {
		recordPid(args[0])
		cmd := exec.Command(self("hang"), args[0])
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
	// exit-with N exits with status N.
	"exit-with": func(args []string) int {
		n, _ := strconv.Atoi(args[0])
		return n
	},
}

var binDir string

func TestMain(m *testing.M) {
	if h, ok := programs[filepath.Base(os.Args[0])]; ok {
		os.Exit(h(os.Args[1:]))
	}
	dir, err := os.MkdirTemp("", "chainrun-programs")
	if err != nil {
		panic(err)
	}
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	for name := range programs {
		if err := os.Symlink(exe, filepath.Join(dir, name)); err != nil {
			panic(err)
		}
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// self returns the path of a test program.
func self(name string) string {
	if binDir != "" {
		return filepath.Join(binDir, name)
	}
	return filepath.Join(filepath.Dir(os.Args[0]), name)
}

// env is the environment for chains: the test programs first in PATH, and no
// one-second pause at exit when they are built with -race.
func env() []string {
	out := []string{"PATH=" + binDir + string(os.PathListSeparator) + os.Getenv("PATH"), "GORACE=atexit_sleep_ms=0"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "GORACE=") {
			out = append(out, kv)
		}
	}
	return out
}

func recordPid(file string) {
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	fmt.Fprintln(f, os.Getpid())
	f.Close()
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
