package winproc

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf16"

	"github.com/chainrun/chainrun/environ"
)

// MergeEnv folds env the way Windows sees it. Names are case-insensitive,
// so of several spellings of one name the last value wins and the first
// spelling is kept; PATH and PATHEXT are first merged by
// environ.MergeWindows, so the child searches exactly the directories the
// resolver searched. SYSTEMROOT is added from systemRoot when missing (many
// Windows components fail without it). The result is sorted
// case-insensitively, as CreateProcess expects.
func MergeEnv(env []string, systemRoot string) []string {
	env = environ.MergeWindows(env)
	out := make([]string, 0, len(env)+1)
	at := map[string]int{} // upper-cased name → index in out
	for _, kv := range env {
		k, v, ok := environ.Cut(kv)
		if !ok {
			continue
		}
		up := strings.ToUpper(k)
		if i, seen := at[up]; seen {
			out[i] = environ.Key(out[i]) + "=" + v
			continue
		}
		at[up] = len(out)
		out = append(out, kv)
	}
	if _, ok := at["SYSTEMROOT"]; !ok && systemRoot != "" {
		out = append(out, "SYSTEMROOT="+systemRoot)
	}
	slices.SortStableFunc(out, func(a, b string) int {
		return strings.Compare(strings.ToUpper(environ.Key(a)), strings.ToUpper(environ.Key(b)))
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
			return nil, fmt.Errorf("environment variable %q contains a NUL character", environ.Key(kv))
		}
		block = append(block, utf16.Encode([]rune(kv))...)
		block = append(block, 0)
	}
	if len(block) == 0 {
		block = append(block, 0) // an empty block is two NULs
	}
	return append(block, 0), nil
}
