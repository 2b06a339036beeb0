package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/policy"
)

// TestMCPArgs: the mcp subcommand's flags, its help and its usage errors.
func TestMCPArgs(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		ok     bool
		status int
		out    string // in stdout (help) or stderr (errors)
		check  func(*mcpConfig) bool
	}{
		{"defaults", nil, true, 0, "", func(c *mcpConfig) bool {
			return c.maxOut == 0 && c.timeout == 0 && c.approvalTimeout == 0 && c.dialect == chain.HostDialect() // 0: the server's defaults
		}},
		{"every flag", []string{"--policy", "a.json", "--policy", "b.json", "--audit-log", "log", "--dir", "d", "--timeout", "30s",
			"--grace", "1", "--max-output", "1MiB", "--dialect", "windows", "--approval-timeout", "10s"}, true, 0, "", func(c *mcpConfig) bool {
			return len(c.policies) == 2 && c.audit.path == "log" && c.dir == "d" && c.timeout == 30*time.Second &&
				c.grace == time.Second && c.maxOut == 1<<20 && c.dialect == chain.Windows && c.approvalTimeout == 10*time.Second
		}},
		{"the CLI's policy flags", []string{"--claude-settings", "--permission-mode", "acceptEdits", "--add-dir", "x", "--add-dir", "y"}, true, 0, "", func(c *mcpConfig) bool {
			return c.claude != nil && *c.claude == "" && c.mode == "acceptEdits" && strings.Join(c.addDirs, ",") == "x,y" && c.judges()
		}},
		{"--claude-settings=DIR", []string{"--claude-settings=proj"}, true, 0, "", func(c *mcpConfig) bool {
			return c.claude != nil && *c.claude == "proj" && len(c.policies) == 0
		}},
		{"no policy flag: nothing judges", nil, true, 0, "", func(c *mcpConfig) bool { return !c.judges() }},
		{"help", []string{"--help"}, false, 0, "Usage: chainrun mcp [flags]", nil},
		{"help names the policy flags", []string{"--help"}, false, 0, "--claude-settings[=DIR]", nil},
		{"unknown flag", []string{"--yes"}, false, exitUsage, "flag provided but not defined: --yes", nil},
		{"no arguments", []string{"ls"}, false, exitUsage, "mcp takes no arguments", nil},
		{"bad dialect", []string{"--dialect", "cmd"}, false, exitUsage, "want posix or windows", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			c := &cli{stdout: &stdout, stderr: &stderr}
			cfg, status, ok := c.parseMCPArgs(tc.args)
			if ok != tc.ok || status != tc.status {
				t.Fatalf("ok %v status %d, want %v %d; stderr %s", ok, status, tc.ok, tc.status, stderr.String())
			}
			if !strings.Contains(stdout.String()+stderr.String(), tc.out) {
				t.Errorf("output lacks %q:\n%s%s", tc.out, stdout.String(), stderr.String())
			}
			if tc.check != nil && !tc.check(cfg) {
				t.Errorf("config %+v", cfg)
			}
		})
	}
}

// TestRootPolicy: a policy without roots gets the server's directory as
// its root; one with roots keeps them.
func TestRootPolicy(t *testing.T) {
	dir := testprog.TempDir(t)
	for _, tc := range []struct {
		name  string
		roots []string
		want  []string
	}{
		{"no roots: the server's directory", nil, []string{dir}},
		{"roots kept", []string{"/r"}, []string{"/r"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &policy.Policy{Roots: tc.roots}
			if err := rootPolicy(p, dir); err != nil {
				t.Fatal(err)
			}
			if strings.Join(p.Roots, ",") != strings.Join(tc.want, ",") {
				t.Errorf("roots %q, want %q", p.Roots, tc.want)
			}
		})
	}
}
