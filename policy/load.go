package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/chainrun/chainrun/builtin/spec"
	"github.com/chainrun/chainrun/sandbox"
)

// settings is the part of a Claude Code settings file the policy reads.
type settings struct {
	Permissions struct {
		Allow                        []string `json:"allow"`
		Ask                          []string `json:"ask"`
		Deny                         []string `json:"deny"`
		AdditionalDirectories        []string `json:"additionalDirectories"`
		DefaultMode                  *string  `json:"defaultMode"`
		DisableBypassPermissionsMode *string  `json:"disableBypassPermissionsMode"`
	} `json:"permissions"`
	AllowManagedPermissionRulesOnly *bool             `json:"allowManagedPermissionRulesOnly"`
	Roots                           []string          `json:"roots"`
	ReadOnlyAutoAllow               *bool             `json:"readOnlyAutoAllow"`
	Sandbox                         *sandbox.Settings `json:"sandbox"`
}

// Scope says where a settings file sits in Claude Code's hierarchy, from
// the lowest precedence to the highest: user, project, local, a file named
// on the command line, managed.
type Scope int

const (
	// ScopeUser is ~/.claude/settings.json (or $CLAUDE_CONFIG_DIR).
	ScopeUser Scope = iota
	// ScopeProject is the project's .claude/settings.json.
	ScopeProject
	// ScopeLocal is the project's .claude/settings.local.json.
	ScopeLocal
	// ScopeFile is a file named on the command line (--policy).
	ScopeFile
	// ScopeManaged is the system's managed-settings.json and its
	// managed-settings.d drop-ins: highest, and the only scope that may
	// restrict the others.
	ScopeManaged
)

// String names the scope in rule sources ("project .claude/settings.json").
func (s Scope) String() string {
	switch s {
	case ScopeUser:
		return "user"
	case ScopeProject:
		return "project"
	case ScopeLocal:
		return "local"
	case ScopeManaged:
		return "managed"
	}
	return "file"
}

// SettingsFile is one settings file and its scope.
type SettingsFile struct {
	Path  string
	Scope Scope
	// Base is the project root its "/path" patterns and relative
	// additionalDirectories are relative to; "" means the file's project
	// (the directory holding its .claude directory, else its own).
	Base string
}

// Load reads settings files named on the command line and merges them in
// order: rule lists and roots are concatenated, and a later file's
// readOnlyAutoAllow and defaultMode override an earlier one's. Read-only
// commands are allowed without rules, as Claude Code allows them, unless a
// file sets "readOnlyAutoAllow": false. It returns
// warnings for entries it ignores.
func Load(paths ...string) (*Policy, []string, error) {
	files := make([]SettingsFile, len(paths))
	for i, p := range paths {
		files[i] = SettingsFile{Path: p, Scope: ScopeFile}
	}
	return LoadFiles(files)
}

// LoadFiles reads settings files given lowest precedence first and merges
// them as Claude Code does: the rule lists of every file are concatenated
// (deny anywhere wins), single values (defaultMode, readOnlyAutoAllow)
// come from the highest file that sets them. Managed settings may keep
// only their own rules (allowManagedPermissionRulesOnly) and refuse
// bypassPermissions (disableBypassPermissionsMode); a project or local
// file, which a repository can ship, cannot choose bypassPermissions.
// Every file read is protected (Policy.Protect).
func LoadFiles(files []SettingsFile) (*Policy, []string, error) {
	p := &Policy{ReadOnlyAutoAllow: true} // Claude Code's step: read-only commands need no rule
	var warnings []string
	var managedOnly, noBypass bool
	var scopes []Scope // the scope of each rule list entry's file, by list
	parsed := make([]*Policy, 0, len(files))
	for _, f := range files {
		data, err := os.ReadFile(f.Path)
		if err != nil {
			return nil, warnings, fmt.Errorf("policy: %w", err)
		}
		q, s, w, err := parseScoped(data, f)
		warnings = append(warnings, w...)
		if err != nil {
			return nil, warnings, err
		}
		if f.Scope == ScopeManaged {
			managedOnly = managedOnly || s.AllowManagedPermissionRulesOnly != nil && *s.AllowManagedPermissionRulesOnly
			noBypass = noBypass || s.Permissions.DisableBypassPermissionsMode != nil && *s.Permissions.DisableBypassPermissionsMode == "disable"
		}
		parsed = append(parsed, q)
		scopes = append(scopes, f.Scope)
		if abs, err := filepath.Abs(f.Path); err == nil {
			p.Protect = append(p.Protect, abs)
		}
	}
	for i, q := range parsed {
		if managedOnly && scopes[i] != ScopeManaged {
			warnings = append(warnings, fmt.Sprintf("%s: rules ignored: managed settings allow only managed permission rules", files[i].Path))
			q.Allow, q.Ask, q.Deny, q.PathAllow, q.PathAsk, q.PathDeny = nil, nil, nil, nil, nil, nil
		}
		p.merge(q)
		p.Sandbox.Merge(q.sandbox.s, q.sandbox.at)
		if q.readOnlySet {
			p.ReadOnlyAutoAllow = q.ReadOnlyAutoAllow
		}
		if q.Mode == "" {
			continue
		}
		switch {
		case q.Mode == ModeBypass && (scopes[i] == ScopeProject || scopes[i] == ScopeLocal):
			warnings = append(warnings, fmt.Sprintf("%s: defaultMode bypassPermissions ignored: a project's own settings cannot choose it", files[i].Path))
		case q.Mode == ModeBypass && noBypass:
			warnings = append(warnings, fmt.Sprintf("%s: defaultMode bypassPermissions ignored: managed settings disable it", files[i].Path))
		default:
			p.Mode = q.Mode
		}
	}
	p.noBypass = noBypass
	return p, warnings, nil
}

