//go:build unix

package differential

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/tools"
)

// toolsSeed is the built-in tools suite's default seed.
const toolsSeed = 22

// toolCase says how to generate commands for one tool: the options it is
// tried with (each word or pair of words one choice; up to three are
// drawn) and its operand lists (one drawn), and inputs to pipe into it.
type toolCase struct {
	name string
	// lead are options of which at most one is drawn, first: head's and
	// tail's counts, whose -NUM GNU reads only there.
	lead []string
	// leadAlone: a lead option is drawn with no other (xargs -I, which
	// GNU's xargs settles against -n with warnings).
	leadAlone bool
	opts      []string
	operands  []string
	stdin     []string
}

// toolCases are the tools and options chainrun's built-in versions
// accept, with operands that reach their errors too (missing files,
// directories, files where directories are wanted).
var toolCases = []toolCase{
	{name: "tee", opts: []string{"-a", "--append"}, operands: []string{"", "out", "a.txt", "out out2", "nope/x out", "sub"},
		stdin: []string{"printf 'x\\ny\\n' |", "cat nums |"}},
	// env's operands all start with -i: the environment bash passes on
	// (SHLVL, _) is not chainrun's.
	{name: "env", opts: []string{"-u HOME", "-u PATH", "-0"},
		operands: []string{"-i", "-i A=1", "-i A=1 B=2", "-i A=1 sh -c 'echo $A'", "-i nope", "-i A=1 nope", "-i sh -c 'echo $HOME'",
			"-i PATH=/bin sh -c 'echo $PATH'"}},
	{name: "xargs", lead: []string{"-I X"}, leadAlone: true, opts: []string{"-0", "-n 1", "-n 2", "-r", "-t", "-d ,"},
		operands: []string{"", "echo", "echo X -", "wc -l", "grep -n e", "cat", "nope", "false", "sh -c 'exit 255'", "ls -d"},
		stdin: []string{"printf 'a.txt nums\\nb.txt\\n' |", "printf 'a.txt\\0nums\\0' |", "printf '' |",
			"printf '\"my file.txt\" sub\\n' |", "printf 'a.txt,b.txt' |", "printf \"'x\" |"}},
	{name: "find", operands: []string{"", ".", "sub", "nope", ". -name '*.txt'", ". -iname 'A*'", "sub -type f", ". -type d",
		". -maxdepth 1", ". -mindepth 2 -type f", "sub -path '*inner*'", ". -name sub -prune -o -print", ". ! -name '*.txt' -type f",
		". \\( -name a.txt -o -name b.txt \\) -print", ". -empty", "sub -size -1k", ". -size +20c", ". -newer a.txt",
		". -mtime +1", ". -not -path './sub*' -name '*.txt'", "sub -name inner -delete", "deep -type d -empty -delete",
		". -name nums -delete -print", ". -foo", ". -name", ". -type q", "sub nope -type f", "-name a.txt", ". -maxdepth x",
		"sub -name '*.txt' -exec wc -l {} +", "sub -type f -exec cat {} \\;", ". -name a.txt -exec grep -n e {} \\; -print",
		"sub -exec false \\;", "sub -type f -exec false {} +", "sub -exec nope {} \\;", ". -name '*.txt' -print0", "sub -exec echo",
		". -name b.txt -exec rm {} +", "sub -type f -exec echo x{}y \\;"}},
	{name: "grep", opts: []string{"-r", "-n", "-i", "-v", "-c", "-E", "-F", "-l", "-L", "-q", "-w", "-o", "-x", "-h", "-H", "-s",
		"-rn", "-A 1", "-B 1", "-C 1", "--include='*.txt'", "--exclude-dir=inner", "-e an", "-e '^c'"},
		operands: []string{"apple a.txt", "an a.txt b.txt", "'^b' a.txt nums", "'a.*e' a.txt", "'x\\|n' a.txt b.txt", "'p\\{2\\}' a.txt",
			"'(a|b)n' a.txt", "e sub", "deep sub", "e nope a.txt", "'[[:digit:]]' b.txt nums", "'\\<one' b.txt", "1 nums",
			"APPLE a.txt", "e", "e .", "apple"},
		stdin: []string{"", "cat a.txt |", "printf 'x\\0y\\n' |"}},
	{name: "ls", opts: []string{"-l", "-a", "-A", "-d", "-R", "-r", "-t", "-h", "-1", "-la", "-lh", "-lt", "-al"},
		operands: []string{"", ".", "sub", "a.txt sub", "nope", "nope a.txt", "sub/inner", "a.txt b.txt nums", "sub emptydir", "sub/inner/.."}},
	{name: "cat", opts: []string{"-n", "-b", "-s", "-E", "--number", "-A"},
		operands: []string{"", "a.txt", "a.txt b.txt", "blanks", "nonl a.txt", "nope a.txt", "sub", "- a.txt", "empty"},
		stdin:    []string{"", "printf 'x\\n\\n\\n\\ny\\n' |"}},
	{name: "head", lead: []string{"-n 2", "-n 0", "-n -2", "-n 100", "-c 5", "-c -3", "-3", "-1", "--lines=4", "-n x", "-c 0"}, opts: []string{"-q", "-v"},
		operands: []string{"", "lines", "lines a.txt", "nonl", "nope", "empty lines", "sub"}, stdin: []string{"", "cat lines |"}},
	{name: "tail", lead: []string{"-n 2", "-n 0", "-n +3", "-n +1", "-c 5", "-c +4", "-3", "-1", "--lines=4", "-c 0"}, opts: []string{"-q", "-v"},
		operands: []string{"", "lines", "lines a.txt", "nonl", "nope", "empty lines"}, stdin: []string{"", "cat lines |"}},
	{name: "wc", opts: []string{"-l", "-w", "-c", "-m", "-L", "--lines"},
		operands: []string{"", "a.txt", "a.txt b.txt", "lines nonl", "nope", "empty", "nope a.txt"}, stdin: []string{"", "cat lines |", "printf 'a b\\tc\\n d' |"}},
	{name: "sort", opts: []string{"-u", "-n", "-r", "-rn", "-f", "-s", "-nu", "-fu", "-h", "-hr", "-o out", "-o a.txt"},
		operands: []string{"", "a.txt", "nums", "dups", "human", "a.txt nums", "mixed"}, stdin: []string{"", "cat dups |"}},
	{name: "uniq", opts: []string{"-c", "-d", "-u", "-i", "-ci"},
		operands: []string{"", "dups", "a.txt", "nope", "dups out.txt"}, stdin: []string{"", "sort a.txt |", "cat dups |"}},
	{name: "mkdir", opts: []string{"-p", "-v", "--parents"},
		operands: []string{"", "x", "x/y/z", "sub", "a.txt", "x y", "sub/new", "nope/q"}},
	{name: "rmdir", opts: []string{"-p", "--ignore-fail-on-non-empty"},
		operands: []string{"", "emptydir", "sub", "sub/inner", "nope", "a.txt", "deep/er/est"}},
	{name: "rm", opts: []string{"-r", "-f", "-rf", "-d", "-R"},
		operands: []string{"", "a.txt", "sub", "nope", "emptydir", "a.txt nope b.txt", "sub/inner/d.txt", "deep"}},
	{name: "touch", opts: []string{"-c", "--no-create"},
		operands: []string{"", "new", "a.txt", "nope/x", "new sub/new2"}},
	{name: "cp", opts: []string{"-r", "-n", "-v", "-f", "-R"},
		operands: []string{"", "a.txt", "a.txt b.txt", "a.txt sub", "a.txt new", "sub newdir", "sub emptydir", "nope x",
			"a.txt a.txt", "a.txt b.txt sub", "a.txt b.txt nums", "-t sub a.txt b.txt", "a.txt nope/x"}},
	{name: "mv", opts: []string{"-n", "-v", "-f"},
		operands: []string{"", "a.txt", "a.txt b.txt", "a.txt sub", "a.txt new", "sub newdir", "sub emptydir", "nope x",
			"a.txt a.txt", "a.txt b.txt sub", "-t sub a.txt nums", "emptydir a.txt"}},
	{name: "basename", opts: []string{"-a", "-z"},
		operands: []string{"", "a/b.txt", "a/b.txt .txt", "/usr/lib/", "/", "b.txt b", "a/b/ c//d", "x.txt .txt y"}},
	{name: "dirname", opts: []string{"-z"},
		operands: []string{"", "a/b.txt", "/usr/lib/", "/", "b.txt", "a//b", "a/b/ /c", "//x", "a/"}},
	{name: "which", operands: []string{"", "cat", "nope", "cat sh", "nope cat"}},
	{name: "sleep", operands: []string{"", "0", "0.01", "x", "0s 0.01"}},
}

