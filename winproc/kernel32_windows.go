package winproc

import (
	"unsafe"

	"golang.org/x/sys/windows"
)

// kernel32 holds the few kernel32 functions golang.org/x/sys/windows does
// not wrap (as of v0.49.0). They are declared here and nowhere else in
// chainrun: winconsole and engine call the wrappers below.
var (
	kernel32             = windows.NewLazySystemDLL("kernel32.dll")
	procGetConsoleWindow = kernel32.NewProc("GetConsoleWindow")
	procGetOEMCP         = kernel32.NewProc("GetOEMCP")
	procIsDBCSLeadByteEx = kernel32.NewProc("IsDBCSLeadByteEx")
	procIsValidCodePage  = kernel32.NewProc("IsValidCodePage")
	procPeekNamedPipe    = kernel32.NewProc("PeekNamedPipe")
)

// GetOEMCP returns the OEM code page (437, 850, 866, …), the one a console
// starts with.
func GetOEMCP() uint32 {
	r, _, _ := procGetOEMCP.Call()
	return uint32(r)
}

// IsValidCodePage reports whether the system can convert code page
// codePage with MultiByteToWideChar.
func IsValidCodePage(codePage uint32) bool {
	r, _, _ := procIsValidCodePage.Call(uintptr(codePage))
	return r != 0
}

// IsDBCSLeadByteEx reports whether testChar starts a double-byte
// character in code page codePage.
func IsDBCSLeadByteEx(codePage uint32, testChar byte) bool {
	r, _, _ := procIsDBCSLeadByteEx.Call(uintptr(codePage), uintptr(testChar))
	return r != 0
}

// peekNamedPipe is PeekNamedPipe asking only for lpTotalBytesAvail: it
// neither reads nor blocks.
func peekNamedPipe(pipe windows.Handle, totalBytesAvail *uint32) error {
	r, _, err := procPeekNamedPipe.Call(uintptr(pipe), 0, 0, 0, uintptr(unsafe.Pointer(totalBytesAvail)), 0)
	if r == 0 {
		return err
	}
	return nil
}
