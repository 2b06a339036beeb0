//go:build unix

package policy

import "syscall"

// lstatLink reports whether path exists (without following a final
// symlink) and whether it is a symlink. It asks the OS directly rather
// than through os.Lstat, which builds a FileInfo the path walk never reads:
// resolveFrom asks this for every element of every path it resolves, on
// every call.
func lstatLink(path string) (exists, link bool) {
	var st syscall.Stat_t
	for {
		err := syscall.Lstat(path, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return false, false
		}
		return true, st.Mode&syscall.S_IFMT == syscall.S_IFLNK
	}
}

// soleName reports whether path is a regular file with no other name (one
// hard link), so that what is written to it lands in no other file.
func soleName(path string) bool {
	var st syscall.Stat_t
	for {
		err := syscall.Lstat(path, &st)
		if err == syscall.EINTR {
			continue
		}
		return err == nil && st.Mode&syscall.S_IFMT == syscall.S_IFREG && st.Nlink == 1
	}
}
