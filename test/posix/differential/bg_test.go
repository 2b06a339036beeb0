//go:build unix

package differential

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// bgSeed is the background suite's default seed.
const bgSeed = 2

// trickyBackground are hand-written chains with & and wait, compared with
// bash: statuses through wait, $!, job specs, what a background
// pipeline's subshell keeps to itself, its null stdin and its redirects.
// Output is printed only where its order is settled (after a wait, or
// from one side alone).
var trickyBackground = []runCase{
	{Src: `sh -c 'exit 3' & wait $!; echo $?`}, {Src: `false & wait; echo $?`}, {Src: `true & wait %1; echo $?`},
	{Src: `sh -c 'exit 4' & sleep 0.3 & wait %1; echo $?; wait %2; echo $?`},
	{Src: `sleep 0.3 & sh -c 'exit 6' & wait %1; echo $?; wait %2; echo $?; wait $!; echo $?`},
	{Src: `sleep 0.2 & wait %1; sleep 0.2 & wait %1; echo $?`},
	{Src: `sh -c 'exit 4' & p=$!; sh -c 'exit 5' & wait $p; echo $?; wait $!; echo $?`},
	{Src: `wait 999999; echo $?`}, {Src: `wait %3; echo $?`}, {Src: `wait abc; echo $?`}, {Src: `wait; echo $?`},
	{Src: `echo "[$!]"`}, {Src: `true & test -n "$!" && echo has-pid`},
	{Src: `sleep 0.01 & p=$!; wait $p; echo $?; wait $p; echo $?`},
	{Src: `true & wait %1; wait %1; echo $?`},
	{Src: `cd sub & wait; pwd`}, {Src: `V=1 & wait; echo "[$V]"`}, {Src: `export E=x & wait; echo "[$E]"`},
	{Src: `cat & wait $!; echo cat $?`}, {Src: `read x & wait $!; echo read $?`},
	{Src: `echo x > f1 & wait; cat f1`}, {Src: `echo bg & wait`}, {Src: `ls a.txt & wait`},
	{Src: `nosuchprog_x & wait $!; echo $?`}, {Src: `ls nonexistent & wait $!; echo $?`},
	{Src: `false | true & wait $!; echo $?`}, {Src: `set -o pipefail; false | true & wait $!; echo $?`},
	{Src: `seq 5 | head -n 2 & wait`}, {Src: `sort -n nums > sorted & wait; head -n 2 sorted`},
	{Src: `sh -c 'sleep 0.2; echo late' & echo early; wait; echo end`},
	{Src: `sleep 5 & kill $!; wait $!; echo $?`}, {Src: `sleep 0.01 & wait && echo waited`},
	{Src: `false & echo $?`}, {Src: `sh -c 'exit 7' & wait $! || echo failed $?`},
	{Src: `echo a > f1 & echo b > f2 & wait; cat f1 f2`}, {Src: `echo err >&2 & wait`},
	{Src: `nohup echo quiet > nh.log 2>&1 & wait $!; echo $?; cat nh.log`},
	{Src: `x=$(echo hi) & wait; echo "[$x]"`}, {Src: `echo $(echo in) & wait`},
	{Src: "sh -c 'exit 2' &\nwait $!\necho $?"}, {Src: `true & false & wait $!; echo $? $(echo $! | grep -c .)`},
	{Src: `set -e; false & wait; echo still`}, {Src: `set -e; false & wait $!; echo never`},
}

// TestBackgroundDifferentialTable runs the hand-written & and wait chains.
func TestBackgroundDifferentialTable(t *testing.T) {
	runSuite(t, "background table", 0, len(trickyBackground), stderrText, func(i int) runCase { return tableCase(trickyBackground[i]) })
}

// TestBackgroundDifferential runs generated chains of background
// pipelines and waits: one to three pipelines started with &, their pids
// kept, waited for by pid, %N, $! or all, the statuses printed, and the
// files they wrote read after.
func TestBackgroundDifferential(t *testing.T) {
	seed, n := seedAndCount(t, bgSeed, 200)
	runSuite(t, "background", seed, n, stderrText, func(i int) runCase { return newBgGen(seed, i).chain() })
}

// bgGen generates chains with & and wait.
type bgGen struct {
	r *rand.Rand
}

func newBgGen(seed uint64, i int) *bgGen {
	return &bgGen{r: rand.New(rand.NewPCG(seed^0xb6, 0x9e3779b97f4a7c15^uint64(i)))}
}

// bgJobs are background pipelines with settled statuses and output that
// goes to files or nowhere.
var bgJobs = []string{
	"true", "false", "sh -c 'exit 3'", "sh -c 'exit 42'", "sleep 0.0%d", "echo %d > f%d", "ls nonexistent 2>/dev/null",
	"cat a.txt > f%d", "seq %d | tail -n 1 > f%d", "grep an a.txt > f%d", "false | true", "true | false",
	"nosuchprog_x 2>/dev/null", "cd sub", "V=%d", "cat > f%d",
}

// job is one background pipeline, its %d filled in with n.
func (g *bgGen) job(n int) string {
	j := pick(g.r, bgJobs...)
	args := make([]any, strings.Count(j, "%d"))
	for i := range args {
		args[i] = n
	}
	return fmt.Sprintf(j, args...)
}

// wait is a wait of one of n jobs started, by pid, and its status. (A
// wait by %N races with bash's cleaning of its job table, and one after
// a wait for all with its forgetting of pids; the table has those.)
func (g *bgGen) wait(n int) string {
	k := 1 + g.r.IntN(n)
	w := pick(g.r, "wait $!", fmt.Sprintf("wait $p%d", k), fmt.Sprintf("wait $p%d $p1", k))
	return w + "; echo " + pick(g.r, "$?", "w$?", `"[$V]" $?`)
}

func (g *bgGen) chain() runCase {
	var b strings.Builder
	n := 1 + g.r.IntN(3)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s & p%d=$!; ", g.job(i), i)
	}
	for range 1 + g.r.IntN(2) {
		b.WriteString(g.wait(n) + "; ")
	}
	b.WriteString("wait; ")
	b.WriteString(pick(g.r, "cat f1 f2 f3 2>/dev/null; pwd", "ls; echo $?", "echo done $?"))
	src := b.String()
	return runCase{Src: src, POSIX: true}
}
