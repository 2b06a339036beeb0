package winproc

import (
	"slices"
	"testing"
	"unicode/utf16"
)

func TestMergeEnv(t *testing.T) {
	got := MergeEnv([]string{
		`Path=C:\a;C:\b`, "zeta=1", `=C:=C:\work`, "Foo=1", `PATH=C:\b;C:\c;`, "FOO=2",
		"PATHEXT=.COM;.EXE", "PathExt=.exe;.CMD", "alpha=x=y", "empty=",
	}, `C:\Windows`)
	want := []string{
		`=C:=C:\work`, "alpha=x=y", "empty=", "Foo=2", `Path=C:\a;C:\b;C:\c`, "PATHEXT=.COM;.EXE;.CMD",
		`SYSTEMROOT=C:\Windows`, "zeta=1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// An existing SystemRoot is kept as it is.
	got = MergeEnv([]string{`SystemRoot=D:\Win`}, `C:\Windows`)
	if !slices.Equal(got, []string{`SystemRoot=D:\Win`}) {
		t.Errorf("got %q", got)
	}
}

func TestEnvBlock(t *testing.T) {
	b, err := EnvBlock([]string{"A=1", "É=ü"})
	if err != nil {
		t.Fatal(err)
	}
	if want := utf16.Encode([]rune("A=1\x00É=ü\x00\x00")); !slices.Equal(b, want) {
		t.Errorf("got %v want %v", b, want)
	}
	if b, _ := EnvBlock(nil); !slices.Equal(b, []uint16{0, 0}) {
		t.Errorf("empty block %v", b)
	}
	if _, err := EnvBlock([]string{"A=\x00"}); err == nil {
		t.Error("NUL accepted")
	}
}
