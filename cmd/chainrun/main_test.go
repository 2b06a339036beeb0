package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary impersonate chainrun and the small helper
// programs the scripts run, so the same scripts work on every OS.
func TestMain(m *testing.M) {
	testscript.Main(wineExit{m}, map[string]func(){
		"chainrun":  func() { os.Exit(Main()) },
		"show-argv": showArgv,
		"cat-stdin": catStdin,
		"to-stderr": toStderr,
		"exit-with": exitWith,
		"print-env": printEnv,
		"show-dir":  showDir,
		"hang":      hang,
	})
}

// wineExit runs the tests and, under Wine only, exits at once with their
// status: Wine cannot unlink the hard links of the running test binary
// that testscript.Main made for the helper programs, and its cleanup would
// turn a passing run into a failure. The links stay in Wine's temp folder.
type wineExit struct{ m *testing.M }

func (w wineExit) Run() int {
	code := w.m.Run()
	if underWine() {
		os.Exit(code)
	}
	return code
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata",
		RequireExplicitExec: true,
		ContinueOnError:     true,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"status": cmdStatus},
		Setup:               passWindowsEnv,
	})
}

// passWindowsEnv gives the scripts the variables Windows programs need,
// which testscript's minimal environment leaves out.
func passWindowsEnv(env *testscript.Env) error {
	for _, k := range []string{"SYSTEMROOT", "WINDIR", "PATHEXT", "COMSPEC"} {
		if v, ok := os.LookupEnv(k); ok {
			env.Setenv(k, v)
		}
	}
	return nil
}

// cmdStatus runs a command like exec and checks its exit status:
// status 124 chainrun --timeout 1s hang
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status CODE command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("%s: %v", args[1], err)
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

// showArgv prints each argument after the program name as [arg], one a line.
func showArgv() {
	for _, a := range os.Args[1:] {
		fmt.Printf("[%s]\n", a)
	}
}

// catStdin copies stdin to stdout.
func catStdin() {
	if _, err := io.Copy(os.Stdout, os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// toStderr writes its arguments to stderr.
func toStderr() { fmt.Fprintln(os.Stderr, strings.Join(os.Args[1:], " ")) }

// exitWith exits with the status given as its argument.
func exitWith() {
	n, err := strconv.Atoi(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(100)
	}
	os.Exit(n)
}

// printEnv prints NAME=value for each named variable, NAME unset if absent.
func printEnv() {
	names := os.Args[1:]
	sort.Strings(names)
	for _, n := range names {
		if v, ok := os.LookupEnv(n); ok {
			fmt.Printf("%s=%s\n", n, v)
		} else {
			fmt.Printf("%s unset\n", n)
		}
	}
}

// showDir prints the base name of its working directory.
func showDir() {
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(filepath.Base(wd))
}

// hang sleeps far longer than any test, until it is stopped.
func hang() { time.Sleep(time.Hour) }
