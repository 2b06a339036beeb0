package resolve

import "strings"

// Classify says how Windows must run the file at path, from its extension
// alone (the file is never opened). Like Windows, it ignores trailing dots
// and spaces and compares case-insensitively, so "x.BAT. ." is a batch
// file: a check on the raw suffix would let such a name reach
// CreateProcess, which runs it through cmd.exe with unsafe quoting.
//
//	.exe .com  → Native
//	.bat .cmd  → Batch (cmd.exe with chainrun's batch quoting)
//	.ps1       → PowerShell (powershell.exe -File)
//	otherwise  → an *Error wrapping ErrNotExecutable (status 126)
//
// Windows Script Host files (.js .jse .vbs .vbe .wsf .wsh) are not run:
// cmd.exe would hand them, like any other document, to ShellExecute.
func Classify(path string) (Kind, error) {
	switch ext := winExt(path); ext {
	case ".exe", ".com":
		return Native, nil
	case ".bat", ".cmd":
		return Batch, nil
	case ".ps1":
		return PowerShell, nil
	case ".js", ".jse", ".vbs", ".vbe", ".wsf", ".wsh":
		return "", &Error{Name: path, Err: ErrNotExecutable,
			Hint: "a Windows Script Host file; run it as cscript //NoLogo " + winBase(trimDotsSpaces(path))}
	case "":
		return "", &Error{Name: path, Err: ErrNotExecutable,
			Hint: "a file without extension; chainrun runs .exe, .com, .bat, .cmd and .ps1 files"}
	default:
		return "", &Error{Name: path, Err: ErrNotExecutable,
			Hint: "a " + strings.TrimPrefix(ext, ".") + " file; chainrun runs .exe, .com, .bat, .cmd and .ps1 files"}
	}
}
