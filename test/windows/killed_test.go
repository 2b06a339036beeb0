//go:build windows

package windows_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/internal/testprog"
)

func init() {
	// run-chain CHAIN runs CHAIN with the engine, its output live on
	// stdout, as chainrun.exe would.
	testprog.Register("run-chain", func(args []string) int {
		res, err := engine.RunString(context.Background(), args[0],
			engine.Options{Stdout: os.Stdout, Stderr: os.Stderr, NoCapture: true, Dialect: "posix"})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 125
		}
		return res.ExitCode
	})
}

// TestKilledRunnerLeavesNothing: the process running a chain, terminated
// from outside (TerminateProcess, which no code of its own survives),
// takes the chain's processes with it: closing its handles closes each
// segment's kill-on-close job. Here a program and the grandchild it
// started must be gone within a second.
func TestKilledRunnerLeavesNothing(t *testing.T) {
	chain := "CHAINRUN_HELPER=spawn " + quoted(testprog.Executable(t))
	cmd := testprog.Command("run-chain", chain)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	var pid, gpid int
	if _, serr := fmt.Sscan(line, &pid, &gpid); err != nil || serr != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("no pids from the chain: %q %v %v", line, err, serr)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	deadline := time.Now().Add(time.Second)
	for (alive(pid) || alive(gpid)) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if alive(pid) || alive(gpid) {
		t.Errorf("a second after the runner was killed: child %d alive %v, grandchild %d alive %v",
			pid, alive(pid), gpid, alive(gpid))
	}
}
