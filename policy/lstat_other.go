//go:build !unix

package policy

import "os"

// lstatLink reports whether path exists (without following a final
// symlink) and whether a path is redirected through it (isLink: on
// Windows junctions and mount points too).
func lstatLink(path string) (exists, link bool) {
	fi, err := os.Lstat(path)
	if err != nil {
		return false, false
	}
	return true, isLink(fi.Mode())
}

// soleName reports whether path is a regular file with no other name.
// The link count is not read here, so no file is known to have none.
func soleName(string) bool { return false }
