package policy

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/chain"
)

// pathEnv judges paths for one Authorize call: the roots and the home
// directory, resolved once and only when a path needs judging.
type pathEnv struct {
	p        *Policy
	startDir string
	resolved bool
	home     string
	roots    []string
	// homeSlash is home with forward slashes and a trailing slash.
	homeSlash string
}

func (e *pathEnv) init() {
	if e.resolved {
		return
	}
	e.resolved = true
	home := e.p.Home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if home != "" {
		e.home = cachedResolve(home)
		e.homeSlash = foldCase(filepath.ToSlash(e.home))
		if !strings.HasSuffix(e.homeSlash, "/") {
			e.homeSlash += "/"
		}
	}
	roots := e.p.Roots
	if len(roots) == 0 {
		roots = []string{e.startDir}
	}
	for _, r := range roots {
		if !filepath.IsAbs(r) {
			r = filepath.Join(e.startDir, r)
		}
		e.roots = append(e.roots, cachedResolve(r))
	}
}

// rootCache holds resolved roots, home and start directories: they are
// judged against on every call and rarely change.
var rootCache struct {
	sync.Mutex
	m map[string]string
}

func cachedResolve(p string) string {
	rootCache.Lock()
	r, ok := rootCache.m[p]
	rootCache.Unlock()
	if ok {
		return r
	}
	r = resolvePath(p)
	rootCache.Lock()
	if rootCache.m == nil || len(rootCache.m) > 256 {
		rootCache.m = make(map[string]string)
	}
	rootCache.m[p] = r
	rootCache.Unlock()
	return r
}

