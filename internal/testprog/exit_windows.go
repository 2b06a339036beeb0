package testprog

import "golang.org/x/sys/windows"

// exitCode ends the process with code as its 32-bit Windows exit code.
// The tests compare raw codes such as 0xC0000005 (3221225477), so the code
// goes to ExitProcess as the uint32 they asked for, not through os.Exit's
// int, which the runtime narrows to int32 on its way to the same call.
func exitCode(code int64) int {
	windows.ExitProcess(uint32(code))
	panic("ExitProcess returned")
}
