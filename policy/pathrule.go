package policy

import (
	"path"
	"path/filepath"
	"strings"
)

// Read and Edit rules: Claude Code's file rules, which judge the paths a
// segment reads and writes (access.go says which are which). Their
// patterns follow Claude Code's gitignore-style syntax:
//
//	//path   absolute from the filesystem root (on Windows //c/Users/x is C:\Users\x)
//	~/path   from the home directory
//	/path    from the project root: the directory holding the settings file's .claude directory
//	./path   from the directory the chain starts in; so is a path with a slash inside
//	name     a name without a slash matches at any depth below the start directory
//
// "*" and "?" match within one path element, "**" any number of elements,
// and a pattern that matches a directory matches everything inside it.
// Matching is on the resolved path (symlinks and ".." followed), with the
// Windows spellings that name the same file (trailing dots and spaces,
// ::$DATA streams, drive letters in any case) reduced to one.

// PathRule is one Read or Edit rule.
type PathRule struct {
	// Text is the entry as written ("Read(./.env)", "Edit").
	Text string
	// Source names the settings file the rule came from.
	Source string
	// Tool is "Read" or "Edit"; Write(...) entries are Edit rules.
	Tool string
	// Pattern is the text inside the parentheses; "" (the bare tool)
	// matches every path.
	Pattern string
	// Base is the project root "/path" patterns are relative to; "" means
	// the directory the chain starts in.
	Base string
}

// String renders the rule for reasons: its text and where it came from.
func (r *PathRule) String() string {
	if r.Source != "" {
		return r.Text + " (" + r.Source + ")"
	}
	return r.Text
}

// parsePathRule reads "Read(...)", "Edit(...)", "Write(...)" and the bare
// tools; ok is false for anything else.
func parsePathRule(text string) (PathRule, bool) {
	t := strings.TrimSpace(text)
	for _, tool := range [...]string{"Read", "Edit", "Write"} {
		pat, found := "", false
		switch {
		case t == tool:
			found = true
		case strings.HasPrefix(t, tool+"(") && strings.HasSuffix(t, ")"):
			pat, found = strings.TrimSpace(t[len(tool)+1:len(t)-1]), true
		}
		if !found {
			continue
		}
		if tool == "Write" {
			tool = "Edit"
		}
		if pat == "*" || pat == "**" {
			pat = ""
		}
		return PathRule{Text: t, Tool: tool, Pattern: pat}, true
	}
	return PathRule{}, false
}

// pathKeys are the forms a path is matched in: slash-separated, a Windows
// drive as /c, Windows-equivalent spellings reduced, folded when the file
// system ignores case.
type pathKeys struct {
	home, start string
	fold        bool
	// windows reads "//etc/x", an absolute pattern without a drive, as
	// "\etc\x" on whichever drive the path is (see onAnyDrive).
	windows bool
}

// onAnyDrive is key as an absolute pattern pat matches it: on Windows a
// pattern that names no drive ("//etc/passwd") names that path on every
// drive, as "/etc/passwd" does on whatever drive a command runs from, so
// the key's drive ("/c") is dropped; a pattern that starts with a drive
// ("//c/x") keeps it.
func (k *pathKeys) onAnyDrive(key, pat string) string {
	if !k.windows || driveKey(strings.TrimPrefix(pat, "/")) {
		return key
	}
	if driveKey(key[min(1, len(key)):]) {
		return key[2:]
	}
	return key
}

// driveKey reports a key that starts with a drive element ("c", "c/x").
func driveKey(s string) bool {
	return len(s) >= 1 && isLetter(s[0]) && (len(s) == 1 || s[1] == '/')
}

