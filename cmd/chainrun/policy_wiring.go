package main

import (
	"path/filepath"
	"strings"

	"github.com/chainrun/chainrun/audit"
	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/policy"
)

// newAuthorizer loads and merges the permission rule files: the Claude
// Code hierarchy with --claude-settings (the --policy files placed as
// Claude Code places --settings), else the --policy files alone. The mode
// flag overrides defaultMode, --add-dir adds working directories, and the
// audit log joins the files the policy protects.
func newAuthorizer(cfg *config) (chain.Authorizer, []string, error) {
	var p *policy.Policy
	var warnings []string
	var err error
	if cfg.claude != nil {
		dir := *cfg.claude
		if dir == "" {
			if dir, err = startDir(cfg.dir); err != nil {
				return nil, nil, err
			}
		}
		p, warnings, err = policy.LoadClaude(policy.ClaudeDirs{Project: dir}, cfg.policies...)
	} else {
		p, warnings, err = policy.Load(cfg.policies...)
	}
	if err != nil {
		return nil, warnings, err
	}
	if cfg.mode != "" {
		if err := p.SetMode(policy.Mode(cfg.mode)); err != nil {
			return nil, warnings, err
		}
	}
	for _, d := range cfg.addDirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, warnings, err
		}
		p.AdditionalDirectories = append(p.AdditionalDirectories, abs)
	}
	if cfg.audit.path != "" {
		if abs, err := filepath.Abs(cfg.audit.path); err == nil {
			p.Protect = append(p.Protect, abs)
		}
	}
	return withEnvFlags(p, cfg.env), warnings, nil
}

// withEnvFlags has the policy judge the --env variables as it judges
// NAME=v in front of every command, in the environment they make.
func withEnvFlags(p *policy.Policy, sets []string) *policy.Policy {
	if len(sets) == 0 {
		return p
	}
	given := make(map[string]string, len(sets))
	for _, kv := range sets {
		k, _, _ := strings.Cut(kv, "=")
		given[k] = "--env " + k
	}
	return p.ForEnv(chainEnv(sets), given)
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