func (p *Policy) merge(q *Policy) {
	p.Allow = append(p.Allow, q.Allow...)
	p.Ask = append(p.Ask, q.Ask...)
	p.Deny = append(p.Deny, q.Deny...)
	p.PathAllow = append(p.PathAllow, q.PathAllow...)
	p.PathAsk = append(p.PathAsk, q.PathAsk...)
	p.PathDeny = append(p.PathDeny, q.PathDeny...)
	p.Roots = append(p.Roots, q.Roots...)
	p.AdditionalDirectories = append(p.AdditionalDirectories, q.AdditionalDirectories...)
}

// Parse reads one settings file's content; name is used in messages and
// its directory resolves relative roots. Bad rule text is an error naming
// the file and the entry; entries for other tools are ignored with a
// warning.
func Parse(data []byte, name string) (*Policy, []string, error) {
	p, _, w, err := parseScoped(data, SettingsFile{Path: name, Scope: ScopeFile})
	return p, w, err
}

// parseScoped reads one settings file of scope f.Scope.
func parseScoped(data []byte, f SettingsFile) (*Policy, *settings, []string, error) {
	name := f.Path
	var s settings
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&s); err != nil {
		return nil, nil, nil, fmt.Errorf("policy: %s: %w", name, jsonError(data, err))
	}
	base := f.Base
	if base == "" {
		base = projectBase(name)
	}
	p := &Policy{ReadOnlyAutoAllow: true}
	warnings, err := p.parseRules(&s, f, base)
	if err != nil {
		return nil, nil, warnings, err
	}
	dir := filepath.Dir(name)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	for _, r := range s.Roots {
		if r == "" {
			return nil, nil, warnings, fmt.Errorf("policy: %s: empty entry in roots", name)
		}
		p.Roots = append(p.Roots, filepath.Clean(spec.JoinPath(dir, r, onWindows)))
	}
	for _, r := range s.Permissions.AdditionalDirectories {
		if r == "" {
			return nil, nil, warnings, fmt.Errorf("policy: %s: empty entry in permissions.additionalDirectories", name)
		}
		p.AdditionalDirectories = append(p.AdditionalDirectories, expandDir(r, base))
	}
	if s.Permissions.DefaultMode != nil {
		m, err := ParseMode(*s.Permissions.DefaultMode)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: permissions.defaultMode: %v; using default", name, err))
			m = ModeDefault
		}
		p.Mode = m
	}
	if s.ReadOnlyAutoAllow != nil {
		p.ReadOnlyAutoAllow = *s.ReadOnlyAutoAllow
		p.readOnlySet = true
	}
	if s.Sandbox != nil {
		p.sandbox.s, p.sandbox.at = s.Sandbox, sandbox.Places{FileDir: dir, Project: base, Home: homeDir()}
		p.Sandbox.Merge(s.Sandbox, p.sandbox.at)
	}
	if f.Scope != ScopeManaged && (s.AllowManagedPermissionRulesOnly != nil || s.Permissions.DisableBypassPermissionsMode != nil) {
		warnings = append(warnings, fmt.Sprintf("%s: allowManagedPermissionRulesOnly and disableBypassPermissionsMode are read only from managed settings", name))
	}
	return p, &s, warnings, nil
}

