//go:build unix

package posix_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/internal/testprog"
)

// TestTreeKill: a stage starts a background grandchild, which starts a
// great-grandchild in its own session; on timeout Run returns within
// grace + 1 s and none of them remains.
func TestTreeKill(t *testing.T) {
	pidfile := filepath.Join(testprog.TempDir(t), "pids")
	grace := 500 * time.Millisecond
	start := time.Now()
	res, err := engine.RunString(context.Background(), "spawn-tree "+pidfile+" | cat-stdin && echo-argv never",
		engine.Options{Env: env(), Timeout: 300 * time.Millisecond, Grace: grace})
	took := time.Since(start)
	if !errors.Is(err, chain.ErrTimeout) {
		t.Fatalf("err %v", err)
	}
	if !res.TimedOut || res.ExitCode != 124 {
		t.Errorf("timed out %v exit %d", res.TimedOut, res.ExitCode)
	}
	if took > 300*time.Millisecond+grace+time.Second {
		t.Errorf("Run took %v", took)
	}
	if !res.Segments[0].Signalled || !res.Segments[2].Skipped {
		t.Errorf("segments %+v", res.Segments)
	}
	pids := readPids(pidfile)
	if len(pids) != 3 {
		t.Fatalf("recorded pids %v (stdout %q)", pids, res.Stdout)
	}
	for i, pid := range pids {
		if i == 2 && runtime.GOOS != "linux" {
			continue // a setsid escapee is found only by the Linux subreaper sweep
		}
		if alive(pid) {
			t.Errorf("process %d (%d of the tree) survived", pid, i)
			syscallKill(pid)
		}
	}
}

// TestBackgroundLeftovers: a segment that exits while its background
// child holds stdout neither blocks the chain nor outlives Run.
func TestBackgroundLeftovers(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs the subreaper sweep for the setsid escapee")
	}
	pidfile := filepath.Join(testprog.TempDir(t), "pids")
	start := time.Now()
	res, err := engine.RunString(context.Background(), "sh -c 'hang "+pidfile+" & echo started'; wait-lines "+pidfile+" 1; echo-argv next",
		engine.Options{Env: env(), Grace: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Stdout) != "started\nnext\n" {
		t.Errorf("stdout %q", res.Stdout)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v: Run waited for the background process", d)
	}
	pids := readPids(pidfile)
	if len(pids) != 1 {
		t.Fatalf("pids %v", pids)
	}
	for _, pid := range pids {
		if alive(pid) {
			t.Errorf("background process %d survived", pid)
			syscallKill(pid)
		}
	}
}

// TestLeaks runs 2,000 chains and checks that open fds, goroutines and
// child processes do not grow.
func TestLeaks(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	chains := []string{
		"echo a | cat-stdin | cat-stdin",
		"true && false || echo b > /dev/null",
		"nosuch-program-xyz; cat-stdin < /nonexistent-file",
		"exit-with 3 | cat-stdin; echo x 2>&1 >&2",
		// Heredocs: read through a pipeline, and left unread by a program
		// and by a built-in (their writers must end all the same).
		"cat-stdin <<'EOF' | cat-stdin 3<<< x\nbody\nEOF",
		"exit-with 0 <<'EOF' && true <<< y\n" + strings.Repeat("z", 60000) + "\nEOF",
	}
	ctx := context.Background()
	runOne := func(i int) {
		res, err := engine.RunString(ctx, chains[i%len(chains)], engine.Options{Env: env()})
		if err != nil || res == nil {
			t.Fatalf("run %d: %v", i, err)
		}
	}
	for i := 0; i < len(chains); i++ {
		runOne(i) // warm up pools and the runtime
	}
	// One chain that times out, to cover the stop path.
	engine.RunString(ctx, "hang", engine.Options{Env: env(), Timeout: 50 * time.Millisecond, Grace: 50 * time.Millisecond})
	fds0, gs0, kids0 := openFds(t), settledGoroutines(0), children()
	for i := 0; i < n; i++ {
		runOne(i)
		if i%500 == 0 {
			engine.RunString(ctx, "hang", engine.Options{Env: env(), Timeout: 20 * time.Millisecond, Grace: 20 * time.Millisecond})
		}
	}
	fds1, gs1, kids1 := openFds(t), settledGoroutines(gs0), children()
	t.Logf("%d runs: fds %d→%d, goroutines %d→%d, children %d→%d", n, fds0, fds1, gs0, gs1, kids0, kids1)
	if fds1 > fds0 {
		t.Errorf("open fds grew from %d to %d", fds0, fds1)
	}
	if gs1 > gs0 {
		t.Errorf("goroutines grew from %d to %d", gs0, gs1)
	}
	if kids1 > kids0 {
		t.Errorf("child processes grew from %d to %d", kids0, kids1)
	}
}

