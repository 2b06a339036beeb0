package sandbox

import (
	"path/filepath"
	"strings"
)

// Settings is the "sandbox" block of one Claude Code settings file, as
// written: a nil pointer is a key the file does not set.
type Settings struct {
	Enabled                  *bool    `json:"enabled"`
	FailIfUnavailable        *bool    `json:"failIfUnavailable"`
	AutoAllowBashIfSandboxed *bool    `json:"autoAllowBashIfSandboxed"`
	ExcludedCommands         []string `json:"excludedCommands"`
	AllowUnsandboxedCommands *bool    `json:"allowUnsandboxedCommands"`
	Filesystem               struct {
		AllowWrite []string `json:"allowWrite"`
		DenyWrite  []string `json:"denyWrite"`
		DenyRead   []string `json:"denyRead"`
		AllowRead  []string `json:"allowRead"`
	} `json:"filesystem"`
	Network struct {
		AllowedDomains      []string `json:"allowedDomains"`
		AllowUnixSockets    []string `json:"allowUnixSockets"`
		AllowAllUnixSockets *bool    `json:"allowAllUnixSockets"`
		AllowLocalBinding   *bool    `json:"allowLocalBinding"`
		HTTPProxyPort       *int     `json:"httpProxyPort"`
		SocksProxyPort      *int     `json:"socksProxyPort"`
	} `json:"network"`
}

// Config is the sandbox settings of a whole hierarchy, merged: single
// values from the highest file that sets them, lists concatenated, paths
// absolute. The zero Config is Claude Code's default: off, with
// autoAllowBashIfSandboxed on once it is enabled.
type Config struct {
	Enabled           bool
	FailIfUnavailable bool
	// NoAutoAllow is autoAllowBashIfSandboxed set to false (it defaults
	// to true).
	NoAutoAllow bool
	// AllowUnsandboxed is allowUnsandboxedCommands: a command that failed
	// in the sandbox may be run again outside it, with permission.
	AllowUnsandboxed bool
	Excluded         []string

	AllowWrite, DenyWrite, DenyRead, AllowRead []string

	// AllowedDomains can only be honoured with a proxy; while there is
	// none, any domain opens the network (New's Network), and the
	// boundary says so.
	AllowedDomains    []string
	AllowLocalBinding bool
	// Unhonoured names the keys set that no boundary honours.
	Unhonoured []string
}

// Places resolves the path entries of one file: its own directory (for
// "/x"), the project root (for "./x" and bare relative paths) and the home
// directory (for "~/x").
type Places struct{ FileDir, Project, Home string }

// Path resolves one path entry as Claude Code reads the sandbox's paths:
// "//x" from the filesystem root, "~/x" from the home directory, "/x" from
// the settings file's directory, anything else from the project root.
func (pl Places) Path(e string) string {
	switch {
	case strings.HasPrefix(e, "//"):
		return filepath.Clean(filepath.FromSlash(e[1:]))
	case e == "~" || strings.HasPrefix(e, "~/"):
		return filepath.Join(pl.Home, e[1:])
	case strings.HasPrefix(e, "/"):
		return filepath.Join(pl.FileDir, e)
	}
	return filepath.Join(pl.Project, e)
}

// Merge lays the file s (resolved with pl) over c, which holds the files
// of lower precedence.
func (c *Config) Merge(s *Settings, pl Places) {
	if s == nil {
		return
	}
	set := func(dst *bool, v *bool) {
		if v != nil {
			*dst = *v
		}
	}
	set(&c.Enabled, s.Enabled)
	set(&c.FailIfUnavailable, s.FailIfUnavailable)
	if s.AutoAllowBashIfSandboxed != nil {
		c.NoAutoAllow = !*s.AutoAllowBashIfSandboxed
	}
	set(&c.AllowUnsandboxed, s.AllowUnsandboxedCommands)
	set(&c.AllowLocalBinding, s.Network.AllowLocalBinding)
	c.Excluded = append(c.Excluded, s.ExcludedCommands...)
	fs := &s.Filesystem
	for _, l := range []struct {
		dst *[]string
		src []string
	}{{&c.AllowWrite, fs.AllowWrite}, {&c.DenyWrite, fs.DenyWrite}, {&c.DenyRead, fs.DenyRead}, {&c.AllowRead, fs.AllowRead}} {
		for _, e := range l.src {
			if e != "" {
				*l.dst = append(*l.dst, pl.Path(e))
			}
		}
	}
	c.AllowedDomains = append(c.AllowedDomains, s.Network.AllowedDomains...)
	n := &s.Network
	for _, k := range []struct {
		name string
		set  bool
	}{
		{"network.allowUnixSockets", len(n.AllowUnixSockets) > 0},
		{"network.allowAllUnixSockets", n.AllowAllUnixSockets != nil},
		{"network.httpProxyPort", n.HTTPProxyPort != nil},
		{"network.socksProxyPort", n.SocksProxyPort != nil},
	} {
		if k.set && !contains(c.Unhonoured, k.name) {
			c.Unhonoured = append(c.Unhonoured, k.name)
		}
	}
}

// AutoAllow reports autoAllowBashIfSandboxed, true unless set false.
func (c *Config) AutoAllow() bool { return !c.NoAutoAllow }

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
