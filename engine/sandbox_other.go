//go:build !linux && !darwin

package engine

import (
	"errors"
	"runtime"

	"github.com/chainrun/chainrun/sandbox"
)

// confinement does not exist here: on Windows a job object confines the
// process tree, nothing confines files (docs/policy.md, "Sandbox").
type confinement struct{}

func sandboxSupport() error {
	return errors.New("no kernel file confinement on " + runtime.GOOS)
}

func newConfinement(*sandbox.Boundary) (*confinement, error) { return nil, sandboxSupport() }

func platformNotes(*sandbox.Boundary) []string { return nil }

func (c *confinement) close() {}
