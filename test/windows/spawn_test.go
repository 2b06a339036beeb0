//go:build windows

package windows_test

import (
	"io"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/winproc"
)

// spawnRound starts n helpers at once, every tenth one hanging, each with
// its own stdout pipe. Every quick helper's pipe must reach EOF while the
// hanging ones still run: had a hanging child inherited a sibling's pipe
// end (no PROC_THREAD_ATTRIBUTE_HANDLE_LIST), that EOF would never come.
func spawnRound(t *testing.T, n int) {
	exe := testprog.Executable(t)
	hangLine, err := winproc.ComposeCommandLine([]string{exe})
	if err != nil {
		t.Fatal(err)
	}
	quickLine, err := winproc.ComposeCommandLine([]string{exe, "7"})
	if err != nil {
		t.Fatal(err)
	}
	quick, hang := testprog.Environ("exit-with"), testprog.Environ("hang")
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		hangers []*winproc.Process
		eofs    = make(chan error, n)
	)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, w, err := os.Pipe()
			if err != nil {
				eofs <- err
				return
			}
			env, line := quick, quickLine
			if i%10 == 0 {
				env, line = hang, hangLine
			}
			p, err := winproc.Start(&winproc.Attr{Path: exe, CommandLine: line, Env: env, Stdout: w, Stderr: w})
			w.Close()
			if err != nil {
				r.Close()
				eofs <- err
				return
			}
			if i%10 == 0 {
				mu.Lock()
				hangers = append(hangers, p)
				mu.Unlock()
				r.Close()
				return
			}
			_, err = io.Copy(io.Discard, r) // returns at EOF
			r.Close()
			if code, werr := p.Wait(); werr != nil || code != 7 {
				t.Errorf("quick helper: exit %d %v", code, werr)
			}
			if cerr := p.Close(); cerr != nil {
				t.Error(cerr)
			}
			eofs <- err
		}()
	}
	deadline := time.After(2 * time.Minute)
	for range n - (n+9)/10 {
		select {
		case err := <-eofs:
			if err != nil {
				t.Error(err)
			}
		case <-deadline:
			t.Fatal("a quick helper's pipe never reached EOF: a sibling holds its write end")
		}
	}
	wg.Wait()
	for _, p := range hangers {
		if n, _ := p.ActiveProcesses(); n == 0 {
			t.Error("a hanging helper had exited early; the EOF check proved nothing")
		}
		if err := p.Close(); err != nil {
			t.Error(err)
		}
		if alive(p.Pid) {
			t.Errorf("hanging helper %d alive after Close", p.Pid)
		}
	}
}

// 200 concurrent spawns leak no handle: the second round ends with the
// handle count the first one ended with (the first creates the OS threads
// the runtime keeps, and their handles).
func TestConcurrentSpawnsLeakNoHandles(t *testing.T) {
	const n = 200
	spawnRound(t, n)
	before := handleCount(t)
	if before == 0 {
		testprog.SkipUnderWine(t, "GetProcessHandleCount is a stub that reports 0; the EOF isolation of 200 concurrent spawns passed")
	}
	spawnRound(t, n)
	after := handleCount(t)
	t.Logf("handles: %d after the first round, %d after the second", before, after)
	// A leak of one handle per spawn would show as +200.
	if after-before > n/10 {
		t.Errorf("handle count grew by %d over %d spawns", after-before, n)
	}
}
