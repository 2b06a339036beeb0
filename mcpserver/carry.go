package mcpserver

import (
	"maps"
	"os"
	"slices"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/environ"
	"github.com/chainrun/chainrun/policy"
)

// Variables carry over between calls as the directory does: what a
// foreground chain exported, unset or set (NAME=value) at its top level
// applies to the session's later calls, in the order chains finish. The
// session keeps the changes, not whole environments, so a call's own env
// argument applies to that call only, and two concurrent chains that set
// different names both carry over.

// varChange is one carried variable: its value, or unset.
type varChange struct {
	Value string
	Unset bool
}

// judged is the authorizer a call's chain is judged by: a policy learns
// the environment the chain starts with (env; nil is the server's), and
// judges the variables the call's env argument sets as it judges NAME=v in
// front of every command (policy.ForEnv), so that channel passes no
// variable off the safe-list unasked. Variables carried from earlier calls
// are in env, so the policy knows they are exported, but are not judged
// again: each was judged, and approved where it asked, in the chain whose
// export set it (only a foreground chain's exports carry), so asking on
// every later call would repeat a question already answered. The chain's
// directory is judged as a cd from where the session started (move).
func judged(a chain.Authorizer, env []string, set map[string]string, m policy.Move) chain.Authorizer {
	p, ok := a.(*policy.Policy)
	if !ok {
		return a
	}
	given := make(map[string]string, len(set))
	for k := range set {
		given[k] = "the env argument"
	}
	return p.ForEnv(env, given).After(m)
}

// move is how a chain starting in dir got there from the directory the
// session started in, for the policy: by the call's dir argument (arg),
// judged as a cd to it is, or by the cd's of earlier calls, judged in
// their chains already, which still count as a cd before the chain: git
// after a cd obeys the new directory's repository configuration, whether
// the cd was in the chain or in the call before it. A chain that starts
// where the session did moved nowhere.
func (s *session) move(arg, dir string) policy.Move {
	m := policy.Move{From: s.srv.cfg.Dir, To: dir, Via: "the call's dir argument"}
	if arg == "" {
		m.Via, m.Judged = "the session's directory (a cd in an earlier call)", true
	}
	return m
}

// sessionEnv is the environment a call starts from: the server's, with
// the variables earlier chains exported or unset applied.
func (st state) sessionEnv(base []string) []string {
	if len(st.Exports) == 0 {
		return base
	}
	if base == nil {
		base = os.Environ()
	}
	env := slices.Clone(base)
	for _, k := range slices.Sorted(maps.Keys(st.Exports)) {
		if ch := st.Exports[k]; ch.Unset {
			env = environ.Host.Unset(env, k)
		} else {
			env = environ.Host.Set(env, k, ch.Value)
		}
	}
	return env
}

// carryVars records what the chain changed in its environment and shell
// variables, relative to how it started; s.mu is held.
func (s *session) carryVars(opts engine.Options, res *engine.Result) {
	start := opts.Env
	if start == nil {
		start = os.Environ()
	}
	for k, ch := range envChanges(start, res.Env) {
		if k == "PWD" || k == "OLDPWD" {
			continue // the directory carries over on its own
		}
		if s.st.Exports == nil {
			s.st.Exports = map[string]varChange{}
		}
		s.st.Exports[k] = ch
	}
	for k, ch := range varChanges(opts.Vars, res.Vars) {
		if ch.Unset {
			delete(s.st.Vars, k)
			continue
		}
		if s.st.Vars == nil {
			s.st.Vars = map[string]string{}
		}
		s.st.Vars[k] = ch.Value
	}
}

// envChanges compares two environments by name.
func envChanges(from, to []string) map[string]varChange {
	return varChanges(envMap(from), envMap(to))
}

func envMap(env []string) map[string]string {
	m := make(map[string]string, len(env))
	for _, kv := range env {
		if k, v, ok := environ.Cut(kv); ok {
			m[k] = v
		}
	}
	return m
}

func varChanges(from, to map[string]string) map[string]varChange {
	out := map[string]varChange{}
	for k, v := range to {
		if old, ok := from[k]; !ok || old != v {
			out[k] = varChange{Value: v}
		}
	}
	for k := range from {
		if _, ok := to[k]; !ok {
			out[k] = varChange{Unset: true}
		}
	}
	return out
}
