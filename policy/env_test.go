package policy

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/expand"
	"github.com/chainrun/chainrun/internal/testprog"
)

// envChannels are the ways a command line puts a variable into a
// program's environment, each as a chain setting NAME to a value and
// then running git (a program that reads many variables).
var envChannels = []struct {
	name   string
	format string // %N is the name
	// exported says the name must be exported already for the channel
	// to reach a program (an assignment alone, printf -v).
	exported bool
}{
	{name: "prefix", format: "%N=v git log"},
	{name: "two prefixes", format: "LANG=C %N=v git log"},
	{name: "env wrapper", format: "env %N=v git log"},
	{name: "env wrapper after a prefix", format: "TZ=UTC env -i %N=v git log"},
	{name: "export with a value", format: "export %N=v; git log"},
	{name: "export of a set variable", format: "%N=v; export %N && git log"},
	{name: "export of two", format: "export LANG=C %N=v && git log"},
	{name: "assignment alone to an exported name", format: "%N=v; git log", exported: true},
	{name: "assignment alone, two names", format: "X=1 %N=v && git log", exported: true},
	{name: "printf -v", format: "printf -v %N %s v; git log", exported: true},
	{name: "printf -v joined", format: "printf -v%N v && git log", exported: true},
	{name: "given from outside (--env, MCP env, carried)", format: "git log"},
}

// envDanger are names no safe-list holds: those that ran code or wrote
// files unasked when a list of dangerous names was used, the classic
// ones, and names no list would think of.
var envDanger = []string{
	"GIT_TRACE", "GIT_COMMON_DIR", "GIT_INDEX_FILE", "GIT_CONFIG_COUNT", "GIT_SSH_COMMAND", "GIT_EXEC_PATH",
	"TAR_OPTIONS", "MAKEFLAGS", "MAKEFILES", "GOENV", "GOROOT", "GOFLAGS", "RSYNC_RSH", "CDPATH",
	"OPENSSL_CONF", "LUA_INIT", "MANOPT", "PATH", "HOME", "LD_PRELOAD", "DYLD_INSERT_LIBRARIES",
	"BASH_ENV", "NODE_OPTIONS", "PYTHONPATH", "PERL5OPT", "npm_config_script_shell", "PAGER", "EDITOR",
	"SOME_TOOL_HOOK", "lang", "Path",
}

// envVerdict judges the channel's chain with name set, allowing every
// command (Bash) in mode, with name exported in the environment when
// exported is set.
func envVerdict(t testing.TB, dir, format, name string, exported, given bool, mode Mode, deny ...string) *chain.Decision {
	t.Helper()
	src := strings.ReplaceAll(format, "%N", name)
	env := []string{"LANG=C"}
	if exported {
		env = append(env, name+"=old")
	}
	c, err := chain.ParseDialect(src, chain.POSIX)
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	if c, err = expand.Plan(c, expand.HostShell(env, dir)); err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	var g map[string]string
	if given {
		g = map[string]string{name: "--env " + name}
	}
	p := (&Policy{Mode: mode, Allow: mustRules(t, []string{"Bash"}), Deny: mustRules(t, deny)}).ForEnv(env, g)
	d, err := p.Authorize(context.Background(), c, dir)
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	return d
}

