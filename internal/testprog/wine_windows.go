package testprog

import (
	"unsafe"

	"golang.org/x/sys/windows"
)

// wineVersion is Wine's version when the test runs under Wine, whose
// ntdll exports wine_get_version, and "" on Windows itself.
var wineVersion = func() string {
	p := windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version")
	if p.Find() != nil {
		return ""
	}
	r, _, _ := p.Call()
	if r == 0 {
		return "?"
	}
	// A pointer to a static string in ntdll.
	return windows.BytePtrToString(*(**byte)(unsafe.Pointer(&r)))
}()
