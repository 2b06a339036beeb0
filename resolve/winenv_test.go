package resolve

import (
	"slices"
	"testing"
)

func TestMergeWindowsEnv(t *testing.T) {
	for _, tt := range []struct {
		name     string
		env, out []string
	}{
		{"nothing to merge", []string{"A=1", `Path=C:\a;C:\b`, "B=2"}, []string{"A=1", `Path=C:\a;C:\b`, "B=2"}},
		{"variants merged in env order at the first", []string{"A=1", `PATH=C:\a`, "B=2", `Path=C:\b;c:\A\`, `path=C:\c`},
			[]string{"A=1", `Path=C:\a;C:\b;C:\c`, "B=2"}},
		{"empty entries dropped", []string{`PATH=;C:\a;;`, `Path=`}, []string{`Path=C:\a`}},
		{"quoted entries kept verbatim", []string{`PATH="C:\x;y";C:\b`, `Path="C:\X;Y";y`},
			[]string{`Path="C:\x;y";C:\b;y`}},
		{"PATHEXT merged", []string{`PATHEXT=.COM;.EXE`, "X=1", `Pathext=.exe;.PS1`},
			[]string{`PATHEXT=.COM;.EXE;.PS1`, "X=1"}},
		{"absent stays absent", []string{"A=1"}, []string{"A=1"}},
		{"drive directories untouched", []string{`=C:=C:\w`, `Path=C:\a`, `=D:=D:\`}, []string{`=C:=C:\w`, `Path=C:\a`, `=D:=D:\`}},
		{"similar names untouched", []string{`PATH2=x`, `XPATH=y`, `PATH=C:\a`}, []string{`PATH2=x`, `XPATH=y`, `Path=C:\a`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := MergeWindowsEnv(tt.env); !slices.Equal(got, tt.out) {
				t.Fatalf("MergeWindowsEnv(%q)\n got %q\nwant %q", tt.env, got, tt.out)
			}
		})
	}
}

func TestWinPathDirsAndExts(t *testing.T) {
	env := []string{`Path=C:\a;"C:\Program Files\b";`, `PATH=c:\A;D:\d`, `PATHEXT=.EXE;cmd;;.exe`}
	if got, want := winPathDirs(env), []string{`C:\a`, `C:\Program Files\b`, `D:\d`}; !slices.Equal(got, want) {
		t.Errorf("winPathDirs = %q; want %q", got, want)
	}
	if got, want := winPathExts(env), []string{".exe", ".cmd"}; !slices.Equal(got, want) {
		t.Errorf("winPathExts = %q; want %q", got, want)
	}
	if got, want := winPathExts(nil), []string{".com", ".exe", ".bat", ".cmd"}; !slices.Equal(got, want) {
		t.Errorf("default winPathExts = %q; want %q", got, want)
	}
}

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