// resolve makes p absolute against cwd (itself resolved), expands a
// leading ~ and resolves symlinks along the longest existing prefix, and
// "..".
func (e *pathEnv) resolve(cwd, p string) string {
	e.init()
	switch {
	case p == "~":
		return e.home
	case strings.HasPrefix(p, "~/") || strings.HasPrefix(p, `~\`):
		return resolveFrom(e.home, p[2:])
	}
	if filepath.IsAbs(p) {
		return resolvePath(p)
	}
	if runtime.GOOS == "windows" && (strings.HasPrefix(p, `\`) || strings.HasPrefix(p, "/")) {
		// Rooted but not absolute: on the current directory's drive.
		return resolvePath(filepath.VolumeName(cwd) + p)
	}
	return resolveFrom(cwd, p)
}

// resolvePath walks an absolute path one element at a time: ".." goes to
// the parent of what has been resolved so far (as the OS does after a
// symlink), symlinks are followed, and the rest of a path that does not
// exist is joined as written.
func resolvePath(p string) string {
	vol := filepath.VolumeName(p)
	return resolveFrom(vol+string(filepath.Separator), p[len(vol):])
}

// resolveFrom resolves the relative path rest against cur, a directory
// already resolved.
func resolveFrom(cur, rest string) string {
	parts := strings.FieldsFunc(rest, func(r rune) bool { return r == '/' || r == filepath.Separator })
	for i, part := range parts {
		if part == "." {
			continue
		}
		if part == ".." {
			cur = filepath.Dir(cur)
			continue
		}
		next := cur + string(filepath.Separator) + part
		if strings.HasSuffix(cur, string(filepath.Separator)) {
			next = cur + part
		}
		fi, err := os.Lstat(next)
		if err != nil {
			return filepath.Clean(filepath.Join(append([]string{next}, parts[i+1:]...)...))
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			t, err := filepath.EvalSymlinks(next)
			if err != nil {
				return filepath.Clean(filepath.Join(append([]string{next}, parts[i+1:]...)...))
			}
			next = t
		}
		cur = next
	}
	return filepath.Clean(cur)
}

func foldCase(s string) string {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		return strings.ToLower(s)
	}
	return s
}

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	p, dir = foldCase(p), foldCase(dir)
	if p == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(p, dir)
}

func (e *pathEnv) inRoots(p string) bool {
	e.init()
	for _, r := range e.roots {
		if within(p, r) {
			return true
		}
	}
	return false
}

// sensitiveInHome says why rel, a path relative to the home directory,
// holds credentials or configuration that runs code when a shell or tool
// starts, or "".
func sensitiveInHome(rel string) string {
	first, rest, _ := strings.Cut(rel, "/")
	switch first {
	case ".ssh":
		return "ssh keys and config"
	case ".aws", ".azure":
		return "cloud credentials"
	case ".gnupg":
		return "gpg keys"
	case ".netrc", ".git-credentials", ".pypirc":
		return "credentials"
	case ".docker":
		return "registry credentials"
	case ".kube":
		return "cluster credentials"
	case ".npmrc":
		return "npm credentials and settings"
	case ".gitconfig":
		return "git configuration that can run programs"
	case ".config":
		switch second, _, _ := strings.Cut(rest, "/"); second {
		case "gh":
			return "GitHub credentials"
		case "gcloud":
			return "cloud credentials"
		case "git":
			return "git configuration that can run programs"
		case "fish":
			return "shell start-up files"
		}
	}
	return ""
}

// sensitiveName says why a file name is sensitive wherever it is, or "".
func sensitiveName(base string) string {
	switch base {
	case ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zprofile", ".zshenv",
		".zlogin", ".zlogout", ".inputrc", ".cshrc", ".tcshrc", ".kshrc":
		return "a shell start-up file"
	case ".netrc", ".git-credentials":
		return "credentials"
	case ".npmrc":
		return "npm credentials and settings"
	case ".env":
		return "secrets"
	case ".envrc":
		return "a direnv script"
	}
	return ""
}

// sensitiveDir says why a directory name's contents are sensitive
// anywhere (agent and editor settings that grant permissions or run
// tasks, keys), or "".
func sensitiveDir(name string) string {
	switch name {
	case ".claude", ".codex", ".gemini", ".cursor":
		return "agent settings"
	case ".vscode":
		return "editor settings that can run tasks"
	case ".ssh":
		return "ssh keys and config"
	case ".aws":
		return "cloud credentials"
	case ".gnupg":
		return "gpg keys"
	case ".husky":
		return "git hooks"
	}
	return ""
}

// sensitive says why p (resolved) is sensitive, or "".
func (e *pathEnv) sensitive(p string) string {
	e.init()
	fp := foldCase(filepath.ToSlash(p))
	if e.homeSlash != "" && strings.HasPrefix(fp, e.homeSlash) {
		if why := sensitiveInHome(fp[len(e.homeSlash):]); why != "" {
			return why
		}
	}
	rest, prev, base := fp, "", ""
	for rest != "" {
		part := rest
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			part, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		if part == "" {
			continue
		}
		if part[0] == '.' {
			if why := sensitiveDir(part); why != "" {
				return why
			}
		}
		if prev == ".git" && (part == "hooks" || part == "config") {
			return "git " + part + " (runs programs)"
		}
		prev, base = part, part
	}
	if why := sensitiveName(base); why != "" {
		return why
	}
	if strings.HasPrefix(base, ".env.") {
		return "secrets"
	}
	if strings.HasPrefix(base, "id_") {
		for _, k := range []string{"id_rsa", "id_ed25519", "id_ecdsa", "id_dsa"} {
			if strings.HasPrefix(base, k) {
				return "an ssh key"
			}
		}
	}
	if strings.HasSuffix(base, ".pem") || strings.HasSuffix(base, ".p12") || strings.HasSuffix(base, ".pfx") {
		return "a private key or certificate"
	}
	switch {
	case strings.HasPrefix(fp, "/proc/") && (base == "environ" || base == "mem" || base == "cmdline" || base == "auxv"):
		return "another process's environment or memory"
	case strings.HasPrefix(fp, "/dev/tcp/") || strings.HasPrefix(fp, "/dev/udp/"):
		return "a network connection"
	case fp == "/etc/shadow" || fp == "/etc/gshadow" || fp == "/etc/sudoers" || strings.HasPrefix(fp, "/etc/sudoers.d/"):
		return "system credentials"
	}
	return ""
}

// neutralOut are output targets that write nowhere on disk.
func neutralOut(t string) bool {
	switch t {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/fd/1", "/dev/fd/2":
		return true
	}
	if runtime.GOOS == "windows" {
		l := strings.ToLower(t)
		if l == "nul" || strings.HasPrefix(l, "nul.") || l == `\\.\nul` {
			return true
		}
	}
	return false
}

// neutralIn are input devices that read nothing from disk.
func neutralIn(t string) bool {
	switch t {
	case "/dev/null", "/dev/zero", "/dev/random", "/dev/urandom", "/dev/stdin", "/dev/fd/0":
		return true
	}
	return neutralOut(t)
}

// pathNote is one judged path: why it asks, or that it was found fine.
type pathNote struct {
	msg string
	ask bool
}

// judgeRedirect checks one redirect; it returns the note (none for the
// null device and fd dups) and whether it writes a file.
func (e *pathEnv) judgeRedirect(cwd string, r chain.Redirect) (*pathNote, bool) {
	switch r.Op {
	case chain.RedirDupOut, chain.RedirDupIn:
		if isFdWord(r.Target) {
			return nil, false
		}
	case chain.RedirIn:
		if neutralIn(r.Target) {
			return nil, false
		}
		n := e.judgePath(cwd, r.Target, "input redirect")
		return &n, false
	}
	if neutralOut(r.Target) {
		return nil, false
	}
	n := e.judgePath(cwd, r.Target, "output redirect")
	return &n, true
}

func isFdWord(s string) bool {
	if s == "-" {
		return true
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// judgePath asks about a sensitive path or one outside the roots.
func (e *pathEnv) judgePath(cwd, p, what string) pathNote {
	abs := e.resolve(cwd, p)
	if why := e.sensitive(abs); why != "" {
		return pathNote{what + " " + quoteArg(p) + " is sensitive: " + why, true}
	}
	if !e.inRoots(abs) {
		return pathNote{what + " " + quoteArg(p) + " resolves outside the roots (" + abs + ")", true}
	}
	return pathNote{what + " " + quoteArg(p) + " is inside the roots", false}
}

// dangerousRemoval reports a removal target that is /, the home
// directory, a root, or a parent of one.
func (e *pathEnv) dangerousRemoval(abs string) bool {
	e.init()
	if abs == filepath.VolumeName(abs)+string(filepath.Separator) || (e.home != "" && within(e.home, abs)) {
		return true
	}
	for _, r := range e.roots {
		if within(r, abs) {
			return true
		}
	}
	return false
}

// isFileCommand reports programs whose operands are paths: all of them for
// most, all but the first (a mode or owner) for chmod, chown and chgrp.
func isFileCommand(name string) bool {
	switch name {
	case "cp", "mv", "rm", "rmdir", "touch", "mkdir", "ln", "tee", "install", "truncate", "shred", "unlink",
		"cat", "head", "tail", "less", "more", "chmod", "chown", "chgrp", "del", "erase", "rd", "copy", "move",
		"mklink":
		return true
	}
	return false
}

// isWriteCommand reports programs that change files.
func isWriteCommand(name string) bool {
	switch name {
	case "cp", "mv", "rm", "rmdir", "touch", "mkdir", "ln", "tee", "install", "truncate", "shred", "unlink",
		"chmod", "chown", "chgrp", "del", "erase", "rd", "copy", "move", "mklink", "dd":
		return true
	}
	return false
}

// isRemoveCommand reports programs that remove their operands.
func isRemoveCommand(name string) bool {
	switch name {
	case "rm", "rmdir", "unlink", "shred", "del", "erase", "rd":
		return true
	}
	return false
}

// isPatternCommand reports programs that take a script or pattern as their
// first operand, unless it is given with -e or -f.
func isPatternCommand(name string) bool {
	switch name {
	case "sed", "gsed", "awk", "gawk", "mawk", "nawk", "grep", "egrep", "fgrep", "rg", "jq":
		return true
	}
	return false
}

// patternFirst reports a command whose first operand is a pattern, so it is
// not judged as a path ("sed /x/d f").
func patternFirst(args []string) bool {
	if !isPatternCommand(args[0]) {
		return false
	}
	for _, a := range args[1:] {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "-e") || strings.HasPrefix(a, "-f") || strings.HasPrefix(a, "--expression") ||
			strings.HasPrefix(a, "--regexp") || strings.HasPrefix(a, "--file") || strings.HasPrefix(a, "--source") {
			return false
		}
	}
	return true
}

// isPathLike reports an argument that names a path whatever the program:
// absolute, home-relative or climbing with "..".
func isPathLike(a string) bool {
	if a == "" {
		return false
	}
	if a[0] == '/' || a[0] == '~' || a[0] == '\\' {
		return true
	}
	if len(a) >= 3 && a[1] == ':' && (a[2] == '\\' || a[2] == '/') {
		return true
	}
	return a == ".." || strings.HasPrefix(a, "../") || strings.HasPrefix(a, `..\`) ||
		strings.Contains(a, "/../") || strings.Contains(a, `\..\`) || strings.HasSuffix(a, "/..")
}

// judgeArgs checks the path-like arguments of one command; it returns a
// note per path and whether the command writes files.
func (e *pathEnv) judgeArgs(cwd string, args []string) (notes []pathNote, writes bool) {
	name := args[0]
	fileCmd := isFileCommand(name)
	writes = isWriteCommand(name)
	remove := isRemoveCommand(name)
	skipFirst := name == "chmod" || name == "chown" || name == "chgrp" || patternFirst(args)
	operands := false
	for _, a := range args[1:] {
		if !operands && a == "--" {
			operands = true
			continue
		}
		if !operands && strings.HasPrefix(a, "-") && len(a) > 1 {
			if _, v, ok := strings.Cut(a, "="); ok && isPathLike(v) {
				notes = append(notes, e.judgePath(cwd, v, "path"))
			}
			continue
		}
		if name == "dd" {
			if k, v, ok := strings.Cut(a, "="); ok && (k == "if" || k == "of") {
				notes = append(notes, e.judgePath(cwd, v, "dd "+k+"="))
			}
			continue
		}
		if skipFirst {
			skipFirst = false
			continue
		}
		if !fileCmd && !isPathLike(a) {
			continue
		}
		if remove {
			if abs := e.resolve(cwd, a); e.dangerousRemoval(abs) {
				notes = append(notes, pathNote{name + " " + quoteArg(a) + " would remove /, the home directory, a root or a parent of one (" + abs + ")", true})
				continue
			}
		}
		notes = append(notes, e.judgePath(cwd, a, "path"))
	}
	return notes, writes
}
