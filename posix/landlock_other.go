//go:build unix && !linux

package posix

import (
	"errors"
	"syscall"

	"github.com/chainrun/chainrun/sandbox"
)

// Confinement is Linux's Landlock confinement; no other Unix has it (macOS
// confines with Seatbelt, which the engine applies through sandbox-exec).
type Confinement struct {
	Notes []string
}

// ErrUnavailable is the error when the kernel offers no Landlock.
var ErrUnavailable = errors.New("no Landlock on this system (it is Linux's)")

// LandlockABI is 0: there is no Landlock here.
func LandlockABI() int { return 0 }

// Confine fails: there is no Landlock here.
func Confine(*sandbox.Boundary) (*Confinement, error) { return nil, ErrUnavailable }

func (c *Confinement) spawn(string, []string, *Attr, *syscall.SysProcAttr) (int, error) {
	return 0, ErrUnavailable
}

// Close does nothing.
func (c *Confinement) Close() error { return nil }
