package engine

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/winproc"
)

// TestCheckFollowsDriveRootedCd: Check follows a cd to a path rooted on
// the current drive (\dir) as Windows reads it, so the batch file found
// there is checked: an argument with a line feed cannot reach a batch
// file safely and is refused before anything runs.
func TestCheckFollowsDriveRootedCd(t *testing.T) {
	base := testprog.TempDir(t)
	sub := filepath.Join(base, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "t.bat"), []byte("@echo %1\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rooted := sub[len(filepath.VolumeName(sub)):] // \users\…\sub
	c, err := chain.ParseDialect("cd '"+rooted+"' && ./t.bat 'a\nb'", chain.POSIX)
	if err != nil {
		t.Fatal(err)
	}
	err = Check(c, Options{Dir: base, Env: os.Environ()})
	if !errors.Is(err, winproc.ErrRefused) {
		t.Fatalf("Check = %v, want the batch argument refused (%v)", err, winproc.ErrRefused)
	}
}
