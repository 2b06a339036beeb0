package tools

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Mode says when a segment runs a built-in tool instead of a program.
type Mode string

const (
	// ModeAuto is ModeMissing on Windows and ModeNever elsewhere: on a
	// POSIX host the real programs are there and win.
	ModeAuto Mode = ""
	// ModeMissing runs a tool when no program of its name is found (and,
	// on Windows, for find and sort shaped as POSIX commands: see
	// WindowsShadowed).
	ModeMissing Mode = "missing"
	// ModeAlways runs the tools whatever is on PATH (tests, and hosts whose
	// tools differ from GNU's).
	ModeAlways Mode = "always"
	// ModeNever never runs them: a program not found is "command not
	// found", as in bash.
	ModeNever Mode = "never"
)

// ParseMode reads "always", "missing", "never" or "" (auto).
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(s)); m {
	case ModeAuto, ModeMissing, ModeAlways, ModeNever:
		return m, nil
	}
	return "", fmt.Errorf("built-in tools mode %q: want always, missing or never", s)
}

// For resolves ModeAuto for the host.
func (m Mode) For(windows bool) Mode {
	if m != ModeAuto {
		return m
	}
	if windows {
		return ModeMissing
	}
	return ModeNever
}

// WindowsShadowed reports whether, on Windows, a program found at path for
// the command args is Windows' own find.exe or sort.exe while args are
// written for the POSIX one: then the built-in tool runs instead.
// systemRoot is %SystemRoot%.
//
// Windows' find searches its input for a quoted string (find "x", find /i
// "x" file) and its sort takes /R, /+n options; GNU find takes paths and
// an expression of -predicates, GNU sort -options. So find is POSIX when
// it has no arguments, or one starts with "-", or its first names the
// current or parent directory or ends with a slash (find ., find src/);
// sort is POSIX unless an argument is one of sort.exe's /options. A find
// or sort found outside the Windows directory (Git for Windows' GNU ones)
// runs as found.
func WindowsShadowed(path, systemRoot string, args []string) bool {
	if systemRoot == "" || !strings.HasPrefix(strings.ToLower(filepath.Clean(path)), strings.ToLower(filepath.Clean(systemRoot))+`\`) {
		return false
	}
	name := strings.ToLower(strings.TrimSuffix(filepath.Base(strings.ReplaceAll(path, `\`, "/")), filepath.Ext(path)))
	switch name {
	case "find":
		return posixFind(args[1:])
	case "sort":
		for _, a := range args[1:] {
			if isSortExeOption(a) {
				return false
			}
		}
		return true
	}
	return false
}

func posixFind(args []string) bool {
	if len(args) == 0 {
		return true
	}
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			return true
		}
	}
	a := args[0]
	return a == "." || a == ".." || strings.HasSuffix(a, "/") || strings.HasPrefix(a, "./")
}

// isSortExeOption reports one of sort.exe's options: /R, /+n, /L locale,
// /M kb, /REC n, /T dir, /O file, /UNIQUE, /C (case-insensitive).
func isSortExeOption(a string) bool {
	if len(a) < 2 || a[0] != '/' {
		return false
	}
	u := strings.ToUpper(a[1:])
	if u[0] == '+' {
		return len(u) > 1 && strings.Trim(u[1:], "0123456789") == ""
	}
	switch u {
	case "R", "REVERSE", "L", "LOCALE", "M", "MEMORY", "REC", "RECORD_MAXIMUM", "T", "TEMPORARY", "O", "OUTPUT",
		"UNIQUE", "C", "CASE_SENSITIVE":
		return true
	}
	return false
}

// CmdShadowed reports whether a command that resolved to one of cmd.exe's
// built-ins is the POSIX tool of the same name: mkdir and rmdir are both,
// and cmd's mkdir -p build would make a directory named -p. The built-in
// tool runs unless an argument is one of cmd's /options (rmdir /s /q).
func CmdShadowed(args []string) bool {
	if n := strings.ToLower(args[0]); n != "mkdir" && n != "rmdir" {
		return false
	}
	for _, a := range args[1:] {
		if len(a) == 2 && a[0] == '/' {
			return false
		}
	}
	return true
}
