//go:build unix

package differential

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// procSubstSeed is the process-substitution suite's default seed.
const procSubstSeed = 63

// TestProcSubstDifferential runs generated chains with process
// substitutions, <(…) as arguments and as redirect targets, >(…) as the
// chain's last word of output, over the run suite's seeded directory, and
// compares them with bash: stdout, stderr, status and the files left.
func TestProcSubstDifferential(t *testing.T) {
	seed, n := seedAndCount(t, procSubstSeed, 200)
	runSuite(t, "procsubst", seed, n, stderrText, func(i int) runCase { return newProcSubstGen(seed, i).chain() })
}

// trickyProcSubsts are hand-written process substitutions compared with
// bash.
var trickyProcSubsts = []runCase{
	{Src: `echo <(true) <(true) >(true)`}, {Src: `cat <(echo a) <(echo b)`}, {Src: `diff <(sort nums) <(sort -n nums); echo $?`},
	{Src: `comm -12 <(sort a.txt) <(sort b.txt)`}, {Src: `read x < <(echo value); echo "[$x]"`},
	{Src: `head -n 1 <(seq 100000)`}, {Src: `cat <(cd sub && pwd); pwd`}, {Src: `V=1; cat <(V=2; echo $V); echo $V`},
	{Src: `cat <(exit 3); echo $?`}, {Src: `wc -l <(cat a.txt) < /dev/null`}, {Src: `grep -c an <(cat a.txt) a.txt`},
	{Src: `cat <(echo $(echo nested))`}, {Src: `cat <(cat <(echo deep))`}, {Src: `seq 3 | tee >(wc -l) > /dev/null`},
	{Src: `paste <(seq 3) <(seq 4 6) | sort -r`}, {Src: `cat < <(printf 'a\nb\n') | wc -l`}, {Src: `x=<(true); echo $x`},
	{Src: `cat <(cat missing.txt); echo $?`}, {Src: `echo "<(not)" '>(this)'`}, {Src: `cat <(ls sub) > out.txt; cat out.txt`},
	{Src: `sort -m <(sort nums) <(seq 2) | head -n 3`}, {Src: `cat <(echo a) && cat <(echo b) || echo no`},
}

// TestProcSubstDifferentialTable runs the hand-written process
// substitutions.
func TestProcSubstDifferentialTable(t *testing.T) {
	runSuite(t, "procsubst table", 0, len(trickyProcSubsts), stderrText, func(i int) runCase {
		return trickyProcSubsts[i] // bash only: dash has no process substitution
	})
}

// procSubstGen generates chains with process substitutions.
type procSubstGen struct {
	r *rand.Rand
}

func newProcSubstGen(seed uint64, i int) *procSubstGen {
	return &procSubstGen{r: rand.New(rand.NewPCG(seed^0x9c5b, 0x2545f4914f6cdd1d^uint64(i)))}
}

// procInners are inner chains: output in and out of order, empty output,
// statuses, and a cd and an assignment that must not leak out.
var procInners = []string{
	"sort nums", "sort -n nums", "cat a.txt", "cat b.txt", "seq 3", "seq 2 5", "printf 'a\\nb\\n'", "ls sub",
	"echo one", "true", "false", "grep an a.txt", "cd sub && ls", "V=x; echo $V", "sort -r nums | head -n 2",
	"cut -d, -f1 b.txt", "echo $(echo sub)", "cat <(seq 2)",
}

func (g *procSubstGen) in() string { return "<(" + pick(g.r, procInners...) + ")" }

// segment is one outer command reading or writing process substitutions.
func (g *procSubstGen) segment() string {
	switch g.r.IntN(9) {
	case 0:
		return "diff " + g.in() + " " + g.in() + "; echo $?"
	case 1:
		return "comm -12 " + g.in() + " " + g.in()
	case 2:
		return "cat " + g.in() + " " + pick(g.r, "a.txt", "nums", g.in())
	case 3:
		return "wc -l < " + g.in()
	case 4:
		return "paste " + g.in() + " " + g.in()
	case 5:
		return "read V < " + g.in() + "; echo \"[$V]\" $?"
	case 6:
		return "sort " + g.in() + " | uniq -c"
	case 7:
		return "grep -c " + pick(g.r, "a", "1", "x") + " " + g.in()
	}
	return "head -n 2 " + g.in()
}

// chain joins one to three segments; now and then the last writes into a
// >(…), which bash does not wait for, so nothing follows it.
func (g *procSubstGen) chain() runCase {
	var b strings.Builder
	for i := range 1 + g.r.IntN(3) {
		if i > 0 {
			b.WriteString(pick(g.r, " && ", " || ", "; ", "; "))
		}
		b.WriteString(g.segment())
	}
	if g.r.IntN(4) == 0 {
		b.WriteString("; " + pick(g.r, "seq 4", "cat nums", "echo hi") + " | tee >(" + pick(g.r, "wc -l", "sort -r", "grep 1") + ") > /dev/null")
	}
	return runCase{Src: b.String()}
}
