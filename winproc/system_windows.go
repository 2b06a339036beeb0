package winproc

import (
	"fmt"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// systemProgram is GetSystemDirectory()\name: batch files, built-ins and
// scripts run through the system's own interpreters, never through
// %COMSPEC% or a PATH lookup, which the chain's environment controls.
func systemProgram(name string) (string, error) {
	dir, err := windows.GetSystemDirectory()
	if err != nil {
		return "", fmt.Errorf("GetSystemDirectory: %w", err)
	}
	return filepath.Join(dir, name), nil
}
