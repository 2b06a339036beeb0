package policy

import (
	"os"
	"path/filepath"
)

// Which repository git finds from a directory. git obeys the configuration
// of the repository it finds walking up from its directory (core.fsmonitor,
// core.hooksPath, aliases run programs), so git after a change of directory
// asks only when the new directory belongs to another repository than the
// one the chain started in: a nested repository with its own .git, a bare
// repository, a worktree or submodule with a .git file of its own. A
// subdirectory of the same repository obeys the same configuration.

// repoOf is the repository git finds from dir (absolute, resolved): the
// first .git (a directory or a file) or bare repository met walking up,
// as its path; "" when there is none.
func repoOf(dir string) string {
	for d := filepath.Clean(dir); ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return filepath.Join(d, ".git")
		}
		if isBareRepo(d) {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// isBareRepo reports a directory git takes for a repository itself: a
// HEAD file beside objects and refs directories.
func isBareRepo(d string) bool {
	if fi, err := os.Stat(filepath.Join(d, "HEAD")); err != nil || fi.IsDir() {
		return false
	}
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(d, sub)); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// otherRepo says why git in dir obeys another repository's configuration
// than git in from (both resolved), or "" when it finds the same one.
func otherRepo(from, dir string) string {
	r := repoOf(dir)
	if r == repoOf(from) {
		return ""
	}
	if r == "" {
		return "it is in no repository"
	}
	return "it belongs to the repository " + r
}
