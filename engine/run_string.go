package engine

import (
	"context"

	"github.com/chainrun/chainrun/chain"
)

// RunString parses cmd in opts.Dialect (the host's when empty) and runs
// it; see Run. A refused command line is audited like any other chain.
func RunString(ctx context.Context, cmd string, opts Options) (*Result, error) {
	c, err := chain.ParseDialect(cmd, opts.Dialect)
	if err != nil {
		if opts.Auditor != nil {
			dir, _ := startDir(opts.Dir)
			opts.Auditor.Audit(&AuditRecord{Command: cmd, Dir: dir, Err: err})
		}
		return nil, err
	}
	return Run(ctx, c, opts)
}
