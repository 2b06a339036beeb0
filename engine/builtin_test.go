package engine

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestEchoUnicodeEscapesFollowTheLocale(t *testing.T) {
	for _, tt := range []struct {
		arg  string
		utf8 bool
		want string
	}{
		{`caf\u00e9`, true, "café\n"},
		{`caf\u00e9`, false, `caf\u00E9` + "\n"},
		{`\U000000e9`, false, `\u00E9` + "\n"},
		{`\U0001F600`, false, `\U0001F600` + "\n"},
		{`\u41\x42`, false, "AB\n"},
		{`\u263a`, true, "☺\n"},
	} {
		if got := string(echo([]string{"-e", tt.arg}, tt.utf8)); got != tt.want {
			t.Errorf("echo -e %q (utf8 %v) = %q, want %q", tt.arg, tt.utf8, got, tt.want)
		}
	}
	for env, want := range map[string]bool{
		"LANG=en_US.UTF-8": true, "LC_ALL=C": false, "LC_CTYPE=C.utf8": true, "": false, "LANG=de_DE": false,
	} {
		if got := localeIsUTF8([]string{env}); got != want {
			t.Errorf("localeIsUTF8(%q) = %v, want %v", env, got, want)
		}
	}
	if !localeIsUTF8([]string{"LANG=C", "LC_ALL=en_GB.UTF-8"}) {
		t.Error("LC_ALL must win over LANG")
	}
}

// cd checks the path as written, so a missing directory before .. fails
// as in bash, while the chain's directory stays the logical path. Windows
// itself resolves .. before looking, so there (as in cmd.exe) the same cd
// succeeds.
func TestCdThroughMissingDirectory(t *testing.T) {
	if runtime.GOOS == "windows" {
		// Not t.TempDir: Wine refuses to remove the directory a test ran
		// in ("Invalid function"), which would fail the test for Wine's sake.
		dir, err := os.MkdirTemp("", "chainrun-cd-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		res, err := RunString(context.Background(), "cd missing/.. && pwd", Options{Dir: dir})
		if err != nil || res.ExitCode != 0 {
			t.Fatalf("cd missing/.. on Windows: %v %+v", err, res)
		}
		return
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	res, err := RunString(context.Background(), "cd missing/.. || echo failed; cd sub/../sub && pwd", Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	want := "failed\n" + filepath.Join(dir, "sub") + "\n"
	if string(res.Stdout) != want || res.Segments[0].ExitCode != 1 {
		t.Errorf("stdout %q (cd status %d), want %q and status 1; stderr %q", res.Stdout, res.Segments[0].ExitCode, want, res.Stderr)
	}
}
