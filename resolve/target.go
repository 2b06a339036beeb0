// Package resolve finds the program a segment names, with the chain's own
// environment, and classifies how it must be run.
//
// # Security
//
// A bare name is never looked up in the current directory, on any OS: a
// program that is found only there, or only through a relative PATH entry,
// is an ErrDot error that suggests writing ./name (.\name on Windows).
// On Windows the Kind decides which interpreter runs the file, so
// classification follows the path as Windows itself reads it (trailing
// dots and spaces ignored, extensions compared case-insensitively): a
// batch file always comes back as Batch and never reaches CreateProcess
// directly. cmd.exe built-ins come back as CmdBuiltin; callers refuse the
// ones CmdBuiltinRefused names before anything runs.
package resolve

// Kind says how a resolved program is run.
type Kind string

const (
	Native     Kind = "native"      // an executable the OS runs directly
	Batch      Kind = "batch"       // a .bat/.cmd file, run through cmd.exe /c
	PowerShell Kind = "powershell"  // a .ps1 file, run through powershell.exe -File
	CmdBuiltin Kind = "cmd-builtin" // a cmd.exe internal command (dir, type, …); see CmdBuiltinRefused
)

// Target is a resolved program.
type Target struct {
	// Path is the absolute path of the program; for CmdBuiltin the
	// built-in's name as cmd.exe knows it, in lower case.
	Path string
	Kind Kind
}
