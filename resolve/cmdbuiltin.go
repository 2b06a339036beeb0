package resolve

import (
	"strings"
	"sync"
)

// cmdBuiltins are cmd.exe's internal commands: they have no file on disk,
// so only cmd.exe can run them. Built on first use, as only Windows
// lookups ask.
var cmdBuiltins = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`assoc break call cd chdir cls color copy date del dir dpath echo
		endlocal erase exit for ftype goto if keys md mkdir mklink move path pause popd prompt pushd rd
		rem ren rename rmdir set setlocal shift start time title type ver verify vol`) {
		m[n] = true
	}
	return m
})

// cmdRefused maps the built-ins chainrun will not run through cmd.exe to
// the reason. Each segment runs in its own throw-away `cmd.exe /c`, so
// built-ins that change cmd's own state or steer a batch script do
// nothing useful, and some would escape what chainrun checks and stops.
var cmdRefused = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"call":     "runs another program inside cmd.exe, out of chainrun's checks; name the program directly",
		"for":      "runs commands inside cmd.exe that chainrun cannot check",
		"if":       "runs commands inside cmd.exe that chainrun cannot check; use && and ||",
		"goto":     "only means something inside a batch file",
		"shift":    "only means something inside a batch file",
		"setlocal": "only means something inside a batch file",
		"endlocal": "only means something inside a batch file",
		"set":      "would change the environment of a throw-away cmd.exe only; use a NAME=value prefix",
		"path":     "would change PATH of a throw-away cmd.exe only; use a PATH=… prefix",
		"dpath":    "would change the data path of a throw-away cmd.exe only",
		"prompt":   "would change the prompt of a throw-away cmd.exe only",
		"chdir":    "would change the directory of a throw-away cmd.exe only; use cd",
		"pushd":    "would change the directory of a throw-away cmd.exe only; use cd",
		"popd":     "would change the directory of a throw-away cmd.exe only; use cd",
		"cd":       "would change the directory of a throw-away cmd.exe only; use cd",
		"exit":     "would end a throw-away cmd.exe only; use exit",
		"start":    "starts a program outside the segment's job, which chainrun could neither wait for nor stop",
		"pause":    "waits for a key press",
		"title":    "changes the title of the console chainrun shares with the user",
		"color":    "changes the colours of the console chainrun shares with the user",
	}
})

// IsCmdBuiltin reports whether name (any case, no path, no extension) is
// an internal command of cmd.exe such as dir, type, copy or mklink.
func IsCmdBuiltin(name string) bool { return cmdBuiltins()[strings.ToLower(name)] }

// CmdBuiltinRefused reports whether chainrun refuses to run the cmd
// built-in name, and why. Refused are the built-ins that steer a batch
// script or change cmd.exe's own state (call for if goto shift setlocal
// endlocal set path dpath prompt cd chdir pushd popd exit), start (its
// program would escape the segment's job), pause (waits for a key) and
// title and color (they change the shared console). chainrun's own
// built-ins (cd, echo, exit, …) are handled before any lookup, so the cmd
// versions of those names are only reached through Find directly.
func CmdBuiltinRefused(name string) (reason string, refused bool) {
	reason, refused = cmdRefused()[strings.ToLower(name)]
	return reason, refused
}
