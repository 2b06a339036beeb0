package engine

import (
	"os"

	"github.com/chainrun/chainrun/posix"
	"github.com/chainrun/chainrun/sandbox"
)

// confinement is the boundary as a Seatbelt profile, applied to each
// process by starting it through sandbox-exec.
type confinement struct{ b *sandbox.Boundary }

func sandboxSupport() error {
	_, err := os.Stat(sandbox.SandboxExec)
	return err
}

func newConfinement(b *sandbox.Boundary) (*confinement, error) {
	if err := sandboxSupport(); err != nil {
		return nil, err
	}
	return &confinement{b}, nil
}

// platformNotes: Seatbelt carves denied paths out of allowed ones, so
// nothing of the file boundary is left to the policy alone.
func platformNotes(*sandbox.Boundary) []string { return nil }

// apply starts sandbox-exec with the profile, which then runs path.
func (c *confinement) apply(_ *posix.Attr, path string, argv []string) (string, []string) {
	return sandbox.SandboxExec, c.b.SeatbeltArgs(path, argv)
}

func (c *confinement) close() {}
