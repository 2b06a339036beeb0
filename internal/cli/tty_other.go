//go:build !unix && !windows

package cli

import "os"

// isTerminal reports false where chainrun cannot ask the OS.
func isTerminal(f *os.File) bool { return false }

// controlsTerminal reports false where chainrun cannot ask the OS.
func controlsTerminal(f *os.File) bool { return false }
