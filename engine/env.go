package engine

import "github.com/chainrun/chainrun/chain"

// withAssigns returns env with the segment's NAME=value words set.
func withAssigns(env []string, as []chain.Assign) []string {
	out := make([]string, 0, len(env)+len(as))
outer:
	for _, kv := range env {
		for _, a := range as {
			if len(kv) > len(a.Name) && kv[len(a.Name)] == '=' && envKeyEqual(kv[:len(a.Name)], a.Name) {
				continue outer
			}
		}
		out = append(out, kv)
	}
	for i, a := range as {
		dup := false
		for _, b := range as[i+1:] {
			if envKeyEqual(b.Name, a.Name) {
				dup = true
			}
		}
		if !dup {
			out = append(out, a.Name+"="+a.Value)
		}
	}
	return out
}

// lookup returns the last value of key in env.
func lookup(env []string, key string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		kv := env[i]
		if len(kv) > len(key) && kv[len(key)] == '=' && envKeyEqual(kv[:len(key)], key) {
			return kv[len(key)+1:], true
		}
	}
	return "", false
}

// setEnv sets key in the chain's environment, copying the caller's slice
// first.
func (r *runner) setEnv(key, val string) {
	if !r.envMy {
		r.env = append([]string(nil), r.env...)
		r.envMy = true
	}
	kv := key + "=" + val
	for i, e := range r.env {
		if len(e) > len(key) && e[len(key)] == '=' && envKeyEqual(e[:len(key)], key) {
			r.env[i] = kv
			return
		}
	}
	r.env = append(r.env, kv)
}