// parseRules reads the three rule lists: Bash rules, Read and Edit rules
// (Write rules as Edit rules), and warnings for the other tools.
func (p *Policy) parseRules(s *settings, f SettingsFile, base string) ([]string, error) {
	name := f.Path
	source := filepath.Base(name)
	if f.Scope != ScopeFile {
		source = f.Scope.String() + " " + name
	}
	var warnings []string
	lists := []struct {
		key   string
		in    []string
		out   *[]Rule
		paths *[]PathRule
	}{
		{"allow", s.Permissions.Allow, &p.Allow, &p.PathAllow},
		{"ask", s.Permissions.Ask, &p.Ask, &p.PathAsk},
		{"deny", s.Permissions.Deny, &p.Deny, &p.PathDeny},
	}
	for _, l := range lists {
		for i, text := range l.in {
			if w := toolEntryWarning(text, l.key); w != "" {
				warnings = append(warnings, fmt.Sprintf("%s: permissions.%s[%d] %q %s", name, l.key, i, text, w))
				continue
			}
			if pr, ok := parsePathRule(text); ok {
				if w := pathRuleWarning(pr, l.key); w != "" {
					warnings = append(warnings, fmt.Sprintf("%s: permissions.%s[%d] %q %s", name, l.key, i, text, w))
					if l.key == "allow" && pr.Text[0] == 'W' {
						continue
					}
				}
				pr.Source, pr.Base = source, base
				*l.paths = append(*l.paths, pr)
				continue
			}
			r, ok, err := ParseRule(text)
			if err != nil {
				return warnings, fmt.Errorf("policy: %s: permissions.%s[%d] %q: %w", name, l.key, i, text, err)
			}
			if !ok {
				warnings = append(warnings, fmt.Sprintf("%s: permissions.%s[%d] %q is not a Bash, Read or Edit rule; ignored", name, l.key, i, text))
				continue
			}
			r.Source = source
			*l.out = append(*l.out, r)
		}
	}
	return warnings, nil
}

// toolEntryWarning says why an entry about one of Claude Code's tools, not
// about commands, is left out of the judgement; "" for any other entry.
//
// A bare "Bash" in permissions.deny removes Claude Code's own Bash tool:
// the model never sees it, so Claude Code judges no command by it. It is
// how a user sends every shell command to chainrun's MCP tool instead, and
// chainrun, reading the same file, takes it as that. "Bash(*)", which
// Claude Code reads as the same removal, stays a deny of every command:
// with the parentheses the entry names commands, and it is how a file that
// means to stop every command says so to both. A bare "Bash" in ask or
// allow is a verdict on every call of Claude Code's tool and judges every
// command as before.
//
// An "mcp__server__tool" entry is Claude Code's permission to call that
// tool (mcp__chainrun__run is the call that brings a command here); it
// names no command.
func toolEntryWarning(text, list string) string {
	t := strings.TrimSpace(text)
	switch {
	case t == "Bash" && list == "deny":
		return `is read as Claude Code's own Bash tool, which it removes, not as a rule about commands: it denies no command chainrun runs (to deny every command, write "Bash(*)")`
	case strings.HasPrefix(t, "mcp__"):
		return "is Claude Code's permission to call an MCP tool, not a rule about commands; ignored"
	}
	return ""
}

// pathRuleWarning says how a Write rule is read: Claude Code matches file
// writes by Edit rules only, so a Write deny or ask rule is taken as the
// Edit rule it meant (stricter than ignoring it), and a Write allow rule
// is ignored as Claude Code ignores it.
func pathRuleWarning(pr PathRule, list string) string {
	if pr.Text[0] != 'W' {
		return ""
	}
	if list == "allow" {
		return "is ignored: Claude Code permits file writes by Edit rules only; write Edit(...)"
	}
	return "is read as the Edit rule it names (Claude Code matches file writes by Edit rules only)"
}

// expandDir makes an additionalDirectories entry absolute: "~/x" from the
// home directory, relative ones from base.
func expandDir(d, base string) string {
	if d == "~" || len(d) > 1 && d[0] == '~' && (d[1] == '/' || d[1] == '\\') {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, d[1:])
		}
	}
	return filepath.Clean(spec.JoinPath(base, d, onWindows))
}

