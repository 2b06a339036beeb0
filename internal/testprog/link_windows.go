package testprog

import (
	"io"
	"os"
)

// exeSuffix is what a program's file name needs to be found and started.
const exeSuffix = ".exe"

// link copies the test binary to path. A symbolic link needs a privilege
// most accounts lack, and a hard link to the running test binary cannot be
// deleted while it runs, which is when Main removes BinDir.
func link(exe, path string) error {
	src, err := os.Open(exe)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	_, err = io.Copy(dst, src)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	return err
}
