package engine

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"
)

// watch stops the chain on timeout or cancel, and forwards signals. The
// polite stop comes first (Interrupt, or the forwarded signal itself);
// what is still running a grace period later is killed, so a program that
// ignores SIGTERM, SIGINT, SIGHUP or Ctrl+Break cannot keep Run (or the
// chainrun that forwarded the signal) from returning.
func (r *runner) watch(done <-chan struct{}) {
	var timeout <-chan time.Time
	if r.opts.Timeout > 0 {
		t := time.NewTimer(r.opts.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-done:
		return
	case sig := <-r.opts.Signals:
		r.forward(sig)
	case <-timeout:
		r.stop(true)
	case <-r.ctx.Done():
		r.stop(errors.Is(r.ctx.Err(), context.DeadlineExceeded))
	}
	grace := time.NewTimer(r.opts.Grace)
	defer grace.Stop()
	for {
		select {
		case <-done:
			return
		case sig := <-r.opts.Signals:
			r.forward(sig)
		case <-grace.C:
			r.killAll()
		}
	}
}

// stop interrupts every running process and lets no new one start.
func (r *runner) stop(timedOut bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopping = true
	if timedOut {
		r.timedOut = true
	} else {
		r.canceled = true
	}
	for _, s := range r.live {
		s.signaled = true
		s.proc.Interrupt()
	}
	if r.stdinW != nil {
		r.stdinW.Close() // a read built-in waiting on the fed stdin ends too
	}
}

// killAll ends every running process tree at once, after the grace period.
func (r *runner) killAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.live {
		s.signaled = true
		s.proc.Kill()
	}
}

// forward passes a signal the caller received to every running group; the
// chain then starts nothing new, as a shell stops a script on Ctrl+C.
func (r *runner) forward(sig os.Signal) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopping = true
	if len(r.live) == 0 {
		// Between processes: the chain ends as a shell killed by it would.
		r.sigStatus = signalStatus(sig)
	}
	for _, s := range r.live {
		s.signaled = true
		s.proc.Signal(sig)
	}
}

// signalStatus is the status of a process a signal ended: 128+N.
func signalStatus(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 130
}

// isStopping reports whether a stop or a forwarded signal has ruled out
// starting anything more.
func (r *runner) isStopping() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stopping
}

// endChain ends whatever the chain left behind: members of its groups
// and, on Linux, descendants that escaped them, so that nothing the chain
// started outlives Run.
func (r *runner) endChain() {
	r.mu.Lock()
	groups := r.groups
	r.mu.Unlock()
	r.host.sweep(groups)
}