// ClaudeDirs are the directories Claude Code reads settings from for one
// session. Home and Managed may be left empty for the system's own.
type ClaudeDirs struct {
	Project string // the directory the session starts in
	Home    string // the user's home directory; "" for os.UserHomeDir
	// Managed holds managed-settings.json and managed-settings.d/*.json;
	// "" for DefaultManagedDir.
	Managed string
}

// DefaultManagedDir is where Claude Code's managed settings live on this
// system.
func DefaultManagedDir() string {
	switch runtime.GOOS {
	case "windows":
		return `C:\Program Files\ClaudeCode`
	case "darwin":
		return "/Library/Application Support/ClaudeCode"
	}
	return "/etc/claude-code"
}

// ClaudeSettingsFiles lists the settings files Claude Code reads for a
// session started in d.Project, lowest precedence first, whether they
// exist or not: user (in $CLAUDE_CONFIG_DIR, else home/.claude), project,
// local, managed, then the managed-settings.d drop-ins in name order.
func ClaudeSettingsFiles(d ClaudeDirs) []SettingsFile {
	project, home, managed := d.Project, d.Home, d.Managed
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if managed == "" {
		managed = DefaultManagedDir()
	}
	userDir := os.Getenv("CLAUDE_CONFIG_DIR")
	if userDir == "" {
		userDir = filepath.Join(home, ".claude")
	}
	files := []SettingsFile{
		{Path: filepath.Join(userDir, "settings.json"), Scope: ScopeUser, Base: project},
		{Path: filepath.Join(project, ".claude", "settings.json"), Scope: ScopeProject, Base: project},
		{Path: filepath.Join(project, ".claude", "settings.local.json"), Scope: ScopeLocal, Base: project},
		{Path: filepath.Join(managed, "managed-settings.json"), Scope: ScopeManaged, Base: project},
	}
	dropIns, _ := filepath.Glob(filepath.Join(managed, "managed-settings.d", "*.json"))
	sort.Strings(dropIns)
	for _, d := range dropIns {
		files = append(files, SettingsFile{Path: d, Scope: ScopeManaged, Base: project})
	}
	return files
}

// LoadClaude reads the settings Claude Code would read for a session
// started in d.Project, merged by LoadFiles, with
// the files named on the command line (extra) between local and managed
// settings, as Claude Code places --settings. A hierarchy file that does
// not exist is skipped; every candidate is protected, so a chain cannot
// create one for the next run.
func LoadClaude(d ClaudeDirs, extra ...string) (*Policy, []string, error) {
	abs, err := filepath.Abs(d.Project)
	if err != nil {
		return nil, nil, fmt.Errorf("policy: %w", err)
	}
	d.Project = abs
	all := ClaudeSettingsFiles(d)
	var present []SettingsFile
	for _, f := range all {
		if f.Scope == ScopeManaged && extra != nil {
			for _, e := range extra {
				present = append(present, SettingsFile{Path: e, Scope: ScopeFile})
			}
			extra = nil
		}
		if _, err := os.Stat(f.Path); err == nil {
			present = append(present, f)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("policy: %w", err)
		}
	}
	p, warnings, err := LoadFiles(present)
	if err != nil {
		return nil, warnings, err
	}
	for _, f := range all {
		if !slices.Contains(p.Protect, f.Path) {
			p.Protect = append(p.Protect, f.Path)
		}
	}
	return p, warnings, nil
}

// jsonError says where in the user's file the JSON went wrong, by line
// and column, and for a value of the wrong type which entry holds it, in
// the file's own terms rather than the decoder's Go ones.
func jsonError(data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		line, col := lineCol(data, se.Offset-1) // Offset counts the bad byte read
		return fmt.Errorf("line %d, column %d: %v", line, col, se)
	case errors.As(err, &te):
		line, col := lineCol(data, te.Offset)
		return fmt.Errorf("line %d, column %d: %s holds a JSON %s where %s belongs", line, col, te.Field, te.Value, jsonKind(te.Type.Kind()))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("the JSON ends before its last value is closed")
	}
	return err
}

// jsonKind names what a settings field takes, in JSON's words.
func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Bool:
		return "true or false"
	}
	return "a " + k.String()
}

// lineCol turns a byte offset of data into a 1-based line and column.
func lineCol(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line = 1 + bytes.Count(before, []byte("\n"))
	return line, 1 + len(before) - (bytes.LastIndexByte(before, '\n') + 1)
}
