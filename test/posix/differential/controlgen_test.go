//go:build unix

package differential

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// controlSeed is the control-flow suite's default seed.
const controlSeed = 25

// TestControlDifferential runs generated chains of compound commands (if,
// for, C-style for, while, until, case, break, continue, groups,
// subshells, !), nested, redirected and in pipelines, over the run
// suite's seeded directory, and compares them with bash as the run suite
// does: stdout, stderr, status and the files left behind.
func TestControlDifferential(t *testing.T) {
	seed, n := seedAndCount(t, controlSeed, 300)
	runSuite(t, "control", seed, n, stderrText, func(i int) runCase { return newControlGen(seed, i).chain() })
}

// trickyControls are hand-written control-flow chains compared with bash.
var trickyControls = []runCase{
	{Src: `for f in a b; do x=$f; done; echo $x`}, {Src: `{ cd sub; }; pwd`}, {Src: `(cd sub; pwd); pwd`},
	{Src: `if false; then echo a; elif false; then echo b; fi; echo $?`}, {Src: `if false; then :; else echo $?; fi`},
	{Src: `while false; do :; done; echo $?`}, {Src: `for i in; do echo $i; done; echo $?`},
	{Src: `for i in 1 2 3; do [ $i = 2 ] && continue; echo $i; done`},
	{Src: `for i in 1 2; do for j in a b c; do [ $j = b ] && break 2; echo $i$j; done; done; echo $i$j`},
	{Src: `for i in 1 2; do for j in a b; do continue 2; echo no; done; echo no; done; echo $i $j`},
	{Src: `for i in 1 2; do break 9; done; echo $i`}, {Src: `break; echo $?`}, {Src: `continue 2; echo $?`},
	{Src: `for i in 1; do break 0; done; echo not reached`}, {Src: `for i in 1; do break x; done; echo not reached`},
	{Src: `! true; echo $?; ! false; echo $?; ! echo a | grep -q b; echo $?`},
	{Src: `set -e; if false; then :; fi; false || echo tested; echo on`},
	{Src: `set -e; for i in 1 2; do echo $i; false; done; echo no`}, {Src: `set -e; ! false; echo on`},
	{Src: `set -e; { false; echo in; } || echo or; echo on`}, {Src: `set -e; (false); echo no`},
	{Src: `set -e; while false; do :; done; until true; do :; done; echo on`},
	{Src: `{ exit 3; }; echo no`}, {Src: `(exit 3); echo $?`}, {Src: `if true; then exit 4; fi; echo no`},
	{Src: `for i in a b; do exit $?; done; echo no`},
	{Src: `case a.go in *.txt) echo t;; *.go) echo go;& x) echo fell;; y) echo no;; esac`},
	{Src: `case ab in a*) echo 1;;& *b) echo 2;;& x) echo no;; *) echo 3;; esac`},
	{Src: `case "*" in '*') echo lit;; esac; case x in "*") echo no;; *) echo star;; esac`},
	{Src: `x=sub; case $x/inner in sub/*) echo in sub;; esac`}, {Src: `case $(echo hi) in h?) echo matched;; esac`},
	{Src: `case x in y) echo no;; esac; echo $?`}, {Src: `case x in x) false;; esac; echo $?`},
	{Src: `for ((i=0; i<3; i++)); do printf $i; done; echo " $i"`}, {Src: `for ((i=5; i>0; i-=2)); do echo $i; done`},
	{Src: `for ((;;)); do echo once; break; done`}, {Src: `n=0; for ((i=1; i<=4; i++)); do n=$((n+i)); done; echo $n`},
	{Src: `{ echo a; echo b; } | wc -l`}, {Src: `{ echo in; ls nonexistent; } > o.txt 2>&1; cat o.txt`},
	{Src: `seq 3 | while read -r l; do echo "<$l>"; done`}, {Src: `while read -r l; do echo "[$l]"; done < a.txt`},
	{Src: `echo a | while read x; do y=$x; done; echo "[$y]"`}, {Src: `for f in *.txt; do wc -l < $f; done`},
	{Src: `for f in sub/*; do echo "$f"; done | sort`}, {Src: `for w in $(cat nums); do echo w$w; done | head -n 3`},
	{Src: `i=0; while [ $i -lt 3 ]; do i=$((i+1)); echo $i; done`}, {Src: `i=3; until [ $i = 0 ]; do i=$((i-1)); done; echo $i`},
	{Src: `if cd sub; then pwd; fi; pwd`}, {Src: `if cd nonexistent 2>/dev/null; then pwd; else echo failed; fi`},
	{Src: `for d in sub sub/inner; do (cd $d && ls); done`}, {Src: `x=1; (x=2; echo $x); echo $x`},
	{Src: `{ x=2; } > /dev/null; echo $x`}, {Src: `if true; then echo a; fi > f; cat f`},
	{Src: `for i in 1 2; do echo $i; done > f; cat f`}, {Src: `while read l; do echo $l; done < nums | sort -r | head -n 2`},
	{Src: `: && echo colon; : > made; ls made`}, {Src: `if :; then echo yes; fi`},
	{Src: `for i in 1 2 3; do if [ $i = 2 ]; then echo two; elif [ $i = 3 ]; then echo three; else echo other; fi; done`},
	{Src: `echo $(for i in a b; do echo $i; done)`}, {Src: `x=$(if true; then echo yes; fi); echo $x`},
}

