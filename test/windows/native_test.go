//go:build windows

package windows_test

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/winconsole"
	"github.com/chainrun/chainrun/winproc"
	"golang.org/x/sys/windows"
)

var (
	procGetConsoleWindow = windows.NewLazySystemDLL("kernel32.dll").NewProc("GetConsoleWindow")
	procAllocConsole     = windows.NewLazySystemDLL("kernel32.dll").NewProc("AllocConsole")
)

// ensureConsole gives the test process a console to share with its
// children: Ctrl+Break travels only within one.
func ensureConsole(t *testing.T) {
	if h, _, _ := procGetConsoleWindow.Call(); h != 0 {
		return
	}
	if r, _, err := procAllocConsole.Call(); r == 0 {
		t.Skipf("no console and AllocConsole failed: %v", err)
	}
}

// Ctrl+Break reaches the segment's process group: a program that handles
// it shuts down its own way.
func TestCtrlBreakStopsGracefully(t *testing.T) {
	testprog.SkipUnderWine(t, "GenerateConsoleCtrlEvent fails under Wine")
	ensureConsole(t)
	exe := testprog.Executable(t)
	line, _ := winproc.ComposeCommandLine([]string{exe})
	r, w, _ := os.Pipe()
	p, err := winproc.Start(&winproc.Attr{Path: exe, CommandLine: line, Env: testprog.Environ("trap"), Stdout: w})
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	br := bufio.NewReader(r)
	if l, _ := br.ReadString('\n'); strings.TrimSpace(l) != "ready" {
		t.Fatalf("helper said %q", l)
	}
	if err := p.Interrupt(); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(br)
	code, _ := p.Wait()
	if code != 7 || strings.TrimSpace(string(rest)) != "interrupted" {
		t.Errorf("exit %d, %q; want 7, interrupted", code, rest)
	}
}

// A program without a handler dies of Ctrl+Break with STATUS_CONTROL_C_EXIT.
func TestCtrlBreakDefaultExitCode(t *testing.T) {
	testprog.SkipUnderWine(t, "GenerateConsoleCtrlEvent fails under Wine")
	ensureConsole(t)
	exe := testprog.Executable(t)
	line, _ := winproc.ComposeCommandLine([]string{exe})
	s := start(t, exe, line, "", testprog.Environ("hang"))
	time.Sleep(500 * time.Millisecond) // past the runtime's start-up
	if err := s.p.Interrupt(); err != nil {
		t.Fatal(err)
	}
	_, code := s.finish(t)
	if code != winproc.StatusControlCExit {
		t.Errorf("exit %#x, want %#x", code, uint32(winproc.StatusControlCExit))
	}
}

// PowerShell: -Command gets the UTF-8 prelude so non-ASCII output
// survives; .ps1 files run with -File and their arguments.
func TestPowerShell(t *testing.T) {
	testprog.SkipUnderWine(t, "Wine has no powershell.exe")
	res, err := engine.RunString(context.Background(), `powershell -NoProfile -Command "Write-Output 'héllo ✓ 日本'"`, engine.Options{Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if text, enc := decoded(t, res); strings.TrimSpace(text) != "héllo ✓ 日本" {
		t.Errorf("-Command: %q (%s), stderr %q", text, enc, res.Stderr)
	}
	dir := testprog.TempDir(t)
	os.WriteFile(filepath.Join(dir, "s.ps1"), []byte("param($a, $b)\r\nWrite-Output \"[$a][$b]\"\r\n"), 0o644)
	res, err = engine.RunString(context.Background(), `.\s.ps1 'one two' 'x&y'`, engine.Options{Dir: dir, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := decoded(t, res); strings.TrimSpace(text) != "[one two][x&y]" || res.Segments[0].Kind != "powershell" {
		t.Errorf(".ps1: %s %q, stderr %q", res.Segments[0].Kind, text, res.Stderr)
	}
}

// A program writing the OEM code page is decoded with it.
func TestLegacyCodePageDecoded(t *testing.T) {
	cp := winconsole.FallbackFor(winconsole.Snapshot())
	if cp == nil || (cp.Name() != "cp437" && cp.Name() != "cp850") {
		t.Skipf("fallback code page is %v, not 437 or 850", cp)
	}
	res, err := engine.RunString(context.Background(), quoted(testprog.Executable(t)), engine.Options{Env: testprog.Environ("cp437"), Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if text, enc := decoded(t, res); text != "café\r\n" || enc != cp.Name() {
		t.Errorf("got %q (%s), want café via %s", text, enc, cp.Name())
	}
}
