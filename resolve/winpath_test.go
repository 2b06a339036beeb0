package resolve

import "testing"

func TestWinPath(t *testing.T) {
	for _, tt := range []struct{ in, clean string }{
		{`C:\a\b`, `C:\a\b`}, {`C:/a/b/`, `C:\a\b`}, {`C:\a\..\..\b`, `C:\b`}, {`C:\a\.\b`, `C:\a\b`},
		{`c:a\..\b`, `c:b`}, {`\a\\b`, `\a\b`}, {`a\..\..\b`, `..\b`}, {`\\srv\share\x\..\y`, `\\srv\share\y`},
		{`//srv/share`, `\\srv\share`}, {`\\?\C:\a\..\b`, `\\?\C:\a\..\b`}, {``, `.`}, {`C:`, `C:`},
	} {
		if got := winClean(tt.in); got != tt.clean {
			t.Errorf("winClean(%q) = %q; want %q", tt.in, got, tt.clean)
		}
	}
	for p, abs := range map[string]bool{`C:\a`: true, `C:/a`: true, `\\srv\share\a`: true, `\\?\C:\a`: true,
		`C:a`: false, `\a`: false, `a`: false, `.\a`: false, ``: false, `C:`: false} {
		if winIsAbs(p) != abs {
			t.Errorf("winIsAbs(%q) = %v", p, !abs)
		}
	}
	for in, want := range map[string]string{`a.bat. .`: `a.bat`, `C:\x\a.cmd...`: `C:\x\a.cmd`, `...`: `...`,
		`C:\x.\a`: `C:\x.\a`, `\\?\C:\a.bat.`: `\\?\C:\a.bat.`} {
		if got := trimDotsSpaces(in); got != want {
			t.Errorf("trimDotsSpaces(%q) = %q; want %q", in, got, want)
		}
	}
}
