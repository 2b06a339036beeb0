package report

import (
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
)

// The statuses chainrun reports for a chain that did not run or did not
// finish; every other status is the chain's own, as bash's $? would be.
// The CLI exits with them and the MCP server's run result carries them,
// so an agent reads one meaning whichever way it called.
const (
	ExitRefused  = 2   // the command line (or an argument) was refused before anything ran
	ExitDenied   = 3   // denied by policy, or an ask not approved
	ExitTimeout  = 124 // the timeout stopped the chain, as GNU timeout
	ExitInternal = 125 // chainrun itself failed, as GNU timeout
)

// ExitStatus is the status for what engine.Run or RunString returned: the
// chain's own, or one of the Exit constants for a refusal, a denial, a
// timeout or a failure of chainrun's.
func ExitStatus(res *engine.Result, err error) int {
	if res != nil && res.TimedOut {
		return ExitTimeout
	}
	switch chain.KindOf(err) {
	case "":
		if res == nil {
			return ExitInternal
		}
		return res.ExitCode
	case chain.KindSyntax, chain.KindUnsupported, chain.KindArgument:
		return ExitRefused
	case chain.KindDenied:
		return ExitDenied
	case chain.KindTimeout:
		return ExitTimeout
	case chain.KindNotFound:
		return 127
	case chain.KindNotExecutable:
		return 126
	}
	return ExitInternal
}

// StoppedText names the segments chainrun stopped (timeout, cancellation,
// a forwarded signal) as "; stopped segment 2 "sleep 10", …", or "" when
// it stopped none: the tail of the message that says why a chain ended.
func StoppedText(res *engine.Result) string {
	if res == nil {
		return ""
	}
	var parts []string
	for _, s := range res.Segments {
		if s.Signalled {
			parts = append(parts, fmt.Sprintf("segment %d %q", s.Index+1, s.Text))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "; stopped " + strings.Join(parts, ", ")
}

// SandboxText is the line that explains a sandboxed segment's failure
// (engine.SegmentResult.Sandbox) to a person, in the CLI's and the MCP
// server's text alike; "" when there is nothing to explain.
func SandboxText(s *engine.SegmentResult) string {
	if s.Sandbox == "" {
		return ""
	}
	return fmt.Sprintf("segment %d %q exited %d: %s", s.Index+1, s.Text, s.ExitCode, s.Sandbox)
}
