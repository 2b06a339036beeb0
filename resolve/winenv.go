package resolve

import "strings"

// DefaultPathExt is the extension list used when the environment has no
// (or an empty) PATHEXT, as cmd.exe and Go's LookPath do.
const DefaultPathExt = ".COM;.EXE;.BAT;.CMD"

// cutWinEnv splits a KEY=value entry. Windows keys may begin with "="
// (the per-drive current directories, "=C:=C:\work"), so the separator is
// the first "=" after the first byte.
func cutWinEnv(kv string) (key, val string, ok bool) {
	if kv == "" {
		return "", "", false
	}
	i := strings.IndexByte(kv[1:], '=')
	if i < 0 {
		return "", "", false
	}
	return kv[:i+1], kv[i+2:], true
}

// winEnvValues returns the values of every variant of key (compared
// case-insensitively) in env order.
func winEnvValues(env []string, key string) []string {
	var vals []string
	for _, kv := range env {
		if k, v, ok := cutWinEnv(kv); ok && strings.EqualFold(k, key) {
			vals = append(vals, v)
		}
	}
	return vals
}

// splitWinList splits a PATH-style list on ";" outside double quotes.
// Entries keep their quotes (unquoteWin removes them); empty entries are
// dropped, as Windows skips them.
func splitWinList(list string) []string {
	var out []string
	start, quoted := 0, false
	for i := 0; i <= len(list); i++ {
		if i < len(list) && list[i] == '"' {
			quoted = !quoted
			continue
		}
		if i == len(list) || (list[i] == ';' && !quoted) {
			if e := list[start:i]; strings.Trim(e, `"`) != "" {
				out = append(out, e)
			}
			start = i + 1
		}
	}
	return out
}

func unquoteWin(e string) string { return strings.ReplaceAll(e, `"`, "") }

// mergeWinLists concatenates lists in order and drops repeated entries,
// comparing them case-insensitively without quotes or trailing
// separators; the first occurrence is kept verbatim.
func mergeWinLists(lists []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range lists {
		for _, e := range splitWinList(l) {
			k := strings.ToLower(strings.TrimRight(unquoteWin(e), `\/`))
			if k == "" {
				k = unquoteWin(e)
			}
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, e)
		}
	}
	return out
}

// winPathDirs returns the directories of every PATH variant (Path, PATH,
// path, …) in env order, unquoted and de-duplicated.
func winPathDirs(env []string) []string {
	dirs := mergeWinLists(winEnvValues(env, "PATH"))
	for i, d := range dirs {
		dirs[i] = unquoteWin(d)
	}
	return dirs
}

// winPathExts returns the lowercased extensions to try, each with its
// leading dot, from every PATHEXT variant; DefaultPathExt if none.
func winPathExts(env []string) []string {
	var exts []string
	seen := map[string]bool{}
	for _, e := range mergeWinLists(winEnvValues(env, "PATHEXT")) {
		e = strings.ToLower(strings.TrimSpace(unquoteWin(e)))
		if e == "" || e == "." {
			continue
		}
		if e[0] != '.' {
			e = "." + e
		}
		if !seen[e] {
			seen[e] = true
			exts = append(exts, e)
		}
	}
	if len(exts) == 0 {
		return winPathExts([]string{"PATHEXT=" + DefaultPathExt})
	}
	return exts
}

// MergeWindowsEnv returns env with every case variant of PATH merged into
// one "Path" entry and every variant of PATHEXT into one "PATHEXT" entry,
// each at the place of its first variant. Values are concatenated in env
// order and repeated directories dropped (first wins, compared
// case-insensitively), so no directory of any variant is lost. A Windows
// child sees exactly the search path the resolver used. Variables that
// are absent stay absent; other keys are returned untouched.
func MergeWindowsEnv(env []string) []string {
	out := make([]string, 0, len(env))
	pathAt, extAt := -1, -1
	var paths, exts []string
	for _, kv := range env {
		k, v, ok := cutWinEnv(kv)
		switch {
		case ok && strings.EqualFold(k, "PATH"):
			if pathAt < 0 {
				pathAt = len(out)
				out = append(out, "")
			}
			paths = append(paths, v)
		case ok && strings.EqualFold(k, "PATHEXT"):
			if extAt < 0 {
				extAt = len(out)
				out = append(out, "")
			}
			exts = append(exts, v)
		default:
			out = append(out, kv)
		}
	}
	if pathAt >= 0 {
		out[pathAt] = "Path=" + strings.Join(mergeWinLists(paths), ";")
	}
	if extAt >= 0 {
		out[extAt] = "PATHEXT=" + strings.Join(mergeWinLists(exts), ";")
	}
	return out
}
