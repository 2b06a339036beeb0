//go:build !windows

package testprog

// exitCode returns code as the exit status; the system keeps its low 8
// bits.
func exitCode(code int64) int { return int(code) }
