//go:build !unix

package policy

import "os"

// lstatLink reports whether path exists (without following a final
// symlink) and whether it is a symlink, as os.Lstat reads it: on Windows
// that includes the reparse points os reports as links.
func lstatLink(path string) (exists, link bool) {
	fi, err := os.Lstat(path)
	if err != nil {
		return false, false
	}
	return true, fi.Mode()&os.ModeSymlink != 0
}
