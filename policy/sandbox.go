package policy

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/sandbox"
)

// SandboxBoundary is the boundary chains started in startDir are confined
// to, as Claude Code builds its sandbox from the settings: writable are
// the roots (start directory or roots, and the additional directories),
// tmp, sandbox.filesystem.allowWrite and the paths of Edit allow rules;
// denied writes are denyWrite, the paths of Edit deny rules and the files
// the judgement depends on (Protect); denied reads are denyRead and the
// paths of Read deny rules. A rule whose pattern names no fixed path
// ("Read(**/.env)", "Edit(*.key)") cannot become a kernel rule: the
// boundary's notes say so, and the policy's judgement alone guards it.
func (p *Policy) SandboxBoundary(startDir, tmp string) *sandbox.Boundary {
	env := &pathEnv{p: p, startDir: startDir}
	env.init()
	c := p.Sandbox
	c.AllowWrite = append([]string{}, c.AllowWrite...)
	c.DenyWrite = append(append([]string{}, c.DenyWrite...), p.Protect...)
	c.DenyRead = append([]string{}, c.DenyRead...)
	var notes []string
	for _, l := range []struct {
		rules []PathRule
		tool  string
		dst   *[]string
		gap   string
	}{
		{p.PathAllow, "Edit", &c.AllowWrite, "the sandbox is not widened for it"},
		{p.PathDeny, "Edit", &c.DenyWrite, "the kernel cannot hold it, the policy's judgement alone does"},
		{p.PathDeny, "Read", &c.DenyRead, "the kernel cannot hold it, the policy's judgement alone does"},
	} {
		for i := range l.rules {
			r := &l.rules[i]
			if r.Tool != l.tool {
				continue
			}
			if path, ok := rulePath(r, startDir, env.home); ok {
				*l.dst = append(*l.dst, path)
			} else {
				notes = append(notes, "rule "+r.String()+" names no fixed path: "+l.gap)
			}
		}
	}
	b := sandbox.New(&c, env.roots, tmp)
	b.Notes = append(b.Notes, notes...)
	return b
}

// rulePath is the file or tree a Read or Edit rule's pattern names, when
// it names one: no wildcard but a trailing "/**" (the tree), and a slash
// in it, since a bare name matches at any depth. The bare tool is "/".
func rulePath(r *PathRule, startDir, home string) (string, bool) {
	pat := strings.TrimSuffix(r.Pattern, "/**")
	switch {
	case r.Pattern == "":
		return string(filepath.Separator), true
	case strings.ContainsAny(pat, "*?[{"), !strings.Contains(pat, "/"):
		return "", false
	case strings.HasPrefix(pat, "//"):
		return filepath.Clean(filepath.FromSlash(pat[1:])), true
	case strings.HasPrefix(pat, "~/"):
		return filepath.Join(home, pat[2:]), home != ""
	case strings.HasPrefix(pat, "/"):
		base := r.Base
		if base == "" {
			base = startDir
		}
		return filepath.Join(base, pat), true
	}
	return filepath.Join(startDir, pat), true
}

// autoAllowSandboxed is Claude Code's first step for a sandboxed command
// with autoAllowBashIfSandboxed: what no deny rule stops runs. Here, as
// its step keeps them, a deny (a rule, a Read or Edit deny) stays a deny
// and the hard asks stay asks: ask rules, shells and code-running
// variables, sensitive paths (settings files, the audit log), programs
// known only at run time, a move the chain asked about, and the
// chain-wide asks. What it allows is a segment that asked only for want
// of a rule (an allow rule, an Edit rule for a write inside the roots):
// an unknown program among them, whose writes the kernel now confines.
// Segments the excludedCommands name run outside the sandbox and keep the
// normal verdict.
func (p *Policy) autoAllowSandboxed(segs []*chain.Segment, d *chain.Decision, facts []segFacts) {
	if p.Sandboxed == nil || !p.Sandbox.AutoAllow() {
		return
	}
	for i := range d.Segments {
		sd, f := &d.Segments[i], &facts[i]
		if sd.Verdict != chain.Ask || !f.suggest || f.hard || f.runtime || f.moved || p.Sandboxed.Excludes(segs[i].Args) {
			continue
		}
		sd.Verdict = chain.Allow
		sd.Reasons = append(sd.Reasons, "sandbox: allowed without a rule (autoAllowBashIfSandboxed): it runs inside the sandbox, which confines its writes")
		f.suggest = false
	}
}

// homeDir is the home directory "~/" settings paths start from.
func homeDir() string {
	h, _ := os.UserHomeDir()
	return h
}
