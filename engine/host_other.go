//go:build !windows

package engine

// killUpstreamOnDownstreamExit: on POSIX a writer whose reader is gone gets
// SIGPIPE, so upstream stages end by themselves.
const killUpstreamOnDownstreamExit = false
