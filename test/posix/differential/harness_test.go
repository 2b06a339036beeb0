//go:build unix

package differential

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"sync"
	"testing"
)

// seedAndCount reads DIFF_SEED and DIFF_N (the default seed keeps CI
// reproducible; a failure prints the seed and the case number to replay).
// With -short and no DIFF_N a suite runs the first quarter of its default
// cases, the same ones each time: the race detector's run in CI.
func seedAndCount(t *testing.T, defSeed uint64, defN int) (uint64, int) {
	t.Helper()
	seed, n := defSeed, defN
	if testing.Short() {
		n = defN / 4
	}
	if s := os.Getenv("DIFF_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("DIFF_SEED=%q: %v", s, err)
		}
		seed = v
	}
	if s := os.Getenv("DIFF_N"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			t.Fatalf("DIFF_N=%q: want a positive count", s)
		}
		n = v
	}
	return seed, n
}

// onlyCase returns the case number DIFF_CASE selects, or -1 for all.
func onlyCase(t *testing.T) int {
	s := os.Getenv("DIFF_CASE")
	if s == "" {
		return -1
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("DIFF_CASE=%q: %v", s, err)
	}
	return v
}

// needShell skips the test when the shell is missing.
func needShell(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not found: the differential suite compares against a real %s", name, name)
	}
	return p
}

// forEach runs f for cases 0..n-1 on a small worker pool and returns the
// failures' reports in case order.
func forEach(n int, f func(i int) string) []string {
	workers := min(runtime.GOMAXPROCS(0), 4)
	out := make([]string, n)
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = f(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	var fails []string
	for _, s := range out {
		if s != "" {
			fails = append(fails, s)
		}
	}
	return fails
}

// shellResult is what a shell did with a command line.
type shellResult struct {
	Stdout, Stderr []byte
	Status         int
	Err            error // set when the shell could not be run at all
}

// runShell runs `shell -c src` in dir with env and empty stdin.
func runShell(ctx context.Context, shell, src, dir string, env []string) shellResult {
	cmd := exec.CommandContext(ctx, shell, "-c", src)
	cmd.Dir = dir
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	res := shellResult{Stdout: out.Bytes(), Stderr: errb.Bytes()}
	if ee, ok := err.(*exec.ExitError); ok {
		res.Status = ee.ExitCode()
		if res.Status < 0 { // killed by a signal
			res.Err = fmt.Errorf("%s: %v", shell, err)
		}
	} else if err != nil {
		res.Err = err
	}
	return res
}

// failures reports a suite's mismatches, at most max of them in full.
func failures(t *testing.T, fails []string, max int) {
	t.Helper()
	if s := os.Getenv("DIFF_SHOW"); s != "" {
		max, _ = strconv.Atoi(s)
	}
	for i, f := range fails {
		if i == max {
			t.Errorf("... and %d more mismatches", len(fails)-max)
			break
		}
		t.Error(f)
	}
}

// lookShell finds an optional shell.
func lookShell(name string) (string, error) { return exec.LookPath(name) }