// toolSeed are files the tools suite adds to each side's seed.
var toolSeed = []struct{ Name, Data string }{
	{"lines", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\nl11\nl12\n"},
	{"nonl", "first\nno newline"},
	{"blanks", "a\n\n\n\nb\n\nc\n"},
	{"dups", "b\nb\nA\na\na\nc\nb\nB\n"},
	{"human", "2K\n1M\n512\n3G\n1K\n-2K\n0\n1.5K\nx\n10k\n"},
	{"mixed", "Banana\napple\n10 x\n9 y\n-1\n\n"},
	{"emptydir/", ""},
	{"deep/er/est/", ""},
}

// genToolCase draws case i of tool c.
func genToolCase(c *toolCase, r *rand.Rand) string {
	var words []string
	if len(c.stdin) > 0 {
		if s := c.stdin[r.IntN(len(c.stdin))]; s != "" {
			words = append(words, s)
		}
	}
	words = append(words, c.name)
	lead := len(c.lead) > 0 && r.IntN(4) > 0
	if lead {
		words = append(words, c.lead[r.IntN(len(c.lead))])
	}
	if len(c.opts) > 0 && !(lead && c.leadAlone) {
		for range r.IntN(4) {
			words = append(words, c.opts[r.IntN(len(c.opts))])
		}
	}
	if o := c.operands[r.IntN(len(c.operands))]; o != "" {
		words = append(words, o)
	}
	return strings.Join(words, " ")
}

// TestToolsDifferential runs each built-in tool with generated options and
// operands under bash (the GNU programs) and under chainrun with
// tools.ModeAlways, on fresh identical sides, and compares stdout,
// stderr, status and every file left behind. It prints the count per tool.
func TestToolsDifferential(t *testing.T) {
	bash := needShell(t, "bash")
	seed, n := seedAndCount(t, toolsSeed, 60)
	only := onlyCase(t)
	dir, err := os.MkdirTemp("", "chainrun-tools-diff-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	setup := sideSetup{Tools: tools.ModeAlways, Seed: func(root string) error {
		for _, f := range toolSeed {
			p := filepath.Join(root, filepath.FromSlash(f.Name))
			if strings.HasSuffix(f.Name, "/") {
				if err := os.MkdirAll(p, 0o755); err != nil {
					return err
				}
			} else if err := os.WriteFile(p, []byte(f.Data), 0o644); err != nil {
				return err
			}
		}
		return fixTimes(filepath.Dir(root))
	}}
	var srcs []string
	counts := map[string]int{}
	for ti := range toolCases {
		r := rand.New(rand.NewPCG(seed, uint64(ti)))
		seen := map[string]bool{}
		for range n {
			if s := genToolCase(&toolCases[ti], r); !seen[s] {
				seen[s] = true
				srcs = append(srcs, s)
				counts[toolCases[ti].name]++
			}
		}
	}
	fails := forEach(len(srcs), func(i int) string {
		if only >= 0 && i != only {
			return ""
		}
		src := srcs[i]
		sh, err := runSideWith(dir, fmt.Sprintf("b%d", i), bash, src, setup)
		if err != nil {
			return fmt.Sprintf("case %d %q: bash: %v", i, src, err)
		}
		crun, err := runSideWith(dir, fmt.Sprintf("c%d", i), "", src, setup)
		if err != nil {
			return fmt.Sprintf("case %d %q: chainrun: %v", i, src, err)
		}
		if d := diffOutcomes("bash", sh, "chainrun", crun, stderrText); d != "" {
			return report(fmt.Sprintf("case %d (seed %d)", i, seed), src, d, "bash", sh, crun)
		}
		return ""
	})
	t.Logf("built-in tools vs GNU (seed %d): %d distinct cases, %d mismatches; per tool %v", seed, len(srcs), len(fails), counts)
	failures(t, fails, 15)
}

// fixTimes gives every entry under side a modification time of its own,
// the same on both sides (a minute apart in walk order, in 2025), so that
// ls -l and -t show the same on both.
func fixTimes(side string) error {
	base := time.Date(2025, 1, 2, 3, 4, 0, 0, time.UTC)
	i := 0
	return filepath.WalkDir(side, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		i++
		t := base.Add(time.Duration(i*37%23) * time.Minute)
		return os.Chtimes(p, t, t)
	})
}
