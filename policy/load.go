package policy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// settings is the part of a Claude Code settings file the policy reads.
type settings struct {
	Permissions struct {
		Allow                 []string `json:"allow"`
		Ask                   []string `json:"ask"`
		Deny                  []string `json:"deny"`
		AdditionalDirectories []string `json:"additionalDirectories"`
	} `json:"permissions"`
	Roots             []string `json:"roots"`
	ReadOnlyAutoAllow *bool    `json:"readOnlyAutoAllow"`
}

// Load reads settings files and merges them in order: rule lists and roots
// are concatenated, and a later file's readOnlyAutoAllow overrides an
// earlier one's. It returns warnings for entries it ignores.
func Load(paths ...string) (*Policy, []string, error) {
	p := &Policy{}
	var warnings []string
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, warnings, fmt.Errorf("policy: %w", err)
		}
		q, w, err := Parse(data, path)
		warnings = append(warnings, w...)
		if err != nil {
			return nil, warnings, err
		}
		p.merge(q)
		if q.readOnlySet {
			p.ReadOnlyAutoAllow = q.ReadOnlyAutoAllow
		}
	}
	return p, warnings, nil
}

func (p *Policy) merge(q *Policy) {
	p.Allow = append(p.Allow, q.Allow...)
	p.Ask = append(p.Ask, q.Ask...)
	p.Deny = append(p.Deny, q.Deny...)
	p.Roots = append(p.Roots, q.Roots...)
}

// Parse reads one settings file's content; name is used in messages and
// its directory resolves relative roots. Bad rule text is an error naming
// the file and the entry; entries for other tools are ignored with a
// warning.
func Parse(data []byte, name string) (*Policy, []string, error) {
	var s settings
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&s); err != nil {
		return nil, nil, fmt.Errorf("policy: %s: %w", name, err)
	}
	p := &Policy{}
	var warnings []string
	lists := []struct {
		key string
		in  []string
		out *[]Rule
	}{
		{"allow", s.Permissions.Allow, &p.Allow},
		{"ask", s.Permissions.Ask, &p.Ask},
		{"deny", s.Permissions.Deny, &p.Deny},
	}
	for _, l := range lists {
		for i, text := range l.in {
			r, ok, err := ParseRule(text)
			if err != nil {
				return nil, warnings, fmt.Errorf("policy: %s: permissions.%s[%d] %q: %w", name, l.key, i, text, err)
			}
			if !ok {
				warnings = append(warnings, fmt.Sprintf("%s: permissions.%s[%d] %q is not a Bash rule; ignored", name, l.key, i, text))
				continue
			}
			r.Source = filepath.Base(name)
			*l.out = append(*l.out, r)
		}
	}
	base := filepath.Dir(name)
	if abs, err := filepath.Abs(base); err == nil {
		base = abs
	}
	for _, r := range s.Roots {
		if r == "" {
			return nil, warnings, fmt.Errorf("policy: %s: empty entry in roots", name)
		}
		if !filepath.IsAbs(r) {
			r = filepath.Join(base, r)
		}
		p.Roots = append(p.Roots, filepath.Clean(r))
	}
	if len(s.Permissions.AdditionalDirectories) > 0 {
		warnings = append(warnings, fmt.Sprintf("%s: permissions.additionalDirectories is not read; list directories in \"roots\"", name))
	}
	if s.ReadOnlyAutoAllow != nil {
		p.ReadOnlyAutoAllow = *s.ReadOnlyAutoAllow
		p.readOnlySet = true
	}
	return p, warnings, nil
}
