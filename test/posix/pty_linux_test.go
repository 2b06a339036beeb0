package posix_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/chainrun/chainrun/internal/testprog"
)

// TestInteractiveForeground runs an interactive chain on a terminal: its
// first pipeline's group gets the foreground, and chainrun takes the
// terminal back afterwards. A non-interactive chain under the same
// terminal runs in sessions of its own, so it cannot open the terminal.
func TestInteractiveForeground(t *testing.T) {
	got, werr := runOnPty(t, "interactive-host", "fg-check | cat-stdin; fg-check; tty-check", "tty-check | cat-stdin")
	if werr != nil || got != "fg=true\nfg=true\ntty=true\nrestored=true\ntty=false\n" {
		t.Errorf("wait %v, output %q", werr, got)
	}
}

// runOnPty runs the test program name with args on a new terminal, as
// the leader of its session, and returns what it wrote there.
func runOnPty(t *testing.T, name string, args ...string) (string, error) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skip("no pty:", err)
	}
	defer m.Close()
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skip("unlockpt:", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skip("ptsname:", err)
	}
	slave, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skip("open slave:", err)
	}
	cmd := exec.Command(testprog.Path(name), args...)
	cmd.Env = env()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	var out bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		b := make([]byte, 4096)
		for {
			k, err := m.Read(b)
			out.Write(b[:k])
			if err != nil {
				return
			}
		}
	}()
	werr := cmd.Wait()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("pty output did not end")
	}
	return strings.ReplaceAll(out.String(), "\r\n", "\n"), werr
}
