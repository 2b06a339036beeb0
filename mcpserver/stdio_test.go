package mcpserver

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// built is the chainrun binary the tests build once per process.
var built struct {
	once sync.Once
	path string
	err  error
	out  []byte
}

// chainrunBin builds cmd/chainrun and cmd/chainrun-mcp, which `chainrun
// mcp` runs, for goos into one directory the test process removes at its
// end, and returns chainrun's path; or skips when no Go toolchain is at hand
// (a test binary run elsewhere, under Wine for instance).
func chainrunBin(t *testing.T, goos string) string {
	t.Helper()
	// go test puts its own GOROOT/bin first in PATH.
	goTool, err := exec.LookPath("go")
	if err != nil {
		testprog.SkipUnderWine(t, "no Windows go command to build chainrun with (the host's go is a Linux program)")
		t.Skip("no go command to build chainrun with")
	}
	build := func(goos string) (string, []byte, error) {
		dir, err := os.MkdirTemp("", "chainrun-mcp-bin-")
		if err != nil {
			return "", nil, err
		}
		exe := filepath.Join(dir, "chainrun")
		if goos == "windows" {
			exe += ".exe"
		}
		cmd := exec.Command(goTool, "build", "-o", dir+string(filepath.Separator), "../cmd/chainrun", "../cmd/chainrun-mcp")
		cmd.Env = append(os.Environ(), "GOOS="+goos, "CGO_ENABLED=0")
		out, err := cmd.CombinedOutput()
		return exe, out, err
	}
	if goos != runtime.GOOS {
		exe, out, err := build(goos)
		if err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		t.Cleanup(func() { os.RemoveAll(filepath.Dir(exe)) })
		return exe
	}
	built.once.Do(func() { built.path, built.out, built.err = build(goos) })
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return built.path
}

// TestStdioBinary runs the built chainrun mcp over real stdio pipes: the
// server answers tools/list, runs chains, keeps the session's directory,
// never hands a chain its own stdin, writes only protocol messages on
// stdout, and exits 0 when the client closes its stdin.
func TestStdioBinary(t *testing.T) {
	bin := chainrunBin(t, runtime.GOOS)
	dir := testprog.TempDir(t)
	mkdirs(t, dir, "sub")
	cmd := exec.Command(bin, "mcp", "--dir", dir, "--dialect", "posix")
	cmd.Env = testEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "stdio-test", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr: %s", err, stderr.String())
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 5 {
		t.Fatalf("tools/list: %v, %d tools", err, len(tools.Tools))
	}
	for _, step := range []struct {
		name, cmd, stdout string
	}{
		{"pipeline", "lines 3 | first-line && cd sub", "1\n"},
		{"the cd carried over", "show-dir", "sub\n"},
		{"stdin is not the server's", "cat-stdin && echo after", "after\n"},
	} {
		t.Run(step.name, func(t *testing.T) {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": step.cmd}})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.StructuredContent.(map[string]any)["stdout"]; got != step.stdout || res.IsError {
				t.Errorf("stdout %q, want %q\n%s", got, step.stdout, text(res))
			}
		})
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 0 {
		t.Errorf("server exit: %v\nstderr: %s", cmd.ProcessState, stderr.String())
	}
	if s := strings.TrimSpace(stderr.String()); s != "" {
		t.Errorf("stderr: %s", s)
	}
}

// TestWineStdio runs chainrun.exe mcp under Wine with this (Linux) test
// as the client: stdio passes through Wine, tools/list answers, and a
// chain with a cmd.exe built-in runs in the session's directory, kept
// between calls. .ci/wine-tier.sh sets CHAINRUN_WINE to the Wine loader.
func TestWineStdio(t *testing.T) {
	wine := os.Getenv("CHAINRUN_WINE")
	if wine == "" || runtime.GOOS != "linux" {
		t.Skip("CHAINRUN_WINE names no Wine loader (.ci/wine-tier.sh sets it)")
	}
	exe := chainrunBin(t, "windows")
	dir := testprog.TempDir(t)
	mkdirs(t, dir, "sub")
	if err := os.WriteFile(filepath.Join(dir, "sub", "x.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	winDir := "Z:" + strings.ReplaceAll(dir, "/", `\`)
	cmd := exec.Command(wine, exe, "mcp", "--dir", winDir, "--dialect", "windows")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "wine-test", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr: %s", err, stderr.String())
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 5 {
		t.Fatalf("tools/list: %v, %+v", err, tools)
	}
	for _, step := range []struct {
		name, cmd, want string
	}{
		{"cmd built-in after cd", `cd sub && dir /b && echo done`, "x.txt\r\ndone\n"},
		{"the cd carried over", `dir /b`, "x.txt\r\n"},
	} {
		t.Run(step.name, func(t *testing.T) {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": step.cmd}})
			if err != nil {
				t.Fatal(err)
			}
			out, _ := res.StructuredContent.(map[string]any)
			if out["stdout"] != step.want || res.IsError {
				t.Errorf("stdout %q, want %q\n%s\nstderr: %s", out["stdout"], step.want, text(res), stderr.String())
			}
		})
	}
}
