//go:build unix

package posix_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/internal/testprog"
)

// TestBackgroundStoppedAtEnd: a background pipeline still running when
// the chain ends is stopped as on timeout, its descendants too (the
// setsid escapee by the Linux sweep); Run returns with the chain's own
// status and names the job.
func TestBackgroundStoppedAtEnd(t *testing.T) {
	pidfile := filepath.Join(testprog.TempDir(t), "pids")
	res, err := engine.RunString(context.Background(), "spawn-tree "+pidfile+" & wait-lines "+pidfile+" 3; exit-with 5",
		engine.Options{Env: env(), Grace: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 5 || res.TimedOut || res.Canceled {
		t.Errorf("exit %d timed out %v canceled %v, want the chain's own 5", res.ExitCode, res.TimedOut, res.Canceled)
	}
	if len(res.Jobs) != 1 || !res.Jobs[0].Killed || res.Jobs[0].Text != "spawn-tree "+pidfile || !res.Segments[0].Signalled {
		t.Errorf("jobs %+v, segment %+v", res.Jobs, res.Segments[0])
	}
	pids := readPids(pidfile)
	if len(pids) != 3 {
		t.Fatalf("pids %v", pids)
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

// TestBackgroundDetach: with Options.Detach the chain's result comes
// first, the job's later output goes to the writer Detach returns, and
// canceling the context ends the job's tree; then Run returns.
func TestBackgroundDetach(t *testing.T) {
	pidfile := filepath.Join(testprog.TempDir(t), "pids")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var later syncBuffer
	detached := make(chan *engine.Result, 1)
	opts := engine.Options{Env: env(), Grace: 300 * time.Millisecond, Timeout: 2 * time.Second}
	opts.Detach = func(res *engine.Result) io.Writer {
		detached <- res
		return &later
	}
	done := make(chan error, 1)
	var final *engine.Result
	go func() {
		var err error
		final, err = engine.RunString(ctx, "sh -c 'echo early; wait-lines "+pidfile+" 1; echo late; hang "+pidfile+"' & echo-argv fg; exit-with 2", opts)
		done <- err
	}()
	var res *engine.Result
	select {
	case res = <-detached:
	case <-time.After(10 * time.Second):
		t.Fatal("Detach not called")
	}
	if res.ExitCode != 2 || len(res.Jobs) != 1 || res.Jobs[0].Killed {
		t.Errorf("detached result: exit %d jobs %+v", res.ExitCode, res.Jobs)
	}
	if !bytes.Contains(res.Stdout, []byte("fg\n")) {
		t.Errorf("detached stdout %q lacks the chain's own output", res.Stdout)
	}
	time.Sleep(2200 * time.Millisecond) // past the chain's timeout, which covers the chain alone
	testprog.AppendPid(pidfile)         // lets the job go on
	for deadline := time.Now().Add(10 * time.Second); len(readPids(pidfile)) < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the job did not go on")
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run: %v, want canceled", err)
	}
	if !bytes.Contains(res.Stdout, []byte("early")) && !bytes.Contains(later.Bytes(), []byte("early")) {
		t.Errorf("early output lost: %q / %q", res.Stdout, later.Bytes())
	}
	if !bytes.Contains(later.Bytes(), []byte("late\n")) {
		t.Errorf("later output %q lacks the job's", later.Bytes())
	}
	if final == nil || len(final.Jobs) != 1 || !final.Jobs[0].Killed {
		t.Errorf("final result %+v", final)
	}
	for _, pid := range readPids(pidfile)[1:] {
		if alive(pid) {
			t.Errorf("process %d survived the cancel", pid)
			syscallKill(pid)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) Bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Clone(s.b.Bytes())
}
