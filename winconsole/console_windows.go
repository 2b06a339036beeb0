package winconsole

import (
	"github.com/chainrun/chainrun/winproc"
	"golang.org/x/sys/windows"
)

// Snapshot reads the process's code pages. Without a console (stdio
// redirected, a service, CREATE_NO_WINDOW) GetConsoleOutputCP fails and
// InputCP and OutputCP are 0.
func Snapshot() Console {
	c := Console{ACP: windows.GetACP(), OEMCP: winproc.GetOEMCP()}
	out, err := windows.GetConsoleOutputCP()
	if err == nil && out != 0 {
		c.OutputCP, c.HasConsole = out, true
		if in, err := windows.GetConsoleCP(); err == nil {
			c.InputCP = in
		}
	}
	return c
}

// EnableUTF8 sets the console's output code page to UTF-8 (65001), so
// console programs that follow it (cmd built-ins, .NET, PowerShell) write
// UTF-8. The console is shared with the user: call restore when chainrun
// is done. Without a console it does nothing.
func EnableUTF8() (restore func(), err error) {
	old, err := windows.GetConsoleOutputCP()
	if err != nil || old == 0 {
		return func() {}, nil
	}
	if old == 65001 {
		return func() {}, nil
	}
	if err := windows.SetConsoleOutputCP(65001); err != nil {
		return func() {}, err
	}
	return func() { _ = windows.SetConsoleOutputCP(old) }, nil
}

// Preserve records the console's input and output code pages; restore
// sets them back if a child changed them ([Console]::OutputEncoding and
// chcp change the shared console for every later program). Without a
// console it does nothing.
func Preserve() (restore func()) {
	out, err := windows.GetConsoleOutputCP()
	if err != nil || out == 0 {
		return func() {}
	}
	in, inErr := windows.GetConsoleCP()
	return func() {
		if cur, err := windows.GetConsoleOutputCP(); err == nil && cur != out {
			_ = windows.SetConsoleOutputCP(out)
		}
		if inErr == nil && in != 0 {
			if cur, err := windows.GetConsoleCP(); err == nil && cur != in {
				_ = windows.SetConsoleCP(in)
			}
		}
	}
}
