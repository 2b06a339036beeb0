//go:build unix && !linux

package posix

// EnableSubreaper reports false: only Linux has child subreapers.
func EnableSubreaper() bool { return false }

// Sweep sends SIGKILL to each of a finished chain's process groups, to end
// members left behind; processes that left their group cannot be found
// without a subreaper.
func Sweep(groups []int) int {
	defer forgetGroups(groups)
	for _, g := range groups {
		KillGroup(g)
	}
	return 0
}