// pathKey turns an absolute path into the form patterns match: forward
// slashes, "C:\x" as "/c/x", each element without the trailing dots and
// spaces and the ":stream" Windows ignores or reads as the same file. A
// path that needs none of it is returned as it is, without allocating.
func pathKey(p string, fold bool) string {
	if plainKey(p) {
		if fold {
			return lowerASCII(p)
		}
		return p
	}
	p = strings.ReplaceAll(p, `\`, "/")
	if len(p) >= 2 && p[1] == ':' && isLetter(p[0]) {
		p = "/" + strings.ToLower(p[:1]) + p[2:]
	}
	parts := strings.Split(p, "/")
	for i, e := range parts {
		parts[i] = winName(e)
	}
	p = strings.Join(parts, "/")
	if fold {
		p = strings.ToLower(p)
	}
	return p
}

// plainKey reports a path pathKey leaves as it is: no backslash, no
// colon, no element ending in a dot or a blank (but "." and "..").
func plainKey(p string) bool {
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '\\', ':':
			return false
		case '.', ' ':
			end := i+1 == len(p) || p[i+1] == '/'
			if end && !(c == '.' && (i == 0 || p[i-1] == '/' || p[i-1] == '.' && (i == 1 || p[i-2] == '/'))) {
				return false
			}
		}
	}
	return true
}

// lowerASCII lower-cases s, returning s itself when it has no upper case.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' || c >= 0x80 {
			return strings.ToLower(s)
		}
	}
	return s
}

// winName is a path element as Windows reads it: without an alternate
// data stream (":$DATA", ":name:$DATA") and trailing dots and spaces.
func winName(e string) string {
	if i := strings.IndexByte(e, ':'); i > 0 {
		e = e[:i]
	}
	if t := strings.TrimRight(e, ". "); t != "" && t != e && e != "." && e != ".." {
		return t
	}
	return e
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// anchor returns the directory key a pattern is relative to, the pattern
// without its anchor, and whether it matches at any depth (a bare name).
func (r *PathRule) anchor(k *pathKeys) (dir, pat string, anyDepth bool) {
	p := r.Pattern
	switch {
	case strings.HasPrefix(p, "//"):
		return "", p[1:], false
	case p == "~" || strings.HasPrefix(p, "~/"):
		return k.home, strings.TrimPrefix(p[1:], "/"), false
	case strings.HasPrefix(p, "/"):
		base := k.start
		if r.Base != "" {
			base = pathKey(r.Base, k.fold)
		}
		return base, p[1:], false
	case strings.HasPrefix(p, "./"):
		return k.start, p[2:], false
	}
	trimmed := strings.TrimSuffix(p, "/")
	return k.start, p, !strings.Contains(trimmed, "/")
}

// matches reports whether the rule covers key, a path in pathKey form.
func (r *PathRule) matches(key string, k *pathKeys) bool {
	if r.Pattern == "" {
		return true
	}
	dir, pat, anyDepth := r.anchor(k)
	if k.fold {
		pat = strings.ToLower(pat)
	}
	rel := key
	if dir == "" {
		rel = k.onAnyDrive(key, pat)
	} else {
		if key != dir && !strings.HasPrefix(key, strings.TrimSuffix(dir, "/")+"/") {
			return false
		}
		rel = strings.TrimPrefix(key[len(dir):], "/")
	}
	segs := splitSlash(rel)
	pats := splitSlash(pat)
	if anyDepth {
		for i := range segs {
			if segMatch(pats, segs[i:]) {
				return true
			}
		}
		return false
	}
	return segMatch(pats, segs)
}

func splitSlash(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == '/' })
}

// segMatch reports whether the pattern elements pats match the leading
// elements of segs: a pattern that matches a directory matches what is
// inside it.
func segMatch(pats, segs []string) bool {
	if len(pats) == 0 {
		return true
	}
	if pats[0] == "**" {
		for k := 0; k <= len(segs); k++ {
			if segMatch(pats[1:], segs[k:]) {
				return true
			}
		}
		return false
	}
	if len(segs) == 0 {
		return false
	}
	if ok, err := path.Match(pats[0], segs[0]); !ok || err != nil {
		return false
	}
	return segMatch(pats[1:], segs[1:])
}

// projectBase is the directory "/path" patterns of a settings file are
// relative to: the project holding its .claude directory, else the file's
// own directory.
func projectBase(file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	dir := filepath.Dir(abs)
	if filepath.Base(dir) == ".claude" {
		return filepath.Dir(dir)
	}
	return dir
}

// editSuggestion is the Edit rule that would allow writing abs: relative
// to the start directory when inside it, else absolute.
func editSuggestion(abs, start string) string {
	if rel, err := filepath.Rel(start, abs); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		return "Edit(./" + filepath.ToSlash(rel) + ")"
	}
	k := pathKey(abs, false)
	return "Edit(/" + k + ")"
}

// mayMatchUnder reports whether the rule could match a path inside the
// directory dirKey (pathKey form): a recursive read of dirKey may then
// read what the rule names.
func (r *PathRule) mayMatchUnder(dirKey string, k *pathKeys) bool {
	if r.Pattern == "" {
		return true
	}
	dir, pat, anyDepth := r.anchor(k)
	if k.fold {
		pat = strings.ToLower(pat)
	}
	if anyDepth {
		return keyWithin(dirKey, dir) || keyWithin(dir, dirKey)
	}
	if dir == "" {
		dirKey = k.onAnyDrive(dirKey, pat)
	}
	lit := dir
	for _, seg := range splitSlash(pat) {
		if strings.ContainsAny(seg, "*?[") {
			break
		}
		lit = strings.TrimSuffix(lit, "/") + "/" + seg
	}
	return keyWithin(lit, dirKey) || keyWithin(dirKey, lit)
}

// keyWithin reports whether the key p is dir or inside it.
func keyWithin(p, dir string) bool {
	dir = strings.TrimSuffix(dir, "/")
	return p == dir || dir == "" || strings.HasPrefix(p, dir+"/")
}
