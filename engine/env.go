package engine

import (
	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/environ"
)

// withAssigns returns env with the segment's NAME=value words set, as a
// command's leading assignments are (LANG=C sort).
func withAssigns(env []string, as []chain.Assign) []string {
	sets := make([]string, len(as))
	for i, a := range as {
		sets[i] = a.Name + "=" + a.Value
	}
	return environ.Host.With(env, sets...)
}

// lookup returns the value of key in env, as a child would see it.
func lookup(env []string, key string) (string, bool) { return environ.Host.Get(env, key) }

// setEnv sets key in the chain's environment (PWD and OLDPWD after cd);
// the caller's slice is never changed.
func (r *runner) setEnv(key, val string) { r.env = environ.Host.Set(r.env, key, val) }
