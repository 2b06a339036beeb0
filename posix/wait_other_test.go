//go:build unix && !linux

package posix

func pidfdSupported() bool { return false }
