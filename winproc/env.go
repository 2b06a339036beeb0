package winproc

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf16"
)

// envKey returns the name of a KEY=value entry. Windows keeps per-drive
// directories in hidden entries such as "=C:=C:\dir", whose name starts
// with '='.
func envKey(kv string) string {
	if i := strings.IndexByte(kv[min(1, len(kv)):], '='); i >= 0 {
		return kv[:i+min(1, len(kv))]
	}
	return kv
}

// pathLike names the variables whose values are lists: when a chain's
// environment holds several spellings (PATH and Path), their entries are
// merged in order rather than one spelling silently winning.
func pathLike(key string) bool {
	return strings.EqualFold(key, "PATH") || strings.EqualFold(key, "PATHEXT")
}

// MergeEnv folds env the way Windows sees it: names are case-insensitive,
// so of several spellings of one name the last value wins and the first
// spelling is kept, except for PATH and PATHEXT, whose entries are merged
// in order of appearance without duplicates. SYSTEMROOT is added from
// systemRoot when missing (many Windows components fail without it).
// The result is sorted case-insensitively, as CreateProcess expects.
func MergeEnv(env []string, systemRoot string) []string {
	type entry struct {
		key  string
		vals []string
	}
	var order []*entry
	byKey := map[string]*entry{}
	for _, kv := range env {
		k := envKey(kv)
		if k == "" {
			continue
		}
		v := strings.TrimPrefix(kv[len(k):], "=")
		up := strings.ToUpper(k)
		e, ok := byKey[up]
		if !ok {
			e = &entry{key: k}
			byKey[up] = e
			order = append(order, e)
		}
		if pathLike(k) {
			for _, p := range strings.Split(v, ";") {
				if p != "" && !slices.ContainsFunc(e.vals, func(q string) bool { return strings.EqualFold(p, q) }) {
					e.vals = append(e.vals, p)
				}
			}
			continue
		}
		e.vals = []string{v}
	}
	if _, ok := byKey["SYSTEMROOT"]; !ok && systemRoot != "" {
		order = append(order, &entry{key: "SYSTEMROOT", vals: []string{systemRoot}})
	}
	out := make([]string, 0, len(order))
	for _, e := range order {
		out = append(out, e.key+"="+strings.Join(e.vals, ";"))
	}
	slices.SortStableFunc(out, func(a, b string) int {
		return strings.Compare(strings.ToUpper(envKey(a)), strings.ToUpper(envKey(b)))
	})
	return out
}

// EnvBlock encodes a merged environment (see MergeEnv) as the UTF-16
// block CreateProcess takes with CREATE_UNICODE_ENVIRONMENT: each entry
// NUL-terminated, the block terminated by one more NUL. An entry holding a
// NUL is refused.
func EnvBlock(env []string) ([]uint16, error) {
	var block []uint16
	for _, kv := range env {
		if strings.IndexByte(kv, 0) >= 0 {
			return nil, fmt.Errorf("environment variable %q contains a NUL character", envKey(kv))
		}
		block = append(block, utf16.Encode([]rune(kv))...)
		block = append(block, 0)
	}
	if len(block) == 0 {
		block = append(block, 0) // an empty block is two NULs
	}
	return append(block, 0), nil
}
