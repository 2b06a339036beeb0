package engine

import "github.com/chainrun/chainrun/chain"

// Auditor records every chain Run was asked to run, whatever came of it.
// audit.Log implements it with a rotated JSON-lines file. Inner runs that
// run side by side (process substitutions, background pipelines, runs of
// one Auditor in several goroutines) call Audit concurrently.
type Auditor interface {
	Audit(rec *AuditRecord)
}

// AuditRecord is what an Auditor receives once a chain is finished (or
// refused, or denied).
type AuditRecord struct {
	Command  string          // the source command line
	Dir      string          // the starting directory
	Decision *chain.Decision // nil when no Authorizer was set
	Result   *Result         // nil when nothing ran
	Err      error           // the refusal, denial or failure, if any
}
