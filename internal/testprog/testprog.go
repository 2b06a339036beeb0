// Package testprog lets a test binary be the small programs its tests start.
//
// chainrun's tests start real processes (a program that hangs, one that
// prints its argv, one that leaves a grandchild behind) on Linux, macOS,
// Windows and under Wine. Rather than build separate programs or rely on
// system tools that differ between those systems, a package's test binary
// plays each of them: a TestMain calls [Main], which runs the program the
// process was started as, or the tests when it was started as none.
//
// The programs are kept in one registry: the common ones, defined once in
// programs.go, and those a package registers for its own tests with
// [Register] before calling [Main]. One rule, the same in every package,
// selects the program:
//
//   - the environment variable [EnvVar] names it (start one with [Command]
//     or [Environ]); or, when it is unset,
//   - the base name of argv0 names it, without ".exe" on Windows, when the
//     binary was started through a link made under the program's name
//     ([BinDir] and [Path] for chains that find programs in PATH, or
//     testscript with [Commands]).
//
// Only ".exe" is dropped, and only on Windows: a test binary is named like
// "chainrun.test", and dropping any extension would make it the program
// "chainrun" of cmd/chainrun's tests.
//
// This package imports no other chainrun package, so that every one of
// them, winproc's internal tests included, can use it without a cycle.
package testprog

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// EnvVar names the program a started copy of the test binary runs. Main
// removes it from the program's environment, so the program's own children
// are selected by their own EnvVar or argv0, never by their parent's.
const EnvVar = "CHAINRUN_HELPER"

// Program is one test program: it gets the arguments after argv0 and
// returns the exit status.
type Program func(args []string) int

// programs holds every registered program by name.
var programs = map[string]Program{}

// running is the program this process runs, "" in a test process.
var running string

// Register adds a program under name. Call it before [Main], from TestMain
// or an init function of a _test.go file. The name becomes a file name
// (see [Path]), so it must be a plain base name, distinct from every other
// name even ignoring case, as file names are on Windows and macOS; a bad or
// duplicate name panics, since the test binary cannot work either way.
func Register(name string, p Program) {
	if name == "" || name != filepath.Base(name) || strings.ContainsAny(name, `/\=`) || name == "." || name == ".." {
		panic(fmt.Sprintf("testprog: %q cannot name a program", name))
	}
	for n := range programs {
		if strings.EqualFold(n, name) {
			panic(fmt.Sprintf("testprog: program %q registered twice (as %q)", name, n))
		}
	}
	programs[name] = p
}

// Tests is what [Main] runs when the process is no program: *testing.M, or
// a wrapper around it (testscript.Main's TestingM has the same method).
type Tests interface {
	Run() int
}

// Main is the body of TestMain. Started as a program, the process runs it
// and exits with its status; otherwise Main runs the tests with [Run] and
// exits with their status.
func Main(m Tests) {
	if v := os.Getenv(EnvVar); v != "" {
		p := programs[v]
		if p == nil {
			fmt.Fprintf(os.Stderr, "testprog: %s=%s names no program\n", EnvVar, v)
			os.Exit(2)
		}
		os.Exit(runProgram(v, p))
	}
	if name, p := byArgv0(); p != nil {
		os.Exit(runProgram(name, p))
	}
	os.Exit(Run(m))
}

// Run runs the tests, removes the directory [BinDir] made, if any, and
// returns the tests' status. Main calls it; call it in place of m.Run
// where a framework that exits by itself, as testscript.Main does, runs
// the tests, so that the directory is removed all the same.
func Run(m Tests) int {
	code := m.Run()
	removeBinDir()
	return code
}

// runProgram runs the program p as name with the process's arguments.
func runProgram(name string, p Program) int {
	running = name
	os.Unsetenv(EnvVar)
	return p(os.Args[1:])
}

// byArgv0 returns the program argv0's base name selects, if any.
func byArgv0() (string, Program) {
	base := filepath.Base(os.Args[0])
	if runtime.GOOS != "windows" {
		return base, programs[base]
	}
	if len(base) > 4 && strings.EqualFold(base[len(base)-4:], ".exe") {
		base = base[:len(base)-4]
	}
	for n, p := range programs {
		if strings.EqualFold(n, base) {
			return n, p
		}
	}
	return "", nil
}

// mustExist panics unless name is registered: a misspelt program would
// otherwise show up only as a child that exits 2 far from the typo.
func mustExist(name string) {
	if programs[name] == nil {
		panic(fmt.Sprintf("testprog: no program %q is registered", name))
	}
}

// Environ returns the environment that makes the test binary run the
// program name: this process's environment, EnvVar=name, then extra.
func Environ(name string, extra ...string) []string {
	mustExist(name)
	env := make([]string, 0, len(os.Environ())+1+len(extra))
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !sameKey(k, EnvVar) {
			env = append(env, kv)
		}
	}
	return append(append(env, EnvVar+"="+name), extra...)
}

// sameKey compares environment variable names as the OS does.
func sameKey(a, b string) bool {
	if runtime.GOOS == "windows" {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// Command returns a command that runs the program name with args. It works
// in a test and in a program alike, so a program can start another one.
func Command(name string, args ...string) *exec.Cmd {
	mustExist(name)
	exe, err := os.Executable()
	cmd := exec.Command(exe, args...)
	if err != nil {
		cmd.Err = err
	}
	cmd.Env = Environ(name)
	return cmd
}

// Executable returns the test binary's path, to start it with [Environ]
// by means other than os/exec; it fails tb when the path is unknown.
func Executable(tb testing.TB) string {
	tb.Helper()
	exe, err := os.Executable()
	if err != nil {
		tb.Fatalf("testprog: the test binary's path: %v", err)
	}
	return exe
}

// Commands returns every program in the form testscript.Main takes. Each
// runs the program and exits with its status.
func Commands() map[string]func() {
	cmds := make(map[string]func(), len(programs))
	for name, p := range programs {
		cmds[name] = func() { os.Exit(runProgram(name, p)) }
	}
	return cmds
}
