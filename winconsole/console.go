package winconsole

// Console is the code-page state of the process, taken by Snapshot.
type Console struct {
	ACP      uint32 // the "ANSI" code page (GetACP): 1252, 932, 936, …
	OEMCP    uint32 // the OEM code page (GetOEMCP): 437, 850, 866, …
	InputCP  uint32 // the console's input code page, 0 without a console
	OutputCP uint32 // the console's output code page, 0 without a console
	// HasConsole reports whether the process is attached to a console.
	HasConsole bool
}

// FallbackFor picks the code page for output lines that are not UTF-8,
// from a snapshot taken before the segment started:
//
//   - the console's output code page, which cmd.exe and console programs
//     write in;
//   - when that is UTF-8 (65001, e.g. set by EnableUTF8), the ANSI code
//     page: the writers left that do not produce UTF-8 are ANSI ones;
//   - without a console, the OEM code page, the console's default.
//
// It returns nil when the choice is UTF-8 itself or unknown, so invalid
// bytes become U+FFFD.
func FallbackFor(c Console) CodePage {
	var cp uint32
	switch {
	case c.HasConsole && c.OutputCP != 0 && c.OutputCP != 65001:
		cp = c.OutputCP
	case c.HasConsole && c.OutputCP == 65001:
		cp = c.ACP
		if cp == 65001 {
			cp = c.OEMCP
		}
	default:
		cp = c.OEMCP
	}
	if cp == 0 || cp == 65001 {
		return nil
	}
	return CodePageByNumber(int(cp))
}
