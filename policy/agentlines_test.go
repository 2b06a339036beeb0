package policy

import (
	"context"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/expand"
	"github.com/chainrun/chainrun/internal/testprog"
)

// agentLines is the corpus of command lines in the style coding agents
// write (chain/testdata/agentlines.txt): a measure of how often the
// policy asks about what agents run every day.
const agentLines = "../chain/testdata/agentlines.txt"

// agentEnv is the environment the corpus is planned and judged with, the
// same on every machine so that the counts are.
var agentEnv = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/home/dev", "LANG=C.UTF-8", "TERM=xterm-256color", "USER=dev"}

// maxAgentAsks holds the number of corpus entries that ask, per mode,
// with every program of the corpus allowed by a Bash(NAME:*) rule. A
// change that makes the policy ask more must raise it, and say in its
// message which new asks a careful user would want and why.
var maxAgentAsks = map[Mode]int{ModeDefault: 202, ModeAcceptEdits: 94, agentRooted: 64}

// agentDirs are the scratch directory and the project directories the
// corpus's agents work in. In recorded agent traffic each agent's project
// is a root of its own; judged with these as additional directories, in
// acceptEdits, the corpus is measured as that traffic is.
var agentDirs = []string{"/tmp", "/testbed", "/workspace", "/app", "/repo", "/src", "/home/dev/proj", "/home/dev/projects",
	"/home/dev/code", "/home/user/project", "/Users/dev/code"}

// maxAgentAsksWindows is maxAgentAsks on Windows, where the corpus's
// POSIX paths ("cd /repo", "cat /etc/os-release") are on the current
// drive, outside the roots, and "cd /x" asks as it does on POSIX.
var maxAgentAsksWindows = map[Mode]int{ModeDefault: 207, ModeAcceptEdits: 100, agentRooted: 76}

// TestAgentLineAsks counts the corpus entries the policy asks about (go
// test ./policy -run TestAgentLineAsks -v prints the counts and every
// ask with its first reason).
func TestAgentLineAsks(t *testing.T) {
	entries := readAgentLines(t)
	dir := testprog.TempDir(t)
	var chains []*chain.Chain
	names := map[string]bool{}
	for _, e := range entries {
		c, err := chain.ParseDialect(e, chain.POSIX)
		if err != nil {
			continue // refused before any rule is matched
		}
		sh := expand.HostShell(agentEnv, dir)
		sh.Writes = (&Policy{}).MayWrite
		if c, err = expand.Plan(c, sh); err != nil {
			continue
		}
		chains = append(chains, c)
		addProgramNames(names, c)
	}
	for _, mode := range []Mode{ModeDefault, ModeAcceptEdits, agentRooted} {
		p := agentPolicy(names, mode).ForEnv(agentEnv, nil)
		limits := maxAgentAsks
		if runtime.GOOS == "windows" {
			limits = maxAgentAsksWindows
		}
		max := limits[mode]
		if mode == agentRooted {
			p.Mode, p.AdditionalDirectories = ModeAcceptEdits, agentDirs
		}
		asks := 0
		for _, c := range chains {
			d, err := p.Authorize(context.Background(), c, dir)
			if err != nil {
				t.Fatal(err)
			}
			if d.Verdict == chain.Ask {
				asks++
				t.Logf("%s ask: %q: %s", mode, c.Source, firstAsk(d))
			}
		}
		t.Logf("%s: %d of %d planned entries ask (%d entries in the corpus)", mode, asks, len(chains), len(entries))
		if asks > max {
			t.Errorf("%s: %d entries ask, more than the %d recorded in maxAgentAsks (maxAgentAsksWindows on Windows)", mode, asks, max)
		}
	}
}

// addProgramNames adds the rule words of the programs c runs to names:
// its segments' and, since every program the corpus names is allowed,
// those its command substitutions run.
func addProgramNames(names map[string]bool, c *chain.Chain) {
	for _, s := range c.Segments() {
		if len(s.Args) > 0 && !s.ArgRuntime(0) {
			names[programRuleWord(s.Args[0])] = true
		}
		for _, sb := range s.Substs {
			addProgramNames(names, sb.Chain)
		}
	}
}

// programRuleWord is the word a rule allowing the program names: its
// canonical name when it is found on PATH, the word as written when it is
// a path (./gradlew), which a rule must spell out to match.
func programRuleWord(prog string) string {
	if strings.ContainsAny(prog, `/\`) {
		return prog
	}
	return canonicalName(prog)
}

// agentRooted names the acceptEdits run with agentDirs among the roots.
const agentRooted Mode = "acceptEdits+agentDirs"

// agentPolicy allows every program named by the corpus with Bash(NAME:*)
// in mode.
func agentPolicy(names map[string]bool, mode Mode) *Policy {
	p := &Policy{Mode: mode, Home: "/home/dev"}
	for _, n := range slices.Sorted(func(yield func(string) bool) {
		for n := range names {
			if !yield(n) {
				return
			}
		}
	}) {
		r, ok, err := ParseRule("Bash(" + n + ":*)")
		if !ok || err != nil {
			continue
		}
		p.Allow = append(p.Allow, r)
	}
	return p
}

// firstAsk is the reasons of the first segment that asks, or the
// chain-wide reasons.
func firstAsk(d *chain.Decision) string {
	for _, sd := range d.Segments {
		if sd.Verdict == chain.Ask {
			return strings.Join(sd.Reasons, "; ")
		}
	}
	return strings.Join(d.Chain, "; ")
}

// readAgentLines splits the corpus into entries as the chain package's
// acceptance test does: text between "#---" lines, less leading "# "
// comments.
func readAgentLines(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(agentLines)
	if err != nil {
		t.Fatal(err)
	}
	var entries []string
	for block := range strings.SplitSeq(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n#---\n") {
		lines := strings.Split(block, "\n")
		for len(lines) > 0 && (lines[0] == "#" || strings.HasPrefix(lines[0], "# ")) {
			lines = lines[1:]
		}
		if e := strings.Trim(strings.Join(lines, "\n"), "\n"); e != "" {
			entries = append(entries, e)
		}
	}
	return entries
}
