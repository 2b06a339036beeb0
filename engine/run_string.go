package engine

import (
	"context"

	"github.com/chainrun/chainrun/chain"
)

// RunString parses cmd in the host dialect and runs it; see Run.
func RunString(ctx context.Context, cmd string, opts Options) (*Result, error) {
	c, err := chain.ParseDialect(cmd, chain.HostDialect())
	if err != nil {
		if opts.Auditor != nil {
			opts.Auditor.Audit(&AuditRecord{Command: cmd, Dir: opts.Dir, Err: err})
		}
		return nil, err
	}
	return Run(ctx, c, opts)
}
