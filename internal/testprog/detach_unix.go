//go:build unix

package testprog

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

func init() { Register("detached-write", detachedWrite) }

// detachedWrite PATH has a child start write-file PATH in a new session
// (setsid) and exit at once (a double fork): a descendant that left its
// parent's session and process tree, as a daemon does. It waits for the
// grandchild by reading the pipe it holds until its end closes, and exits
// 0; the test looks at PATH.
func detachedWrite(args []string) int {
	if len(args) > 1 && args[1] == "--child" {
		c := Command("write-file", args[0])
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		c.Stdout, c.Stderr = os.Stdout, os.Stderr
		if err := c.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 3
		}
		return 0
	}
	r, w, err := os.Pipe()
	if err != nil {
		return 3
	}
	c := Command("detached-write", args[0], "--child")
	c.Stdout, c.Stderr = w, os.Stderr
	err = c.Run()
	w.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	io.Copy(io.Discard, r) // EOF once the grandchild has ended
	return 0
}
