package policy

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/builtin/spec"
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
	// homeKey is home in lower-cased pathKey form with a trailing slash.
	homeKey string
	keys    pathKeys
	protect []protectedFile
	// planned and cdpathAt are what the chain says of its cd's
	// (plannedDirs, firstCdPathSet in builtin.go).
	planned  map[*chain.Segment]string
	cdpathAt int
	// hooks are the directories core.hooksPath names (hookspath.go), read
	// when the first path is judged sensitive or not.
	hooks     []string
	hooksRead bool
	// dirs are the working directories resolved in this call
	// (resolveDir): most chains have one or two, looked through in turn
	// in the room of dirsBuf; a chain with more keeps the others in
	// moreDirs.
	dirs     []resolvedDir
	dirsBuf  [4]resolvedDir
	moreDirs map[string]string
	// scratch is the one analysis the call's segments are read into, one
	// after the other (analysis).
	scratch *analysis
	// reasons is the room the segments' first reasons are handed out from
	// (reasonRoom), for segs segments.
	reasons []string
	segs    int
	// deny and ask are the forms of the policy's deny and ask rules
	// (ruleForms), derived for this call.
	deny, ask []ruleForm
	// quiet is set while a segment is judged that the rest of its chain
	// is quiet for (quietSegments): a read known only at run time is
	// left to the judgement as it starts.
	quiet bool
	// reach is, while an export is judged, where the names it sets go
	// (exportReach).
	reach func(name string) string
}

// analysis reads segment s into the call's one analysis. Segments are
// judged one at a time, never within one another, and nothing of an
// analysis outlives its segment's judgement but what judge copies into
// the facts, so the room is reused rather than allocated per segment.
func (e *pathEnv) analysis(s *chain.Segment, in feed, dir string) *analysis {
	if e.scratch == nil {
		e.scratch = new(analysis)
	}
	e.scratch.read(s, in, dir)
	return e.scratch
}

// resolveDir resolves a working directory afresh once per call: unlike
// the roots, it is where relative paths start, and an earlier segment of
// the chain (or an earlier call) may have made it a link elsewhere since
// it was last resolved, so no resolution outlives the judgement it was
// made for.
func (e *pathEnv) resolveDir(d string) string {
	for _, x := range e.dirs {
		if x.dir == d {
			return x.real
		}
	}
	if r, ok := e.moreDirs[d]; ok {
		return r
	}
	r := resolvePath(d)
	switch {
	case e.dirs == nil:
		e.dirs = append(e.dirsBuf[:0], resolvedDir{d, r})
	case len(e.dirs) < len(e.dirsBuf):
		e.dirs = append(e.dirs, resolvedDir{d, r})
	default:
		if e.moreDirs == nil {
			e.moreDirs = make(map[string]string)
		}
		e.moreDirs[d] = r
	}
	return r
}

// resolvedDir is a working directory and where it resolved to.
type resolvedDir struct{ dir, real string }