// TestEnvChannels: through every channel, a name not on the safe-list
// asks even under a catch-all allow rule and bypassPermissions, with a
// reason naming it; a deny rule sees through every channel; a safe-listed
// name passes.
func TestEnvChannels(t *testing.T) {
	dir := testprog.TempDir(t)
	for _, ch := range envChannels {
		given := strings.HasPrefix(ch.name, "given")
		for _, name := range envDanger {
			for _, mode := range []Mode{ModeDefault, ModeAcceptEdits, ModeBypass} {
				d := envVerdict(t, dir, ch.format, name, ch.exported, given, mode)
				if d.Verdict != chain.Ask || !reasonsName(d, name) {
					t.Errorf("%s, %s, %s: %s, want ask naming %s\n%+v", ch.name, name, mode, d.Verdict, name, d.Segments)
				}
			}
			if d := envVerdict(t, dir, ch.format, name, ch.exported, given, ModeDefault, "Bash(git log:*)"); d.Verdict != chain.Deny {
				t.Errorf("%s, %s: %s under a deny rule for git log, want deny", ch.name, name, d.Verdict)
			}
		}
		if d := envVerdict(t, dir, ch.format, "TZ", ch.exported, given, ModeDefault); d.Verdict != chain.Allow {
			t.Errorf("%s, TZ: %s, want allow (TZ is safe-listed)\n%+v", ch.name, d.Verdict, d.Segments)
		}
	}
}

// TestEnvNotExported: an assignment alone, or printf -v, to a name that
// is not exported only feeds expansions: free, whatever the name.
func TestEnvNotExported(t *testing.T) {
	dir := testprog.TempDir(t)
	for _, format := range []string{"%N=v; git log", "printf -v %N %s v && git log"} {
		for _, name := range []string{"GIT_TRACE", "LD_PRELOAD", "X"} {
			if d := envVerdict(t, dir, format, name, false, false, ModeDefault); d.Verdict != chain.Allow {
				t.Errorf("%q with %s not exported: %s, want allow\n%+v", format, name, d.Verdict, d.Segments)
			}
		}
	}
}

// reasonsName reports whether a reason of the decision names the
// variable as one not on the safe-list.
func reasonsName(d *chain.Decision, name string) bool {
	for _, sd := range d.Segments {
		for _, r := range sd.Reasons {
			if strings.Contains(r, "puts "+name+" into the environment") && strings.Contains(r, name+" is not on the safe-list") {
				return true
			}
		}
	}
	return false
}

// FuzzEnvChannels: no name off the safe-list passes any channel, and
// every safe-listed one passes each.
func FuzzEnvChannels(f *testing.F) {
	for i, n := range append(envDanger, "TZ", "GOOS", "CI", "X", "_", "a1") {
		f.Add(n, uint8(i))
	}
	dir := testprog.TempDir(f)
	f.Fuzz(func(t *testing.T, name string, k uint8) {
		if !validName(name) {
			t.Skip()
		}
		ch := envChannels[int(k)%len(envChannels)]
		given := strings.HasPrefix(ch.name, "given")
		d := envVerdict(t, dir, ch.format, name, ch.exported, given, ModeBypass)
		if isSafeEnv(name) {
			if d.Verdict != chain.Allow {
				t.Errorf("%s, safe-listed %s: %s, want allow\n%+v", ch.name, name, d.Verdict, d.Segments)
			}
		} else if d.Verdict != chain.Ask || !reasonsName(d, name) {
			t.Errorf("%s, %s: %s, want ask naming it\n%+v", ch.name, name, d.Verdict, d.Segments)
		}
	})
}

// validName reports a shell variable name, not one the chain reserves.
func validName(s string) bool {
	if s == "" || len(s) > 40 || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// TestSafeListDocumented: docs/policy.md shows the safe-list as safeEnv
// holds it, each name with its reason, and nothing else.
func TestSafeListDocumented(t *testing.T) {
	data, err := os.ReadFile("../docs/policy.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(strings.ReplaceAll(string(data), "\r\n", "\n"), "| Name | Why it is safe |\n|---|---|\n")
	if !ok {
		t.Fatal("docs/policy.md has no safe-list table")
	}
	table, _, _ = strings.Cut(table, "\n\n")
	rows := strings.Split(table, "\n")
	var want []string
	for _, e := range safeEnv {
		want = append(want, "| `"+e.name+"` | "+e.why+" |")
	}
	if !slices.Equal(rows, want) {
		t.Errorf("docs/policy.md's safe-list table differs from safeEnv:\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}
