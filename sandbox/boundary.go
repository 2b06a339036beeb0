package sandbox

import (
	"path/filepath"
	"strings"
)

// Boundary is what a sandboxed process may do: write inside Write (and
// read everywhere) except under DenyWrite, read nothing under DenyRead
// unless it is under AllowRead again, and use TCP only when Network is
// set. It is built once per run and not changed afterwards.
type Boundary struct {
	Write     []string
	DenyWrite []string
	DenyRead  []string
	AllowRead []string
	// Network allows TCP connect and bind; LocalBind allows bind alone.
	Network, LocalBind bool
	// Excluded are the excludedCommands, split into words: segments
	// they match run outside the sandbox, under the policy alone.
	Excluded [][]string
	// Notes say what the settings asked that no kernel rule enforces,
	// and what guards it instead, for --explain.
	Notes []string
}

// Devices are the device files every program may write as it may on any
// system: the null and zero devices, the terminal and the
// pseudo-terminals.
var Devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx", "/dev/pts"}

// New builds the boundary of c for a chain whose roots (start directory
// and additional directories) are roots, with the temporary directory
// tmp: the roots, tmp and allowWrite are writable.
func New(c *Config, roots []string, tmp string) *Boundary {
	b := &Boundary{LocalBind: c.AllowLocalBinding}
	b.Write = cleanAll(append(append(append([]string{}, roots...), tmp), c.AllowWrite...))
	b.DenyWrite = cleanAll(c.DenyWrite)
	b.DenyRead = cleanAll(c.DenyRead)
	b.AllowRead = cleanAll(c.AllowRead)
	if len(c.AllowedDomains) > 0 {
		b.Network = true
		b.Notes = append(b.Notes, "network.allowedDomains needs a filtering proxy, which chainrun does not run: TCP is open to every host")
	}
	for _, e := range c.Excluded {
		if w := excludedWords(e); len(w) > 0 {
			b.Excluded = append(b.Excluded, w)
		}
	}
	for _, k := range c.Unhonoured {
		b.Notes = append(b.Notes, k+" is not enforced: Unix sockets are not confined")
	}
	return b
}

// excludedWords splits an excludedCommands entry ("docker", "git push:*",
// "npm run *") into the words a command must start with.
func excludedWords(e string) []string {
	e = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(e), ":*"))
	e = strings.TrimSpace(strings.TrimSuffix(e, "*"))
	return strings.Fields(e)
}

// Excludes reports whether argv, a command as it will run, is one of the
// excludedCommands: its program's base name and the words after it start
// as an entry does.
func (b *Boundary) Excludes(argv []string) bool {
	if b == nil || len(argv) == 0 {
		return false
	}
	name := filepath.Base(argv[0])
	for _, w := range b.Excluded {
		if len(argv) < len(w) || name != w[0] {
			continue
		}
		same := true
		for i := 1; i < len(w); i++ {
			same = same && argv[i] == w[i]
		}
		if same {
			return true
		}
	}
	return false
}

// WriteSetting names the setting that would make more paths writable.
const WriteSetting = `sandbox.filesystem.allowWrite or an Edit allow rule`

// ReadSetting names the setting that would make a denied path readable.
const ReadSetting = `sandbox.filesystem.allowRead`

// Error is a write or read the boundary refuses to chainrun itself (a
// redirect target), worded as the kernel's refusal of a child is
// explained.
type Error struct {
	Op   string // "write" or "read"
	Path string
	// Why is the boundary's part: "outside the allowed paths", "under
	// denyWrite X".
	Why string
	// Setting is what would widen the boundary.
	Setting string
}

func (e *Error) Error() string {
	return "sandbox: " + e.Op + " " + e.Why + ": " + e.Path + " (widen it with " + e.Setting + ")"
}

// Check judges a file chainrun opens itself for a sandboxed segment: path
// is absolute (its links are resolved here, as the kernel would follow
// them), write says whether it is opened for
// writing. The boundary is applied exactly here, denied paths inside
// writable trees included, as no kernel rule needs to carve them.
func (b *Boundary) Check(path string, write bool) error {
	if b == nil {
		return nil
	}
	path = realPath(filepath.Clean(path))
	if write {
		if d := under(path, b.DenyWrite); d != "" {
			return &Error{Op: "write", Path: path, Why: "under denyWrite " + d, Setting: "removing it from sandbox.filesystem.denyWrite and the Edit deny rules"}
		}
		if under(path, b.Write) == "" && under(path, Devices) == "" {
			return &Error{Op: "write", Path: path, Why: "outside the allowed paths", Setting: WriteSetting}
		}
	}
	if d := under(path, b.DenyRead); d != "" && under(path, b.AllowRead) == "" {
		return &Error{Op: "read", Path: path, Why: "under denyRead " + d, Setting: ReadSetting}
	}
	return nil
}

// Refused explains a failed process that ran inside b. The kernel's
// refusals reach the program as EACCES or EPERM, like any other denied
// access, so chainrun cannot tell them apart from the program's other
// failures: the explanation names the boundary and what would widen it.
func (b *Boundary) Refused() string {
	return "sandbox: a write outside the allowed paths, or a denied read, fails here (EACCES, EPERM, or EROFS for a path held read-only); the sandbox " +
		b.Describe() + "; widen it with " + WriteSetting + " (reads: " + ReadSetting + ")"
}

// Describe is the boundary in one line, for a report.
func (b *Boundary) Describe() string {
	s := "allows writes only under " + strings.Join(b.Write, ", ")
	if len(b.DenyWrite) > 0 {
		s += "; no writes under " + strings.Join(b.DenyWrite, ", ")
	}
	if len(b.DenyRead) > 0 {
		s += "; no reads under " + strings.Join(b.DenyRead, ", ")
	}
	switch {
	case b.Network:
		s += "; network open"
	case b.LocalBind:
		s += "; no TCP connections (local binding allowed)"
	default:
		s += "; no TCP connections or listening"
	}
	return s
}

// under returns the entry of trees that holds path (itself or an
// ancestor), "" if none does.
func under(path string, trees []string) string {
	for _, t := range trees {
		if Within(path, t) {
			return t
		}
	}
	return ""
}

// Within reports whether path is tree or inside it; both are clean and
// absolute.
func Within(path, tree string) bool {
	if path == tree || tree == string(filepath.Separator) {
		return true
	}
	return strings.HasPrefix(path, tree) && path[len(tree)] == filepath.Separator
}

// cleanAll cleans every path, resolves the links of those that exist and
// drops empty and repeated ones.
func cleanAll(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if p == "" {
			continue
		}
		p = filepath.Clean(p)
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real // the kernel judges the object a path leads to
		}
		if !contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// realPath resolves the links of path, or of its directory when path does
// not exist yet (a file a redirect creates).
func realPath(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	if r, err := filepath.EvalSymlinks(filepath.Dir(path)); err == nil {
		return filepath.Join(r, filepath.Base(path))
	}
	return path
}
