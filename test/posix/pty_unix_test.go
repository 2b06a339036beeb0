//go:build unix

package posix_test

import (
	"context"
	"fmt"
	"os"

	"golang.org/x/sys/unix"

	"github.com/chainrun/chainrun/engine"
)

// foreground reports whether this process's group is the foreground group
// of the terminal on fd.
func foreground(fd int) bool {
	pgrp, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP)
	return err == nil && pgrp == unix.Getpgrp()
}

func runInteractive(cmd string) int {
	res, err := engine.RunString(context.Background(), cmd, engine.Options{
		Env: os.Environ(), Interactive: true, Stdin: os.Stdin,
		NoCapture: true, Stdout: os.Stdout, Stderr: os.Stderr,
	})
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	return res.ExitCode
}
