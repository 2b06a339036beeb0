//go:build windows

package engine

import (
	"fmt"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/resolve"
	"github.com/chainrun/chainrun/winproc"
)

// checkResolves: on Windows, Check resolves each program to see whether
// cmd.exe will read its arguments.
const checkResolves = true

func checkSegment(seg *chain.Segment, dir string, env []string) error {
	t, err := resolve.Find(seg.Args[0], dir, env)
	if err != nil {
		return nil // not found or not executable: Run reports it at the segment
	}
	if t.Kind == resolve.CmdBuiltin {
		if reason, refused := resolve.CmdBuiltinRefused(t.Path); refused {
			return fmt.Errorf("cmd.exe built-in %q is refused: %s", t.Path, reason)
		}
	}
	return winproc.Check(t.Kind, t.Path, seg.Args)
}