// TestControlDifferentialTable runs the hand-written control-flow chains.
func TestControlDifferentialTable(t *testing.T) {
	runSuite(t, "control table", 0, len(trickyControls), stderrText, func(i int) runCase { return controlCase(trickyControls[i]) })
}

// controlCase marks a chain POSIX (for dash too) when it has nothing
// bash-only: C-style for, ;&, ;;&, <<< and bash's echo.
func controlCase(c runCase) runCase {
	c = tableCase(c)
	c.POSIX = c.POSIX && !strings.Contains(c.Src, "((") && !strings.Contains(c.Src, ";&") && !strings.Contains(c.Src, "break 0") &&
		!strings.Contains(c.Src, "break x")
	return c
}

// controlGen generates chains of compound commands.
type controlGen struct {
	r *rand.Rand
}

func newControlGen(seed uint64, i int) *controlGen {
	return &controlGen{r: rand.New(rand.NewPCG(seed^0xc0f1, 0x9e3779b97f4a7c15^uint64(i)))}
}

// simple commands for bodies and conditions: output, statuses, state
// changes (variables, cd) and loop control.
var controlSimple = []string{
	"echo a", "echo $x", "echo $i", "printf '%s;' $i", "true", "false", ":", "x=$i", "x=v", "cat a.txt",
	"ls sub", "pwd", "test -f a.txt", "grep -q an a.txt", "echo $?", "ls nonexistent", "cd sub", "n=$((n+1))",
	"echo n=$n", "head -n 1 nums",
}

var controlConds = []string{"true", "false", "test -n \"$x\"", "[ \"$i\" = 2 ]", "grep -q an a.txt", "! false", "[ ${n:-0} -lt 3 ]", "test -d sub"}

// list is a ;/&&/|| list of one to three commands, compounds among them
// while depth allows; inLoop allows break and continue.
func (g *controlGen) list(depth int, inLoop bool) string {
	var b strings.Builder
	for k := range 1 + g.r.IntN(3) {
		if k > 0 {
			b.WriteString(pick(g.r, "; ", "; ", " && ", " || "))
		}
		b.WriteString(g.command(depth, inLoop))
	}
	return b.String()
}

func (g *controlGen) command(depth int, inLoop bool) string {
	if inLoop && g.r.IntN(8) == 0 {
		return pick(g.r, "break", "continue", "[ \"$i\" = 2 ] && break", "[ \"$i\" = 1 ] && continue", "break 2", "continue 2")
	}
	if depth < 2 && g.r.IntN(3) == 0 {
		return g.compound(depth + 1)
	}
	return pick(g.r, controlSimple...)
}

// compound is one compound command, now and then redirected, negated or
// piped.
func (g *controlGen) compound(depth int) string {
	var c string
	switch g.r.IntN(8) {
	case 0:
		c = "if " + pick(g.r, controlConds...) + "; then " + g.list(depth, false) + "; fi"
	case 1:
		c = "if " + pick(g.r, controlConds...) + "; then " + g.list(depth, false) + "; elif " + pick(g.r, controlConds...) +
			"; then " + g.list(depth, false) + "; else " + g.list(depth, false) + "; fi"
	case 2:
		c = "for i in " + pick(g.r, "1 2 3", "a", "", "*.txt", "$(seq 2)", "\"a b\" c") + "; do " + g.list(depth, true) + "; done"
	case 3:
		k := "k" + strconv.Itoa(depth) // a counter of its own: an inner loop does not reset it
		c = k + "=0; while [ $" + k + " -lt " + pick(g.r, "0", "2", "3") + " ]; do " + k + "=$((" + k + "+1)); i=$" + k + "; " + g.list(depth, true) + "; done"
	case 4:
		k := "k" + strconv.Itoa(depth)
		c = k + "=0; until [ $" + k + " -ge 2 ]; do " + k + "=$((" + k + "+1)); i=$" + k + "; " + g.list(depth, true) + "; done"
	case 5:
		c = "case " + pick(g.r, "$i", "a.txt", "\"$x\"", "sub/c") + " in " + pick(g.r, "a*", "*.txt", "[0-9]", "sub/*", "\"\"") + ") " +
			g.list(depth, false) + ";; " + pick(g.r, "*", "1|2", "v") + ") " + g.list(depth, false) + ";; esac"
	case 6:
		c = "{ " + g.list(depth, false) + "; }"
	default:
		c = "( " + g.list(depth, false) + " )"
	}
	switch g.r.IntN(8) {
	case 0:
		return c + " > out.txt; cat out.txt"
	case 1:
		return c + " | sort" // not 2>&1: the shells' own messages differ in their prefix, which sorts differently
	case 2:
		return "! " + c
	case 3:
		return "seq 2 | " + strings.Replace(c, "; do ", "; do read -r l; echo l=$l; ", 1)
	}
	return c
}

// chain is a compound or two with commands around them, then the state
// they leave.
func (g *controlGen) chain() runCase {
	var b strings.Builder
	if g.r.IntN(3) == 0 {
		b.WriteString(pick(g.r, "set -e; ", "x=pre; ", "i=0; "))
	}
	for k := range 1 + g.r.IntN(2) {
		if k > 0 {
			b.WriteString(pick(g.r, "; ", " && ", " || "))
		}
		b.WriteString(g.compound(0))
	}
	b.WriteString("; echo \"end $? x=$x i=$i n=$n\"; pwd")
	return controlCase(runCase{Src: b.String()})
}
