package engine

import (
	"os"
	"runtime"
	"slices"

	"github.com/chainrun/chainrun/builtin/spec"
	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/redirect"
)

// Check reports what Run would refuse that parsing cannot see, before
// anything starts: on every OS a redirect to /dev/fd/N with N above 9 (fds
// 0-9 are all a segment has). On Windows also an argument that cannot be passed
// safely to a batch file or a cmd.exe built-in (a CR, LF or NUL, a line
// over cmd's limit), and a cmd.exe built-in that makes no sense in one
// segment (start escapes the job, set and setlocal change nothing for
// later segments). Elsewhere there is nothing to check. Run calls Check
// first; an explain view calls it to show the same refusal.
//
// Programs are resolved as Run would, following literal cd arguments
// through the chain, so a refusal names the segment and argument.
func Check(c *chain.Chain, opts Options) error {
	for _, seg := range c.Segments() {
		for _, r := range seg.Redirects {
			if r.Runtime || r.Expands() && seg.HasProcSubst() {
				continue // no path yet, or a process substitution's pipe
			}
			if err := redirect.CheckTarget(r.Target); err != nil && r.Op != chain.RedirDupOut && r.Op != chain.RedirDupIn {
				return &SegmentError{Kind: chain.KindUnsupported, Segment: seg.Index, Text: seg.Text, Err: err}
			}
		}
	}
	if !checkResolves {
		return nil
	}
	dir, err := startDir(opts.Dir)
	if err != nil {
		return err
	}
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	for _, seg := range c.Segments() {
		if slices.ContainsFunc(seg.Argv(), func(a chain.Arg) bool { return a.Runtime }) {
			// Known only when it starts: the spawn refuses what cmd.exe
			// cannot carry then (winproc's command lines fail on it).
			if seg.Builtin == chain.BuiltinCd {
				return nil // later directories are unknown too
			}
			continue
		}
		if seg.Builtin == chain.BuiltinCd && len(seg.Args) > 1 {
			dir = spec.JoinPath(dir, seg.Args[1], runtime.GOOS == "windows")
			continue
		}
		if w := chain.CommandWords(seg.Args); w != nil {
			one := *seg // command NAME …: NAME runs (commandTarget)
			one.Args = w
			one.Builtin, _ = seg.CommandBuiltin(w)
			seg = &one
		}
		if seg.IsBuiltin() || len(seg.Args) == 0 {
			continue
		}
		segEnv := env
		if len(seg.Assigns) > 0 {
			segEnv = withAssigns(env, seg.Assigns)
		}
		if err := checkSegment(seg, dir, segEnv); err != nil {
			return &SegmentError{Kind: chain.KindUnsupported, Segment: seg.Index, Text: seg.Text, Err: err}
		}
	}
	return nil
}
