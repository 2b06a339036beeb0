//go:build !windows

package winproc

// defaultSystemDir is the system directory of a default Windows
// installation.
const defaultSystemDir = `C:\Windows\System32`

// systemProgram names name in a default installation's system directory:
// there is none to ask outside Windows, and this way CommandLine builds,
// and its tests check, on every OS the line Windows would run.
func systemProgram(name string) (string, error) {
	return defaultSystemDir + `\` + name, nil
}
