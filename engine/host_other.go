//go:build !windows

package engine

import "github.com/chainrun/chainrun/chain"

// killUpstreamOnDownstreamExit: on POSIX a writer whose reader is gone gets
// SIGPIPE, so upstream stages end by themselves.
const killUpstreamOnDownstreamExit = false

// checkResolves: outside Windows no program's arguments are re-read by a
// shell, so Check has nothing to resolve.
const checkResolves = false

func checkSegment(*chain.Segment, string, []string) error { return nil }
