package environ

import "strings"

// DefaultPathExt is the extension list used when the environment has no
// (or an empty) PATHEXT, as cmd.exe and Go's LookPath do.
const DefaultPathExt = ".COM;.EXE;.BAT;.CMD"

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

// WindowsPathDirs returns the directories of every PATH variant (Path,
// PATH, path, …) in env order, unquoted and de-duplicated: where Windows
// looks for programs.
func WindowsPathDirs(env []string) []string {
	dirs := mergeWinLists(Fold.Values(env, "PATH"))
	for i, d := range dirs {
		dirs[i] = unquoteWin(d)
	}
	return dirs
}

// WindowsPathExts returns the lowercased extensions to try, each with its
// leading dot, from every PATHEXT variant; DefaultPathExt if none.
func WindowsPathExts(env []string) []string {
	var exts []string
	seen := map[string]bool{}
	for _, e := range mergeWinLists(Fold.Values(env, "PATHEXT")) {
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
		return WindowsPathExts([]string{"PATHEXT=" + DefaultPathExt})
	}
	return exts
}

// MergeWindows returns env with every case variant of PATH merged into
// one "Path" entry and every variant of PATHEXT into one "PATHEXT" entry,
// each at the place of its first variant. Values are concatenated in env
// order and repeated directories dropped (first wins, compared
// case-insensitively), so no directory of any variant is lost. A Windows
// child sees exactly the search path the resolver used. Variables that
// are absent stay absent; other keys are returned untouched.
func MergeWindows(env []string) []string {
	out := make([]string, 0, len(env))
	pathAt, extAt := -1, -1
	var paths, exts []string
	for _, kv := range env {
		k, v, ok := Cut(kv)
		switch {
		case ok && Fold.Equal(k, "PATH"):
			if pathAt < 0 {
				pathAt = len(out)
				out = append(out, "")
			}
			paths = append(paths, v)
		case ok && Fold.Equal(k, "PATHEXT"):
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
