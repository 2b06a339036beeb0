//go:build windows

package windows_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/winproc"
)

func decodeUTF16LE(t *testing.T, b []byte) string {
	t.Helper()
	if len(b)%2 != 0 {
		t.Fatalf("odd length %d: not UTF-16", len(b))
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return string(utf16.Decode(u))
}

// cmd /u makes a built-in write UTF-16LE, so names in any script survive
// whatever the code page.
func TestCmdBuiltinUTF16Output(t *testing.T) {
	dir := testprog.TempDir(t)
	names := []string{"café ✓.txt", "plain.txt", "日本語.txt", "a&b (1).txt"}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	line, err := winproc.BuiltinCommandLine("dir", []string{"/b", dir})
	if err != nil {
		t.Fatal(err)
	}
	out, code := start(t, systemCmd(t), line, dir, os.Environ()).finish(t)
	if code != 0 {
		t.Fatalf("exit %d: %q", code, out)
	}
	var got []string
	for _, l := range strings.Split(decodeUTF16LE(t, []byte(out)), "\r\n") {
		if l != "" {
			got = append(got, l)
		}
	}
	slices.Sort(got)
	slices.Sort(names)
	if !slices.Equal(got, names) {
		t.Errorf("dir /b gave %q, want %q", got, names)
	}
}

// type copies a file's bytes; without /u nothing converts them.
func TestCmdTypeKeepsBytes(t *testing.T) {
	dir := testprog.TempDir(t)
	body := "{\"name\": \"café ✓ 日本\"}\r\n"
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	line, _ := winproc.BuiltinCommandLineCP("type", []string{"package.json"})
	if out, code := start(t, systemCmd(t), line, dir, os.Environ()).finish(t); code != 0 || out != body {
		t.Errorf("type: exit %d, %q, want %q", code, out, body)
	}
}

// Arguments of built-ins are quoted by cmd's rules: metacharacters reach
// the built-in as text, never as operators.
func TestCmdBuiltinArgsAreInert(t *testing.T) {
	dir := testprog.TempDir(t)
	for _, name := range []string{"a&b.txt", "with space & more.txt", "x^y.txt", "(p).txt"} {
		body := "content of " + name
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		line, err := winproc.BuiltinCommandLineCP("type", []string{name})
		if err != nil {
			t.Fatal(err)
		}
		out, code := start(t, systemCmd(t), line, dir, os.Environ()).finish(t)
		if code != 0 || !strings.Contains(out, body) {
			t.Errorf("type %q: exit %d, %q", name, code, out)
		}
	}
	line, _ := winproc.BuiltinCommandLineCP("type", []string{"nothing&echo INJECTED>file.txt"})
	out, _ := start(t, systemCmd(t), line, dir, os.Environ()).finish(t)
	if _, err := os.Stat(filepath.Join(dir, "file.txt")); err == nil || strings.Contains(out, "INJECTED\r\n") {
		t.Errorf("cmd ran part of a built-in's argument: %q", out)
	}
}
