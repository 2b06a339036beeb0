//go:build windows

package builtin

import (
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"
)

// fileAccess applies -r, -w, -x, -O, -G and -N as far as Windows has them:
// a file that exists is readable and owned, writable unless read-only,
// executable when it is a directory or its extension is in PATHEXT; no
// file counts as modified since it was last read.
func fileAccess(op byte, path string, fi os.FileInfo) bool {
	switch op {
	case 'r', 'O', 'G':
		return true
	case 'w':
		return fi.Mode().Perm()&0o200 != 0
	case 'x':
		if fi.IsDir() {
			return true
		}
		ext := strings.ToUpper(filepath.Ext(path))
		exts := os.Getenv("PATHEXT")
		if exts == "" {
			exts = ".COM;.EXE;.BAT;.CMD"
		}
		for _, e := range strings.Split(strings.ToUpper(exts), ";") {
			if e != "" && e == ext {
				return true
			}
		}
	}
	return false
}

// isTerminal reports whether f is a console (-t).
func isTerminal(f *os.File) bool {
	var mode uint32
	return windows.GetConsoleMode(windows.Handle(f.Fd()), &mode) == nil
}