// protectedFile is one of Policy.Protect, in lower-cased pathKey form; stem
// and ext match the rotated copies of a log ("audit-2026….log").
type protectedFile struct {
	key, stem, ext, what string
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
	fold := foldCase("A") == "a"
	if home != "" {
		e.home = cachedResolve(home)
		e.homeKey = cachedKey(e.home)
		e.keys.home = pathKey(e.home, fold)
	}
	start := cachedResolve(e.startDir)
	e.keys.start, e.keys.fold, e.keys.windows = pathKey(start, fold), fold, onWindows
	roots := e.p.Roots
	if len(roots) == 0 {
		roots = []string{e.startDir}
	}
	for _, r := range append(roots, e.p.AdditionalDirectories...) {
		e.roots = append(e.roots, cachedResolve(spec.JoinPath(e.startDir, r, onWindows)))
	}
	for _, f := range e.p.Protect {
		abs, err := filepath.Abs(f)
		if err != nil {
			continue
		}
		k := strings.ToLower(pathKey(cachedResolve(abs), false))
		pf := protectedFile{key: k, what: "settings or audit file " + filepath.Base(f)}
		if ext := filepath.Ext(k); ext != "" {
			pf.stem, pf.ext = strings.TrimSuffix(k, ext)+"-", ext
		}
		e.protect = append(e.protect, pf)
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
	if spec.PathAnchor(p, onWindows) == spec.Relative {
		return resolveFrom(cwd, p)
	}
	// Absolute, or on Windows rooted on the current drive ("\x", "/x")
	// or relative to a drive ("C:x"): spec.JoinPath reads it as the OS
	// does.
	return resolvePath(spec.JoinPath(cwd, p, onWindows))
}

// onWindows selects Windows' path rules for the paths the policy judges:
// those of the host that runs the chain.
const onWindows = runtime.GOOS == "windows"

// resolvePath walks an absolute path one element at a time: ".." goes to
// the parent of what has been resolved so far (as the OS does after a
// symlink), symlinks are followed, and the rest of a path that does not
// exist is joined as written. A Windows device prefix naming a drive or a
// share is dropped first (spec.PlainPath): `\\?\C:\secret` is judged as
// C:\secret, by the roots and by the rules alike.
func resolvePath(p string) string {
	p = spec.PlainPath(p, onWindows)
	vol := filepath.VolumeName(p)
	return resolveFrom(vol+string(filepath.Separator), p[len(vol):])
}

// maxLinkHops bounds the symlinks followed in one path, as the kernel's
// ELOOP does; a path that needs more is judged where it was left.
const maxLinkHops = 40

// resolveFrom resolves the relative path rest against cur, a directory
// already resolved. A symlink is followed whether or not its target
// exists (a write through a dangling link creates the target), by reading
// the link and walking its target in place of it. Nothing under /proc or
// /dev/fd is followed: those links are the calling process's, not the
// program's, so such a path is judged as written.
func resolveFrom(cur, rest string) string {
	hops := 0
	for {
		var part string
		if part, rest = nextElem(rest); part == "" {
			break
		}
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
		if processView(next) {
			return filepath.Join(next, rest)
		}
		exists, link := lstatLink(next)
		if !exists {
			return filepath.Join(next, rest)
		}
		if link && hops < maxLinkHops {
			if t, err := os.Readlink(next); err == nil {
				hops++
				if spec.PathAnchor(t, onWindows) != spec.Relative {
					t = spec.PlainPath(spec.JoinPath(cur, t, onWindows), onWindows)
					vol := filepath.VolumeName(t)
					cur = vol + string(filepath.Separator)
					t = t[len(vol):]
				}
				rest = t + "/" + rest
				continue
			}
		}
		cur = next
	}
	return filepath.Clean(cur)
}

// isLink reports a directory entry a path is redirected through: a
// symbolic link, or on Windows any reparse point os.Readlink reads (Go
// reports junctions and mount points as irregular files, not links; a
// reparse point that is neither fails Readlink and is taken as it is).
func isLink(m fs.FileMode) bool {
	return m&fs.ModeSymlink != 0 || onWindows && m&fs.ModeIrregular != 0
}

// nextElem splits the first element off a relative path whose elements
// are separated by runs of separators ('/' and the OS's), without
// allocating: "" when none is left. The rest it returns starts with an
// element, so filepath.Join(x, rest) joins x with the elements left.
func nextElem(p string) (elem, rest string) {
	p = trimSeps(p)
	i := 0
	for i < len(p) && !isSep(p[i]) {
		i++
	}
	return p[:i], trimSeps(p[i:])
}

// trimSeps removes the separators p starts with.
func trimSeps(p string) string {
	for len(p) > 0 && isSep(p[0]) {
		p = p[1:]
	}
	return p
}

// isSep reports a path separator: '/' everywhere, and the OS's own.
func isSep(c byte) bool { return c == '/' || c == filepath.Separator }

// processView reports a path whose meaning depends on the process that
// opens it: /proc (self, thread-self, a pid, and everything under them)
// and /dev/fd. Resolved in chainrun's process they would name chainrun's
// files, not the program's.
func processView(p string) bool {
	if runtime.GOOS == "windows" {
		return false
	}
	return p == "/proc" || strings.HasPrefix(p, "/proc/") || p == "/dev/fd" || strings.HasPrefix(p, "/dev/fd/")
}

// cachedKey is the lower-cased key of a resolved home directory with a
// trailing slash, computed once per directory.
func cachedKey(p string) string {
	keyCache.Lock()
	defer keyCache.Unlock()
	if k, ok := keyCache.m[p]; ok {
		return k
	}
	k := strings.TrimSuffix(strings.ToLower(pathKey(p, false)), "/") + "/"
	if keyCache.m == nil || len(keyCache.m) > 64 {
		keyCache.m = make(map[string]string)
	}
	keyCache.m[p] = k
	return k
}

var keyCache struct {
	sync.Mutex
	m map[string]string
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
	if strings.HasSuffix(dir, string(filepath.Separator)) {
		return strings.HasPrefix(p, dir)
	}
	return strings.HasPrefix(p, dir) && p[len(dir)] == filepath.Separator
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
	case ".envrc":
		return "a direnv script"
	case ".yarnrc", ".yarnrc.yml", ".pnpmfile.cjs", ".pnpmfile.js", ".curlrc", ".wgetrc":
		return "tool configuration that can run programs or redirect output"
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
	case ".cargo":
		return "cargo configuration that can run programs"
	}
	return ""
}

