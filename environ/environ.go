// Package environ is chainrun's one home for environment lists: KEY=value
// slices as os.Environ returns them, read and changed with the rules of
// the OS the chain runs on, and the Windows merging of PATH and PATHEXT.
//
// Every package that reads or edits an environment list goes through it
// (the runner's assignments and cd, program resolution, the Windows
// environment block, the CLI's --env), so a fix to how names compare or
// how search paths merge is made once.
//
// The rules are plain Go and OS-independent: Names chooses how names
// compare, and Host is the running OS's choice, so Linux tests cover the
// Windows rules.
package environ

import "strings"

// Names says how variable names compare.
type Names bool

const (
	// Exact compares names byte for byte, as POSIX does.
	Exact Names = false
	// Fold compares names ignoring ASCII case, as Windows does: Path and
	// PATH are one variable.
	Fold Names = true
)

// Cut splits a KEY=value entry. The separator is the first "=" after the
// first byte, because Windows keeps per-drive directories in entries whose
// name starts with "=" ("=C:=C:\work"). An entry without "=" is not a
// variable.
func Cut(kv string) (key, val string, ok bool) {
	if kv == "" {
		return "", "", false
	}
	i := strings.IndexByte(kv[1:], '=')
	if i < 0 {
		return "", "", false
	}
	return kv[:i+1], kv[i+2:], true
}

// Key returns the name of an entry ("" when it has no "=").
func Key(kv string) string {
	k, _, _ := Cut(kv)
	return k
}

// Equal reports whether two names are the same variable.
func (n Names) Equal(a, b string) bool {
	if n == Fold {
		return equalFoldASCII(a, b)
	}
	return a == b
}

// equalFoldASCII compares ignoring ASCII case only: Windows folds
// environment names with its own upper-case table, and for the names
// programs use, ASCII folding is what matters; non-ASCII bytes must match.
func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lowerASCII(a[i]) != lowerASCII(b[i]) {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// is reports whether entry kv names key.
func (n Names) is(kv, key string) bool {
	return len(kv) > len(key) && kv[len(key)] == '=' && n.Equal(kv[:len(key)], key)
}

// Get returns the value of key; of several entries for it, the last wins,
// as in os.Getenv and for a child process.
func (n Names) Get(env []string, key string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if n.is(env[i], key) {
			return env[i][len(key)+1:], true
		}
	}
	return "", false
}

// Values returns the value of every entry for key, in env order (all
// spellings of PATH on Windows, for instance).
func (n Names) Values(env []string, key string) []string {
	var vals []string
	for _, kv := range env {
		if n.is(kv, key) {
			vals = append(vals, kv[len(key)+1:])
		}
	}
	return vals
}

// Set returns a copy of env with key set to val: the first entry for key
// is replaced in place and any later ones dropped, so no older spelling
// can shadow the new value; an absent key is appended. env is not changed.
func (n Names) Set(env []string, key, val string) []string {
	out := make([]string, 0, len(env)+1)
	done := false
	for _, kv := range env {
		if !n.is(kv, key) {
			out = append(out, kv)
		} else if !done {
			out, done = append(out, key+"="+val), true
		}
	}
	if !done {
		out = append(out, key+"="+val)
	}
	return out
}

// Unset returns a copy of env without any entry for key.
func (n Names) Unset(env []string, key string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !n.is(kv, key) {
			out = append(out, kv)
		}
	}
	return out
}

// With returns a copy of env with the KEY=value entries of sets in force:
// every older entry of their names is dropped and sets are appended in
// order, the last of several for one name winning. This is how a
// command's leading assignments (LANG=C sort) and the CLI's --env apply.
// env is not changed.
func (n Names) With(env []string, sets ...string) []string {
	out := make([]string, 0, len(env)+len(sets))
	for _, kv := range env {
		if !n.setBy(kv, sets) {
			out = append(out, kv)
		}
	}
	for i, kv := range sets {
		if !n.setBy(kv, sets[i+1:]) {
			out = append(out, kv)
		}
	}
	return out
}

// setBy reports whether one of sets names the variable of entry kv.
func (n Names) setBy(kv string, sets []string) bool {
	k := Key(kv)
	for _, s := range sets {
		if n.Equal(Key(s), k) {
			return true
		}
	}
	return false
}
