package main

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/chainrun/chainrun/engine"
)

// forwardedSignals are relayed to the chain rather than ending chainrun:
// the chain's processes get them, as they would in a shell's foreground
// job, and chainrun exits with the status the chain then ends with.
var forwardedSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// forwardSignals hands chainrun's SIGINT, SIGTERM and SIGHUP to Run for
// the time of one run; the returned function restores their usual effect.
func forwardSignals(opts *engine.Options) (stop func()) {
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, forwardedSignals...)
	opts.Signals = ch
	return func() { signal.Stop(ch) }
}
