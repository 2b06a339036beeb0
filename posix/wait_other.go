//go:build unix && !linux && !darwin

package posix

// waitNoReap is not available here; Wait reaps directly.
func waitNoReap(pid int) {}
