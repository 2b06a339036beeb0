package engine

import (
	"io"
	"os"
	"sync"
	"time"
)

// openStreams prepares the chain's stdout and stderr sinks and its stdin,
// and, for an interactive chain, finds the terminal its pipelines are
// handed.
func (r *runner) openStreams() error {
	if err := r.openSinks(); err != nil {
		return err
	}
	if err := r.openStdin(); err != nil {
		return err
	}
	if r.opts.Interactive {
		r.ttyFd = r.host.terminal(r.stdin)
	}
	return nil
}

// openSinks makes the stdout and stderr sinks. One live writer that is not
// a file serving both streams is locked, since two drains write to it at
// once; with Combined both streams share one sink, in arrival order.
func (r *runner) openSinks() error {
	capture := !r.opts.NoCapture
	liveOut, liveErr := r.opts.Stdout, r.opts.Stderr
	if liveOut != nil && liveOut == liveErr {
		if _, isFile := liveOut.(*os.File); !isFile {
			lw := lockedWriter{mu: new(sync.Mutex), w: liveOut}
			liveOut, liveErr = lw, lw
		}
	}
	var err error
	if r.out, err = newSink(capture, r.opts.MaxOutput, liveOut); err != nil {
		return err
	}
	if r.opts.Combined {
		r.errs = r.out
	} else if r.errs, err = newSink(capture, r.opts.MaxOutput, liveErr); err != nil {
		return err
	}
	return nil
}

// openStdin gives the chain its stdin: the null device when there is none
// (EOF at once, never chainrun's own stdin), a file as it is, and any other
// reader through a pipe a goroutine feeds, since children need a file.
func (r *runner) openStdin() error {
	switch in := r.opts.Stdin.(type) {
	case nil:
		f, err := os.Open(os.DevNull)
		if err != nil {
			return err
		}
		r.stdin, r.ownStdin = f, true
	case *os.File:
		r.stdin = in
	default:
		pr, pw, err := os.Pipe()
		if err != nil {
			return err
		}
		r.stdin, r.ownStdin, r.stdinW = pr, true, pw
		r.stdinDone = make(chan struct{})
		go func() {
			defer close(r.stdinDone)
			io.Copy(pw, in)
			pw.Close()
		}()
	}
	return nil
}

// closeStreams ends the output drains and the stdin feeder, waiting at
// most the grace period for each, so that a writer left running cannot
// keep Run from returning.
func (r *runner) closeStreams() {
	wait := r.opts.Grace
	if r.out != nil {
		r.out.close(wait)
	}
	if r.errs != nil && r.errs != r.out {
		r.errs.close(wait)
	}
	if r.ownStdin && r.stdin != nil {
		r.stdin.Close() // a feeder blocked writing gets EPIPE
	}
	if r.stdinDone != nil {
		t := time.NewTimer(wait)
		select {
		case <-r.stdinDone:
		case <-t.C:
			// The caller's reader is blocked in Read; it alone keeps the
			// feeder alive, and the feeder ends when that Read returns.
		}
		t.Stop()
	}
}
