//go:build unix

package mcpserver

import (
	"errors"
	"syscall"
)

// alive reports whether a process with this pid exists (a zombie that no
// one reaped counts as gone: it runs nothing).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	return !zombie(pid)
}
