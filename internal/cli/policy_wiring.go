package cli

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chainrun/chainrun/audit"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/policy"
	"github.com/chainrun/chainrun/sandbox"
)

// policyFlags are the permission flags chainrun and chainrun mcp share:
// the rule files, Claude Code's settings hierarchy, the mode and the
// working directories. Both read them with define and load them with
// load, so the two judge a chain alike.
type policyFlags struct {
	policies []string
	claude   *string // --claude-settings: nil off, "" the start directory
	mode     string  // --permission-mode
	addDirs  []string
	sandbox  bool // --sandbox
}

// define adds the flags to fs.
func (f *policyFlags) define(fs *flag.FlagSet) {
	fs.Var((*listValue)(&f.policies), "policy", "")
	fs.Var(optionalDir{&f.claude}, "claude-settings", "")
	fs.StringVar(&f.mode, "permission-mode", "", "")
	fs.Var((*listValue)(&f.addDirs), "add-dir", "")
	fs.BoolVar(&f.sandbox, "sandbox", false, "")
}

// judges reports whether a policy judges the chain: --policy or
// --claude-settings.
func (f *policyFlags) judges() bool { return len(f.policies) > 0 || f.claude != nil }

// loadedPolicy is the policy the flags give, with what the loader said
// about the files and a digest of everything it was built from.
type loadedPolicy struct {
	p        *policy.Policy
	warnings []string
	// sources are the settings files read (every candidate of the
	// hierarchy, present or not): with the mode and the working
	// directories, what the MCP server digests so an approval names the
	// policy that asked for it.
	sources []string
}

// load reads and merges the permission rule files (the loadedPolicy is
// never nil, so its warnings can be shown beside an error): the Claude Code
// hierarchy for dir (or for --claude-settings=DIR) with --claude-settings,
// the --policy files placed as Claude Code places --settings; else the
// --policy files alone. The mode flag overrides defaultMode, --add-dir
// adds working directories, and the audit log joins the files the policy
// protects.
func (f *policyFlags) load(dir, auditLog string) (*loadedPolicy, error) {
	var p *policy.Policy
	var warnings []string
	var err error
	if f.claude != nil {
		project := *f.claude
		if project == "" {
			if project, err = startDir(dir); err != nil {
				return &loadedPolicy{}, err
			}
		}
		p, warnings, err = policy.LoadClaude(policy.ClaudeDirs{Project: project}, f.policies...)
	} else {
		p, warnings, err = policy.Load(f.policies...)
	}
	lp := &loadedPolicy{p: p, warnings: warnings}
	if err != nil {
		return lp, err
	}
	if f.mode != "" {
		if err := p.SetMode(policy.Mode(f.mode)); err != nil {
			return lp, err
		}
	}
	for _, d := range f.addDirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return lp, err
		}
		p.AdditionalDirectories = append(p.AdditionalDirectories, abs)
	}
	lp.sources = slices.Clone(p.Protect)
	if auditLog != "" {
		if abs, err := filepath.Abs(auditLog); err == nil {
			p.Protect = append(p.Protect, abs)
		}
	}
	return lp, nil
}

// sandboxFor is the boundary chains starting in dir run inside, nil when
// the sandbox is off (neither --sandbox nor the settings' sandbox.enabled)
// or, with a warning, when the system cannot confine and the settings do
// not set failIfUnavailable (then it is an error). p (nil without a
// policy) learns that its chains are confined, for
// autoAllowBashIfSandboxed.
func (f *policyFlags) sandboxFor(p *policy.Policy, dir string) (*sandbox.Boundary, []string, error) {
	if p == nil {
		p = &policy.Policy{}
		for _, d := range f.addDirs {
			abs, _ := filepath.Abs(d)
			p.AdditionalDirectories = append(p.AdditionalDirectories, abs)
		}
	}
	if !f.sandbox && !p.Sandbox.Enabled {
		return nil, nil, nil
	}
	if err := engine.SandboxAvailable(); err != nil {
		if p.Sandbox.FailIfUnavailable {
			return nil, nil, fmt.Errorf("%w: refusing to run unconfined (sandbox.failIfUnavailable)", err)
		}
		return nil, []string{err.Error() + "; chains run under the policy alone"}, nil
	}
	start, err := startDir(dir)
	if err != nil {
		return nil, nil, err
	}
	b := p.SandboxBoundary(start, os.TempDir())
	p.Sandboxed = b
	return b, nil, nil
}

// sandboxLines describe the boundary for --explain: what it holds and
// what only the policy's judgement guards.
func sandboxLines(b *sandbox.Boundary) []string {
	lines := []string{"sandbox: " + b.Describe()}
	for _, n := range engine.SandboxNotes(b) {
		lines = append(lines, "sandbox: "+n)
	}
	return lines
}

// policy is the loaded policy, nil when none was asked for.
func (lp *loadedPolicy) policy() *policy.Policy {
	if lp == nil {
		return nil
	}
	return lp.p
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
