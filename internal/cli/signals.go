package cli

import (
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/chainrun/chainrun/engine"
)

// forwardedSignals are relayed to the chain rather than ending chainrun:
// the chain's processes get them, as they would in a shell's foreground
// job, and chainrun exits with the status the chain then ends with.
var forwardedSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// caughtSignals receives the forwarded signals from the first run on.
// They stay caught until the process exits: signal.Stop, like Notify, is
// a round trip with the runtime's signal-mask thread (0.15 ms of a 2.5 ms
// 'chainrun true', measured side by side), and chainrun exits right after
// its chain anyway.
var caughtSignals = sync.OnceValue(func() chan os.Signal {
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, forwardedSignals...)
	return ch
})

// forwardSignals hands chainrun's SIGINT, SIGTERM and SIGHUP to Run for
// the time of one run. A signal that arrives between two runs (tests call
// Main repeatedly) is dropped here rather than stopping the next chain.
func forwardSignals(opts *engine.Options) {
	ch := caughtSignals()
	for len(ch) > 0 {
		<-ch
	}
	opts.Signals = ch
}

// survivePipe makes a write to a closed stdout or stderr fail with EPIPE
// instead of killing chainrun (Go's default for fds 1 and 2): chainrun
// must live to wait for, stop and account for the chain it started, and to
// exit with a status. A caught signal, unlike an ignored one, is reset to
// the default when a program is started, so the chain's programs still die
// of SIGPIPE as they would under bash.
var survivePipe = sync.OnceFunc(func() {
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
})
