// Package resolve finds the program a segment names, with the chain's own
// environment, and classifies how it must be run.
package resolve

// Kind says how a resolved program is run.
type Kind string

const (
	Native     Kind = "native"      // an executable the OS runs directly
	Batch      Kind = "batch"       // a .bat/.cmd file, run through cmd.exe /c
	PowerShell Kind = "powershell"  // a .ps1 file, run through powershell.exe -File
	CmdBuiltin Kind = "cmd-builtin" // a cmd.exe internal command (dir, type, …)
)

// Target is a resolved program.
type Target struct {
	// Path is the absolute path of the program; for CmdBuiltin the
	// built-in's name as cmd.exe knows it.
	Path string
	Kind Kind
}
