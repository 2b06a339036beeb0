package posix_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/posix"
	"github.com/chainrun/chainrun/sandbox"
)

func init() {
	// carved-host ROOT CHAIN runs CHAIN as an interactive chain on its
	// terminal, in ROOT, sandboxed with ROOT/locked denied for writing (a
	// carve: its processes start through the carving helper), and reports
	// whether it got the terminal back.
	programs["carved-host"] = func(args []string) int {
		b := sandbox.New(&sandbox.Config{DenyWrite: []string{filepath.Join(args[0], "locked")}}, []string{args[0]}, os.TempDir())
		res, err := engine.RunString(context.Background(), args[1], engine.Options{
			Dir: args[0], Env: os.Environ(), Interactive: true, Stdin: os.Stdin,
			NoCapture: true, Stdout: os.Stdout, Stderr: os.Stderr, Sandbox: b,
		})
		if err != nil {
			fmt.Println("error:", err)
			return 1
		}
		fmt.Printf("restored=%v\n", foreground(0))
		return res.ExitCode
	}
}

// TestInteractiveForegroundCarved: the processes the carving helper
// forks for an interactive chain get the terminal's foreground as
// chainrun's own do, and chainrun takes it back afterwards; the carve
// holds (the bind mount makes the denied directory read-only).
func TestInteractiveForegroundCarved(t *testing.T) {
	if posix.LandlockABI() == 0 {
		t.Skip("this kernel has no Landlock")
	}
	root := testprog.TempDir(t)
	os.Mkdir(filepath.Join(root, "locked"), 0o755)
	got, werr := runOnPty(t, "carved-host", root, "fg-check | cat-stdin; fg-check; write-file locked/x || echo refused")
	if werr != nil || got != "fg=true\nfg=true\nopen locked/x: read-only file system\nrefused\nrestored=true\n" {
		t.Errorf("wait %v, output %q", werr, got)
	}
}
