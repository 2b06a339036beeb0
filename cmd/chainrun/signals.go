package main

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/chainrun/chainrun/engine"
)

// forwardedSignals are relayed to the chain rather than ending chainrun,
// so the chain is stopped the way Run stops it and its status reported.
var forwardedSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// signalRelay forwards chainrun's SIGINT, SIGTERM and SIGHUP to the
// running chain.
type signalRelay struct {
	ch   chan os.Signal
	done chan struct{}
	wg   sync.WaitGroup

	mu  sync.Mutex
	got os.Signal
}

// forwardSignals starts relaying signals for one Run: it cancels ctx on
// the first one, which stops the whole chain (polite signal, grace, kill).
func forwardSignals(opts *engine.Options, cancel context.CancelFunc) *signalRelay {
	r := &signalRelay{ch: make(chan os.Signal, 4), done: make(chan struct{})}
	signal.Notify(r.ch, forwardedSignals...)
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		select {
		case s := <-r.ch:
			r.mu.Lock()
			r.got = s
			r.mu.Unlock()
			cancel()
		case <-r.done:
		}
	}()
	return r
}

// stop ends the relay; signals arriving later act as usual.
func (r *signalRelay) stop() {
	signal.Stop(r.ch)
	close(r.done)
	r.wg.Wait()
}

// received returns the number of the signal that was relayed, if any.
func (r *signalRelay) received() (int, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.got.(syscall.Signal); ok {
		return int(s), true
	}
	return 0, false
}
