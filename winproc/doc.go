// Package winproc is chainrun's Windows process layer: everything needed
// to start a resolved program as Windows requires.
//
// The recipe is pure Go, tested on every OS: CommandLine picks the image
// and builds the command line for each kind package resolve classifies
// (native programs quoted for their C runtime, batch files and cmd.exe
// built-ins through the system's cmd.exe with quoting cmd cannot
// misread, .ps1 scripts through Windows PowerShell with -File, and
// PowerShell -Command given a UTF-8 prelude), and Check applies the same
// refusals without building anything, so a runner can refuse a chain
// before any of it starts.
//
// On Windows it creates processes inside kill-on-close job objects, stops
// them with Ctrl+Break and ends whole trees, builds environment blocks,
// and peeks at pipes. It is also where chainrun declares the kernel32
// functions golang.org/x/sys/windows lacks (GetOEMCP, IsValidCodePage,
// IsDBCSLeadByteEx, PeekNamedPipe, GetConsoleWindow), so each is declared
// once.
package winproc
