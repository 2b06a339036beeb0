//go:build !windows

package winconsole

// Snapshot returns an empty Console: only Windows has code pages.
func Snapshot() Console { return Console{} }

// EnableUTF8 does nothing outside Windows.
func EnableUTF8() (restore func(), err error) { return func() {}, nil }

// Preserve does nothing outside Windows.
func Preserve() (restore func()) { return func() {} }
