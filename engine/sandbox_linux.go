package engine

import (
	"github.com/chainrun/chainrun/posix"
	"github.com/chainrun/chainrun/sandbox"
)

// confinement is the run's Landlock thread (posix.Confinement).
type confinement struct{ c *posix.Confinement }

func sandboxSupport() error {
	if posix.LandlockABI() == 0 {
		return posix.ErrUnavailable
	}
	return nil
}

func newConfinement(b *sandbox.Boundary) (*confinement, error) {
	c, err := posix.Confine(b)
	if err != nil {
		return nil, err
	}
	return &confinement{c}, nil
}

// platformNotes are what Landlock and the mount namespace cannot hold
// here (posix.LandlockNotes).
func platformNotes(b *sandbox.Boundary) []string { return posix.LandlockNotes(b) }

// apply has posix start the process on the confined thread.
func (c *confinement) apply(a *posix.Attr, path string, argv []string) (string, []string) {
	a.Confine = c.c
	return path, argv
}

func (c *confinement) close() { c.c.Close() }
