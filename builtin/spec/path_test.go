package spec

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestPathAnchor(t *testing.T) {
	tests := []struct {
		p       string
		windows bool
		want    Anchor
		vol     string
	}{
		{"/etc", false, Absolute, ""},
		{"etc", false, Relative, ""},
		{`\etc`, false, Relative, ""},
		{"C:x", false, Relative, ""},
		{"/etc", true, DriveRooted, ""},
		{`\etc`, true, DriveRooted, ""},
		{"etc", true, Relative, ""},
		{`.\etc`, true, Relative, ""},
		{`C:\x`, true, Absolute, "C:"},
		{"c:/x", true, Absolute, "c:"},
		{"C:x", true, DriveRelative, "C:"},
		{"C:", true, DriveRelative, "C:"},
		{`\\srv\share\x`, true, Absolute, `\\srv\share`},
		{"//srv/share/x", true, Absolute, "//srv/share"},
		{`\\srv\share`, true, Absolute, `\\srv\share`},
		{`\\?\C:\x`, true, Absolute, `\\?\C:`},
		{`\\?\UNC\srv\share\x`, true, Absolute, `\\?\UNC\srv\share`},
		{`\\.\pipe\x`, true, Absolute, `\\.\pipe`},
		{"", true, Relative, ""},
	}
	for _, tt := range tests {
		if got := PathAnchor(tt.p, tt.windows); got != tt.want {
			t.Errorf("PathAnchor(%q, %v) = %d, want %d", tt.p, tt.windows, got, tt.want)
		}
		if got := VolumeName(tt.p, tt.windows); got != tt.vol {
			t.Errorf("VolumeName(%q, %v) = %q, want %q", tt.p, tt.windows, got, tt.vol)
		}
		// On the OS whose rules they are, path/filepath agrees on the
		// volume's extent (it writes a share with backslashes), but for
		// \\?\UNC\, where it stops before the server and share that
		// are the root of the path.
		if tt.windows == (runtime.GOOS == "windows") {
			if got := filepath.VolumeName(tt.p); len(got) != len(tt.vol) && !strings.HasPrefix(tt.p, `\\?\UNC\`) {
				t.Errorf("filepath.VolumeName(%q) = %q, VolumeName says %q", tt.p, got, tt.vol)
			}
			if got := filepath.IsAbs(tt.p); got != (tt.want == Absolute) {
				t.Errorf("filepath.IsAbs(%q) = %v, PathAnchor says %d", tt.p, got, tt.want)
			}
		}
	}
}

func TestJoinPath(t *testing.T) {
	tests := []struct {
		dir, p  string
		windows bool
		want    string
	}{
		{"/work", "x", false, "/work/x"},
		{"/", "x", false, "/x"},
		{"/work", "/etc", false, "/etc"},
		{`C:\work`, "x", true, `C:\work\x`},
		{`C:\`, "x", true, `C:\x`},
		{`C:\work`, `\etc`, true, `C:\etc`},
		{`C:\work`, "/etc", true, `C:/etc`},
		{`D:\work`, `C:\x`, true, `C:\x`},
		{`C:\work`, "C:x", true, `C:\work\x`},
		{`C:\work`, "c:x", true, `C:\work\x`},
		{`C:\work`, "C:", true, `C:\work`},
		{`D:\work`, "C:x", true, `C:\x`},
		{`\\srv\share\p`, `\etc`, true, `\\srv\share\etc`},
		{`C:\work`, `\\srv\share\x`, true, `\\srv\share\x`},
	}
	for _, tt := range tests {
		if got := JoinPath(tt.dir, tt.p, tt.windows); got != tt.want {
			t.Errorf("JoinPath(%q, %q, %v) = %q, want %q", tt.dir, tt.p, tt.windows, got, tt.want)
		}
	}
}

func TestIsRootPath(t *testing.T) {
	for _, tt := range []struct {
		p       string
		windows bool
		want    bool
	}{
		{"/", false, true}, {"//", false, true}, {"/etc", false, false}, {"", false, false},
		{`C:\`, true, true}, {"c:/", true, true}, {"C:", true, false}, {`C:\x`, true, false},
		{`\\srv\share`, true, true}, {`\\srv\share\`, true, true}, {`\\srv\share\x`, true, false},
		{`\\?\C:\`, true, true}, {`\\?\UNC\srv\share\`, true, true}, {`\`, true, false}, {"/", true, false},
	} {
		if got := IsRootPath(tt.p, tt.windows); got != tt.want {
			t.Errorf("IsRootPath(%q, %v) = %v, want %v", tt.p, tt.windows, got, tt.want)
		}
	}
}

func TestPlainPath(t *testing.T) {
	for _, tt := range []struct {
		p       string
		windows bool
		want    string
	}{
		{`\\?\C:\x`, true, `C:\x`}, {`\\.\C:\x`, true, `C:\x`}, {`//?/c:/x`, true, `c:/x`}, {`\\?\C:`, true, `C:`},
		{`\\?\UNC\srv\share\x`, true, `\\srv\share\x`}, {`\\.\pipe\x`, true, `\\.\pipe\x`},
		{`\\?\Volume{1}\x`, true, `\\?\Volume{1}\x`}, {`C:\x`, true, `C:\x`}, {`\\srv\share`, true, `\\srv\share`},
		{`\\?\C:\x`, false, `\\?\C:\x`},
	} {
		if got := PlainPath(tt.p, tt.windows); got != tt.want {
			t.Errorf("PlainPath(%q, %v) = %q, want %q", tt.p, tt.windows, got, tt.want)
		}
	}
}
