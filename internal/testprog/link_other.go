//go:build !windows

package testprog

import "os"

// exeSuffix is what a program's file name needs to be found and started.
const exeSuffix = ""

// link makes path a symbolic link to the test binary: it costs nothing,
// and a process started through it has the link's name as argv0.
func link(exe, path string) error { return os.Symlink(exe, path) }
