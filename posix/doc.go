// Package posix is chainrun's process layer on Linux and macOS: each
// segment in its own session or process group, the stop sequence (SIGTERM,
// grace, SIGKILL to the group), and on Linux a child-subreaper sweep of
// descendants that escaped their group.
package posix