func openFds(t *testing.T) int {
	dir := "/proc/self/fd"
	if runtime.GOOS != "linux" {
		dir = "/dev/fd"
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

// settledGoroutines waits briefly for exiting goroutines to finish.
func settledGoroutines(target int) int {
	n := runtime.NumGoroutine()
	for i := 0; i < 100 && n > target; i++ {
		time.Sleep(10 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	return n
}

// children counts this process's children (Linux), -1 elsewhere.
func children() int {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return -1
	}
	n := 0
	for _, task := range tasks {
		b, _ := os.ReadFile("/proc/self/task/" + task.Name() + "/children")
		n += len(strings.Fields(string(b)))
	}
	return n
}

// TestCaptureBounded sends 1 GB through the default 1 MiB cap: the heap
// stays under 16 MiB and head, tail and the omitted count are exact.
func TestCaptureBounded(t *testing.T) {
	const total = 1_000_000_000
	runtime.GC()
	var peak uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	start := time.Now()
	res, err := engine.RunString(context.Background(), "pattern "+strconv.Itoa(total)+" | cat-stdin", engine.Options{Env: env()})
	took := time.Since(start)
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("1 GB captured in %v (%.2f GB/s), peak heap in use %.1f MiB", took, total/took.Seconds()/1e9, float64(peak)/(1<<20))
	if peak >= 16<<20 {
		t.Errorf("peak heap in use %d bytes", peak)
	}
	const half = engine.DefaultMaxOutput / 2
	if len(res.Stdout) != engine.DefaultMaxOutput {
		t.Fatalf("kept %d bytes", len(res.Stdout))
	}
	if res.StdoutOmitted != total-engine.DefaultMaxOutput {
		t.Errorf("omitted %d", res.StdoutOmitted)
	}
	for i := 0; i < half; i++ {
		if res.Stdout[i] != byte(i%251) {
			t.Fatalf("head byte %d = %d", i, res.Stdout[i])
		}
	}
	for i := 0; i < half; i++ {
		off := int64(total - half + i)
		if res.Stdout[half+i] != byte(off%251) {
			t.Fatalf("tail byte %d = %d", i, res.Stdout[half+i])
		}
	}
	if res.Segments[1].BytesOut != total {
		t.Errorf("bytes out %d", res.Segments[1].BytesOut)
	}
}

// TestConcurrent runs 50 chains at once; each must see its own output and
// statuses, and one chain's sweep must not touch another's processes.
func TestConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			cmd := fmt.Sprintf("echo-argv %d a%d | cat-stdin | cat-stdin && exit-with %d | cat-stdin; sh -c 'sleep 0.05 & echo bg%d'; echo-argv end%d > /dev/stderr", i, i, i%7, i, i)
			if i%10 == 0 {
				cmd = fmt.Sprintf("echo %d a%d; hang", i, i)
			}
			var opts engine.Options
			opts.Env = env()
			if i%10 == 0 {
				// Room for 50 chains starting at once under -race on a busy machine.
				opts.Timeout, opts.Grace = 4*time.Second, 200*time.Millisecond
			}
			res, err := engine.RunString(context.Background(), cmd, opts)
			if i%10 == 0 {
				if !errors.Is(err, chain.ErrTimeout) || string(res.Stdout) != fmt.Sprintf("%d a%d\n", i, i) {
					errs <- fmt.Errorf("chain %d: %v %q", i, err, res.Stdout)
				}
				return
			}
			if err != nil {
				errs <- fmt.Errorf("chain %d: %v", i, err)
				return
			}
			want := fmt.Sprintf("%d\na%d\nbg%d\n", i, i, i)
			if string(res.Stdout) != want || string(res.Stderr) != fmt.Sprintf("end%d\n", i) || res.ExitCode != 0 {
				errs <- fmt.Errorf("chain %d: stdout %q stderr %q exit %d", i, res.Stdout, res.Stderr, res.ExitCode)
			}
			if got := res.Segments[3].ExitCode; got != i%7 {
				errs <- fmt.Errorf("chain %d: exit-with status %d", i, got)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestLiveAndCapture: live writers see what the capture keeps.
func TestLiveAndCapture(t *testing.T) {
	var out, errb bytes.Buffer
	res, err := engine.RunString(context.Background(), "pattern 100000 | cat-stdin; echo-argv e >&2",
		engine.Options{Env: env(), Stdout: &out, Stderr: &errb, MaxOutput: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if out.Len() != 100000 || errb.String() != "e\n" || len(res.Stdout) != 1000 || res.StdoutOmitted != 99000 {
		t.Errorf("live %d/%q capture %d omitted %d", out.Len(), errb.String(), len(res.Stdout), res.StdoutOmitted)
	}
}

func syscallKill(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}
