//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package posix

import "golang.org/x/sys/unix"

const ioctlGetTermios = unix.TIOCGETA
