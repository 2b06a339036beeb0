//go:build windows

package engine

// killUpstreamOnDownstreamExit is true on Windows: a pipe has no SIGPIPE,
// so a producer that ignores ERROR_NO_DATA (232) after its consumer exits
// would run forever. Once the downstream stage has exited, the upstream
// stage gets the grace period, then its job is terminated.
const killUpstreamOnDownstreamExit = true