// sensitive says why p (resolved) is sensitive, or "". Names are compared
// the way Windows reads them (case, trailing dots and spaces, ::$DATA
// streams), on every system: a Linux file named ".git." is rare, and
// asking about it costs little.
func (e *pathEnv) sensitive(p string) string {
	e.init()
	if why := e.protected(p); why != "" {
		return why
	}
	fp := lowerASCII(pathKey(p, false))
	if e.homeKey != "" && strings.HasPrefix(fp, e.homeKey) {
		if why := sensitiveInHome(fp[len(e.homeKey):]); why != "" {
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
		if isGitDir(prev) {
			if why := gitBackDoor(part, rest); why != "" {
				return why
			}
		}
		if shortName(part) {
			return "a Windows 8.3 short name, which can stand for any longer name"
		}
		prev, base = part, part
	}
	if isGitDir(base) && base == ".git" {
		return "git metadata (a .git file redirects git to another repository)"
	}
	return sensitiveFile(fp, base)
}

// isGitDir reports a directory git reads as a repository: .git, or a bare
// repository named *.git.
func isGitDir(name string) bool {
	return name == ".git" || len(name) > 4 && strings.HasSuffix(name, ".git")
}

// gitBackDoor says why the entry part of a git directory (with rest
// below it) runs programs or redirects git, or "": its configuration,
// hooks, the configuration and hooks of submodules and worktrees, and the
// files that point git at another repository or object store.
func gitBackDoor(part, rest string) string {
	switch part {
	case "hooks", "config", "config.worktree":
		return "git " + part + " (runs programs)"
	case "modules", "worktrees":
		return "git " + part + " (their configuration and hooks run programs)"
	case "commondir", "gitdir":
		return "git " + part + " (redirects git to another repository)"
	case "objects":
		if rest == "info/alternates" || rest == "info/http-alternates" {
			return "git object alternates (redirect git to other objects)"
		}
	}
	return ""
}

// shortName reports a Windows 8.3 short name ("GIT~1", "SETTIN~1.JSO"),
// which the file system resolves to whatever long name it stands for.
func shortName(part string) bool {
	i := strings.IndexByte(part, '~')
	if i < 1 || i > 6 {
		return false
	}
	j := i + 1
	for j < len(part) && part[j] >= '0' && part[j] <= '9' {
		j++
	}
	return j > i+1 && (j == len(part) || part[j] == '.' && len(part)-j <= 4)
}

// sensitiveFile says why a file is sensitive by its name or its place
// (fp is the lower-cased key of the path, base its last element).
func sensitiveFile(fp, base string) string {
	if why := sensitiveName(base); why != "" {
		return why
	}
	if secretsName(base) {
		return whySecrets
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
	case strings.HasPrefix(fp, "/etc/claude-code/") || strings.HasPrefix(fp, "/library/application support/claudecode/") ||
		strings.HasPrefix(fp, "/c/program files/claudecode/"):
		return "Claude Code managed settings"
	}
	return ""
}

// protected says why p is one of the files the judgement itself depends
// on (Policy.Protect: the settings files and the audit log, with the audit
// log's rotated copies), or "".
func (e *pathEnv) protected(p string) string {
	if len(e.protect) == 0 {
		return ""
	}
	k := lowerASCII(pathKey(p, false))
	for _, f := range e.protect {
		if k == f.key {
			return "chainrun's own " + f.what
		}
		if f.stem != "" && strings.HasPrefix(k, f.stem) && strings.HasSuffix(k, f.ext) {
			return "chainrun's own " + f.what + " (a rotated copy)"
		}
	}
	return ""
}

// neutralOut are output targets that write nowhere on disk.
func neutralOut(t string) bool {
	switch t {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/fd/1", "/dev/fd/2":
		return true
	}
	if procPipe(t) {
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

// isNeutralOut reports a word known now naming an output target that
// writes nowhere on disk.
func (w word) isNeutralOut() bool {
	s, ok := w.known()
	return ok && neutralOut(s)
}

// procPipe reports /dev/fd/N above chain.MaxFd: no redirect can give a
// segment such a descriptor, so in its process it is a process
// substitution's pipe (judged as its own inner chain) or nothing at all.
func procPipe(t string) bool {
	n, ok := strings.CutPrefix(t, "/dev/fd/")
	if !ok || runtime.GOOS == "windows" || n == "" || len(n) > 3 || n[0] == '0' || strings.Trim(n, "0123456789") != "" {
		return false
	}
	fd, _ := strconv.Atoi(n)
	return fd > chain.MaxFd
}

// neutralIn are input devices that read nothing from disk.
func neutralIn(t string) bool {
	switch t {
	case "/dev/null", "/dev/zero", "/dev/random", "/dev/urandom", "/dev/stdin", "/dev/fd/0":
		return true
	}
	return neutralOut(t)
}

// neutralOperand reports an operand naming a device that holds nothing on
// disk for its role (go build -o /dev/null, diff f /dev/null): inert, as
// the same target of a redirect is. Removing one is no such thing.
func neutralOperand(t string, r fileRole) bool {
	switch r {
	case roleWrite:
		return neutralOut(t)
	case roleRead, roleStat, roleTouch:
		return neutralIn(t)
	}
	return false
}

// noteKind is how a judged path weighs on its segment.
type noteKind uint8

const (
	noteOK    noteKind = iota
	noteAsk            // outside the roots, unreadable: lifted by bypassPermissions
	noteHard           // sensitive, an ask rule: asks in every mode
	noteWrite          // a write only an Edit rule or the mode can permit
	noteDeny           // a Read or Edit deny rule, or a write in plan mode
)

// pathNote is one judged path: why it asks or is denied, or that it was
// found fine; rule names a deciding Read or Edit rule, suggest the Edit
// rule that would permit a write.
type pathNote struct {
	msg           string
	kind          noteKind
	rule, suggest string
}

// judgeRedirect turns one redirect into the file it reads or writes; none
// for the null device, fd dups, heredocs and here-strings.
func judgeRedirect(r chain.Redirect) (fileArg, bool) {
	if r.Op.IsText() {
		return fileArg{}, false // a heredoc's body is text, never a path
	}
	w := redirectTarget(r)
	s, known := w.known()
	switch r.Op {
	case chain.RedirDupOut, chain.RedirDupIn:
		if known && isFdWord(s) {
			return fileArg{}, false
		}
	case chain.RedirIn:
		if known && neutralIn(s) {
			return fileArg{}, false
		}
		return fileArg{word: w, role: roleRead, what: "input redirect"}, true
	}
	if known && neutralOut(s) {
		return fileArg{}, false
	}
	return fileArg{word: w, role: roleWrite, what: "output redirect", fresh: true, appends: r.Op == chain.RedirAppend || r.Op == chain.RedirBothAppend}, true
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

// judgeFile judges one path a segment reads or writes, in the order of
// docs/policy.md "Paths": Read and Edit deny rules, plan mode, ask rules,
// removals of a root, sensitive paths; then a write needs an Edit allow
// rule or acceptEdits (inside the roots), and a read outside the roots a
// Read allow rule.
func (e *pathEnv) judgeFile(cwd string, f fileArg) pathNote {
	path, ok := f.word.known()
	if !ok {
		return e.judgeRuntimeFile(f)
	}
	label := f.what + " " + quoteArg(path)
	if neutralOperand(path, f.role) {
		return pathNote{msg: label + " is a device that keeps nothing on disk"}
	}
	abs := e.resolve(cwd, path)
	key := ""
	if len(e.p.PathDeny)+len(e.p.PathAsk)+len(e.p.PathAllow) > 0 {
		key = pathKey(abs, e.keys.fold)
	}
	if r := e.matchPath(e.p.PathDeny, key, f.role, true); r != nil {
		return pathNote{msg: label + " (" + abs + ") matches deny rule " + r.String(), kind: noteDeny, rule: r.Text}
	}
	if f.role.writes() && e.p.Mode == ModePlan {
		return pathNote{msg: label + " is a write, and plan mode modifies no file", kind: noteDeny}
	}
	if r := e.matchPath(e.p.PathAsk, key, f.role, true); r != nil {
		return pathNote{msg: label + " matches ask rule " + r.String(), kind: noteHard, rule: r.Text}
	}
	if f.role == roleStat {
		// Whether a file exists and what type it is tells nothing of
		// its contents: only the Read rules above judge it, neither its
		// name nor its place.
		return pathNote{msg: label + " is a read of metadata no rule denies"}
	}
	if f.role == roleRemove && !f.below && e.dangerousRemoval(abs) {
		return pathNote{msg: label + " would remove /, the home directory, a root or a parent of one (" + abs + ")", kind: noteHard}
	}
	if why := e.sensitive(abs); why != "" && !harmlessSecretsWrite(f, abs, why) {
		return pathNote{msg: label + " is sensitive: " + why, kind: noteHard}
	}
	if f.role != roleRead {
		if why := e.hook(abs); why != "" {
			return pathNote{msg: label + " is sensitive: " + why, kind: noteHard}
		}
	}
	inside := e.inRoots(abs)
	if r := e.matchPath(e.p.PathAllow, key, f.role, false); r != nil && (inside || r.Pattern != "") {
		return pathNote{msg: label + " is allowed by " + r.String()}
	}
	if f.role.writes() {
		switch {
		case !inside:
			return pathNote{msg: label + " resolves outside the roots (" + abs + ")", kind: noteAsk, suggest: editSuggestion(abs, e.keysStart())}
		case e.p.Mode == ModeAcceptEdits || e.p.Mode == ModeBypass:
			return pathNote{msg: label + " is inside the roots (" + string(e.p.Mode) + " mode)"}
		}
		return pathNote{msg: label + " is a write, which needs an Edit allow rule or acceptEdits mode", kind: noteWrite,
			suggest: editSuggestion(abs, e.keysStart())}
	}
	if !inside {
		return pathNote{msg: label + " resolves outside the roots (" + abs + ")", kind: noteAsk}
	}
	return pathNote{msg: label + " is inside the roots"}
}

// judgeRuntimeFile judges a path known only at run time, in judgeFile's
// order, as any path it may turn out to be: a Read or Edit deny rule that
// judges its role may match it (ask, hard: the real path is judged again
// when the segment starts; plan mode denies a write first), an ask rule
// may match it; a read the rest of the chain is quiet for (quiet.go) is
// left to the judgement as the segment starts; otherwise it asks in every
// mode, since it may be sensitive or outside the roots and no allow rule
// or mode can show it is not. No Edit rule is suggested for it.
func (e *pathEnv) judgeRuntimeFile(f fileArg) pathNote {
	label := f.what + " " + f.word.show() + " is known only at run time"
	if f.role.writes() && e.p.Mode == ModePlan {
		return pathNote{msg: label + " and is a write, and plan mode modifies no file", kind: noteDeny}
	}
	if r := firstJudging(e.p.PathDeny, f.role, true); r != nil {
		// Not a denial before the run: the real path is judged when the
		// segment starts (see matchDeny).
		return pathNote{msg: label + " and may match deny rule " + r.String() + "; it is judged again on its real value when it starts", kind: noteHard, rule: r.Text}
	}
	if r := firstJudging(e.p.PathAsk, f.role, true); r != nil {
		return pathNote{msg: label + " and may match ask rule " + r.String(), kind: noteHard, rule: r.Text}
	}
	if f.role == roleStat {
		return pathNote{msg: label + "; a read of metadata no rule denies"}
	}
	if f.role == roleRead && e.quiet {
		return pathNote{msg: label + "; nothing else in the chain writes, so it is judged on its real value as the segment starts"}
	}
	return pathNote{msg: label + ", so it cannot be shown to be inside the roots and not sensitive", kind: noteHard}
}

// keysStart is the resolved start directory, for suggestions.
func (e *pathEnv) keysStart() string { return cachedResolve(e.startDir) }

// matchPath finds the first rule of rules that judges key for role: Read
// rules judge reads, Edit rules writes; a path of unknown role is judged
// by Read rules and, for deny and ask (hard), by Edit rules too.
func (e *pathEnv) matchPath(rules []PathRule, key string, role fileRole, hard bool) *PathRule {
	for i := range rules {
		r := &rules[i]
		if r.judges(role, hard) && r.matches(key, &e.keys) {
			return r
		}
	}
	return nil
}

// firstJudging is matchPath for a path known only at run time, which any
// pattern may match: the first rule that judges role.
func firstJudging(rules []PathRule, role fileRole, hard bool) *PathRule {
	for i := range rules {
		if r := &rules[i]; r.judges(role, hard) {
			return r
		}
	}
	return nil
}

// judges reports whether r judges a path of role (see matchPath).
func (r *PathRule) judges(role fileRole, hard bool) bool {
	return r.Tool == "Read" && role.reads() || r.Tool == "Edit" && (role.writes() || hard && role == roleTouch)
}

// dangerousRemoval reports a removal target that is /, a drive's or a
// share's root on Windows, the home directory, a root, or a parent of
// one.
func (e *pathEnv) dangerousRemoval(abs string) bool {
	e.init()
	if spec.IsRootPath(abs, onWindows) || (e.home != "" && within(e.home, abs)) {
		return true
	}
	for _, r := range e.roots {
		if within(r, abs) {
			return true
		}
	}
	return false
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

// homeDir is the home directory, resolved: where a bare cd goes.
func (e *pathEnv) homeDir() string {
	e.init()
	return e.home
}
