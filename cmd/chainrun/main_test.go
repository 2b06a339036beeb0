package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/internal/cli"
	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary be chainrun and the programs of testprog
// that the scripts and their chains run, so the same scripts work on every
// OS. testscript.Main copies the binary under every program's name into a
// directory it puts first in PATH; testprog.Main has then already run the
// program a copy was started as, so for testscript only the tests are left.
func TestMain(m *testing.M) {
	testprog.Register("chainrun", func([]string) int { return cli.Main() })
	testprog.Main(scripts{wineExit{m}})
}

// scripts runs the tests under testscript.Main, which exits with their
// status.
type scripts struct{ tests testscript.TestingM }

func (s scripts) Run() int {
	testscript.Main(s.tests, testprog.Commands())
	panic("testscript.Main returned")
}

// wineExit runs the tests (through testprog.Run, which removes the
// directory of testprog.BinDir, since testscript.Main exits before
// testprog.Main could) and, under Wine only, exits at once with their
// status: Wine cannot unlink the hard links of the running test binary
// that testscript.Main made for the helper programs, and its cleanup would
// turn a passing run into a failure. The links stay in Wine's temp folder.
type wineExit struct{ m *testing.M }

func (w wineExit) Run() int {
	code := testprog.Run(w.m)
	if testprog.UnderWine() {
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
		Condition:           scriptCondition,
	})
}

// scriptCondition knows [sandbox]: this system can confine a chain
// (engine.SandboxAvailable).
func scriptCondition(cond string) (bool, error) {
	if cond == "sandbox" {
		return engine.SandboxAvailable() == nil, nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
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
