package main

import (
	"github.com/chainrun/chainrun/audit"
	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/policy"
)

// newAuthorizer loads and merges the permission rule files.
func newAuthorizer(paths []string) (chain.Authorizer, []string, error) {
	p, warnings, err := policy.Load(paths...)
	if err != nil {
		return nil, warnings, err
	}
	return p, warnings, nil
}

// newAuditor opens the rotated JSON-lines audit log.
func newAuditor(a auditConfig) (engine.Auditor, func() error, error) {
	l := audit.NewLog(audit.Config{
		Path:       a.path,
		MaxSizeMB:  a.maxSizeMB,
		MaxBackups: a.maxBackups,
		MaxAgeDays: a.maxAgeDays,
	})
	return l, l.Close, nil
}
