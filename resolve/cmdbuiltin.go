package resolve

import "strings"

// IsCmdBuiltin reports whether name (any case, no path, no extension) is
// an internal command of cmd.exe such as dir, type, copy or mklink: they
// have no file on disk, so only cmd.exe can run them.
func IsCmdBuiltin(name string) bool {
	switch strings.ToLower(name) {
	case "assoc", "break", "call", "cd", "chdir", "cls", "color", "copy", "date", "del", "dir", "dpath",
		"echo", "endlocal", "erase", "exit", "for", "ftype", "goto", "if", "keys", "md", "mkdir", "mklink",
		"move", "path", "pause", "popd", "prompt", "pushd", "rd", "rem", "ren", "rename", "rmdir", "set",
		"setlocal", "shift", "start", "time", "title", "type", "ver", "verify", "vol":
		return true
	}
	return false
}

// cmdRefusedReason returns why chainrun will not run the cmd built-in
// name (lower case) through cmd.exe, or "". Each segment runs in its own
// throw-away `cmd.exe /c`, so built-ins that change cmd's own state or
// steer a batch script do nothing useful, and some would escape what
// chainrun checks and stops.
func cmdRefusedReason(name string) string {
	const throwAway = "would change the directory of a throw-away cmd.exe only; use cd"
	switch name {
	case "call":
		return "runs another program inside cmd.exe, out of chainrun's checks; name the program directly"
	case "for":
		return "runs commands inside cmd.exe that chainrun cannot check"
	case "if":
		return "runs commands inside cmd.exe that chainrun cannot check; use && and ||"
	case "goto", "shift", "setlocal", "endlocal":
		return "only means something inside a batch file"
	case "set":
		return "would change the environment of a throw-away cmd.exe only; use a NAME=value prefix"
	case "path":
		return "would change PATH of a throw-away cmd.exe only; use a PATH=… prefix"
	case "dpath":
		return "would change the data path of a throw-away cmd.exe only"
	case "prompt":
		return "would change the prompt of a throw-away cmd.exe only"
	case "chdir", "pushd", "popd", "cd":
		return throwAway
	case "exit":
		return "would end a throw-away cmd.exe only; use exit"
	case "start":
		return "starts a program outside the segment's job, which chainrun could neither wait for nor stop"
	case "pause":
		return "waits for a key press"
	case "title":
		return "changes the title of the console chainrun shares with the user"
	case "color":
		return "changes the colours of the console chainrun shares with the user"
	}
	return ""
}

// CmdBuiltinRefused reports whether chainrun refuses to run the cmd
// built-in name, and why. Refused are the built-ins that steer a batch
// script or change cmd.exe's own state (call for if goto shift setlocal
// endlocal set path dpath prompt cd chdir pushd popd exit), start (its
// program would escape the segment's job), pause (waits for a key) and
// title and color (they change the shared console). chainrun's own
// built-ins (cd, echo, exit, …) are handled before any lookup, so the cmd
// versions of those names are only reached through Find directly.
func CmdBuiltinRefused(name string) (reason string, refused bool) {
	reason = cmdRefusedReason(strings.ToLower(name))
	return reason, reason != ""
}
