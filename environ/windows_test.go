package environ

import (
	"slices"
	"testing"
)

func TestMergeWindows(t *testing.T) {
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
			if got := MergeWindows(tt.env); !slices.Equal(got, tt.out) {
				t.Fatalf("MergeWindows(%q)\n got %q\nwant %q", tt.env, got, tt.out)
			}
		})
	}
}

func TestWinPathDirsAndExts(t *testing.T) {
	env := []string{`Path=C:\a;"C:\Program Files\b";`, `PATH=c:\A;D:\d`, `PATHEXT=.EXE;cmd;;.exe`}
	if got, want := WindowsPathDirs(env), []string{`C:\a`, `C:\Program Files\b`, `D:\d`}; !slices.Equal(got, want) {
		t.Errorf("WindowsPathDirs = %q; want %q", got, want)
	}
	if got, want := WindowsPathExts(env), []string{".exe", ".cmd"}; !slices.Equal(got, want) {
		t.Errorf("WindowsPathExts = %q; want %q", got, want)
	}
	if got, want := WindowsPathExts(nil), []string{".com", ".exe", ".bat", ".cmd"}; !slices.Equal(got, want) {
		t.Errorf("default WindowsPathExts = %q; want %q", got, want)
	}
}
