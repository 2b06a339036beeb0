package engine

import (
	"context"
	"sync"
	"testing"
)

// TestConcurrentPrintf: chains running at once in one process (an MCP
// server's calls) each get their own printf output. The formatting
// library shares one buffer between callers that pass it no config, so
// this failed under -race, and could mix the outputs.
func TestConcurrentPrintf(t *testing.T) {
	const n = 8
	var wg sync.WaitGroup
	errs := make(chan string, n)
	for i := range n {
		wg.Go(func() {
			arg := string(rune('a' + i))
			for range 20 {
				res, err := RunString(context.Background(), "printf '%5s|%3d|%x\\n' "+arg+" 7 255", Options{})
				if err != nil {
					errs <- err.Error()
					return
				}
				if want := "    " + arg + "|  7|ff\n"; string(res.Stdout) != want {
					errs <- "got " + string(res.Stdout) + ", want " + want
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
