//go:build windows

package windows_test

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/winproc"
	"golang.org/x/sys/windows"
)

// TestMain lets the test binary be the programs the tests start: those of
// testprog (testprog.Environ selects one), and this package's own:
//
//	echo   prints its argv (without argv0) NUL-separated, parsed from
//	       GetCommandLineW by the post-2008 rules (Go's own os.Args uses
//	       older ones, which would misread "" inside quotes)
//	trap   prints "ready", waits for Ctrl+Break, prints "interrupted" and
//	       exits 7
//	cp437  writes "caf\x82" (é in the OEM code pages 437 and 850)
//
// winproc's tests have their own echo: testprog cannot hold it, because it
// parses with winproc, whose internal tests import testprog.
func TestMain(m *testing.M) {
	testprog.Register("echo", func([]string) int {
		args := winproc.ParseCommandLine(windows.UTF16PtrToString(windows.GetCommandLine()))
		if len(args) > 0 {
			args = args[1:]
		}
		fmt.Print(strings.Join(args, "\x00"))
		return 0
	})
	testprog.Register("trap", func([]string) int {
		c := make(chan os.Signal, 1)
		signal.Notify(c, os.Interrupt)
		fmt.Println("ready")
		select {
		case <-c:
			fmt.Println("interrupted")
			return 7
		case <-time.After(time.Minute):
			return 1
		}
	})
	testprog.Register("cp437", func([]string) int {
		os.Stdout.Write([]byte("caf\x82\r\n"))
		return 0
	})
	testprog.Main(m)
}

// wineSlots bounds how many parallel subtests start processes at once
// under Wine, whose CreateProcess fails now and then ("Internal error",
// or a child whose output never arrives) when dozens of cmd.exe start
// together; native Windows runs them unbounded.
var wineSlots = make(chan struct{}, 4)

// limitUnderWine holds one of wineSlots for the rest of the test.
func limitUnderWine(t *testing.T) {
	if !testprog.UnderWine() {
		return
	}
	wineSlots <- struct{}{}
	t.Cleanup(func() { <-wineSlots })
}

func systemCmd(t testing.TB) string {
	dir, err := windows.GetSystemDirectory()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "cmd.exe")
}

// started is a process started with winproc and the read end of its
// combined stdout and stderr.
type started struct {
	p   *winproc.Process
	out *os.File
}

func start(t testing.TB, app, line, dir string, env []string) *started {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	p, err := winproc.Start(&winproc.Attr{Path: app, CommandLine: line, Dir: dir, Env: env, Stdout: w, Stderr: w})
	w.Close()
	if err != nil {
		r.Close()
		t.Fatal(err)
	}
	return &started{p: p, out: r}
}

// finish reads everything, waits, and releases the process.
func (s *started) finish(t testing.TB) (string, uint32) {
	t.Helper()
	out, _ := io.ReadAll(s.out)
	s.out.Close()
	code, err := s.p.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.p.Close(); err != nil {
		t.Error(err)
	}
	return string(out), code
}

// alive reports whether pid names a running process.
func alive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION|windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	if windows.GetExitCodeProcess(h, &code) != nil || code != 259 { // STILL_ACTIVE
		return false
	}
	ev, _ := windows.WaitForSingleObject(h, 0)
	return ev == uint32(windows.WAIT_TIMEOUT)
}

var procGetProcessHandleCount = windows.NewLazySystemDLL("kernel32.dll").NewProc("GetProcessHandleCount")

func handleCount(t testing.TB) int {
	var n uint32
	r, _, err := procGetProcessHandleCount.Call(uintptr(windows.CurrentProcess()), uintptr(unsafe.Pointer(&n)))
	if r == 0 {
		t.Fatalf("GetProcessHandleCount: %v", err)
	}
	return int(n)
}
