//go:build unix

package differential

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// substSeed is the command-substitution suite's default seed.
const substSeed = 24

// TestSubstDifferential runs generated chains with command substitutions
// ($(…) and backticks, nested, quoted and not) in arguments, assignments,
// redirect targets, here-strings and the command word, over the run
// suite's seeded directory, and compares them with bash as the run suite
// does: stdout, stderr, status and the files left behind.
func TestSubstDifferential(t *testing.T) {
	seed, n := seedAndCount(t, substSeed, 300)
	runSuite(t, "subst", seed, n, stderrText, func(i int) runCase { return newSubstGen(seed, i).chain() })
}

// trickySubsts are hand-written substitution chains compared with bash.
var trickySubsts = []runCase{
	{Src: `x=$(false); echo $?`}, {Src: `x=$(true) y=$(false); echo $?`}, {Src: `echo $(false); echo $?`},
	// The shell's options reach the substitution's subshell, but set -e (bash without inherit_errexit).
	{Src: `set -o pipefail; echo $(false | true; echo $?)`}, {Src: `set -x; echo $(echo hi; echo $(echo deeper))`},
	{Src: `set -e; echo $(false; echo still); echo after`}, {Src: `set -u; echo "[$(echo ${X})]"; echo after $?`},
	{Src: `echo "$(printf 'a\n\n\n')"|od -c`}, {Src: `echo $(printf ' a  b \n c ')`},
	{Src: `echo "$(echo '*.txt')" $(echo '*.txt')`}, {Src: `echo $(echo $(echo $(echo deep)))`},
	{Src: "echo `echo back` \"`echo q`\""}, {Src: `cd sub; echo $(pwd; cd inner; pwd) $(pwd)`},
	{Src: `V=1; echo $(V=2; echo $V) $V`}, {Src: `echo $(ls nonexistent) 2>/dev/null; echo after`},
	{Src: `echo hi > $(echo out.txt); cat out.txt`}, {Src: `cat <<< $(cat a.txt)`}, {Src: `cat <<< "$(cat a.txt)"`},
	{Src: `$(echo echo) hello`}, {Src: `$(echo nosuchprog_x) a; echo $?`}, {Src: `x=$(echo a b); printf '<%s>' $x "$x"; echo`},
	{Src: `export E=$(echo exported); printenv E`}, {Src: `echo $(exit 3); echo $?`}, {Src: `x=$(exit 3); echo $?`},
	{Src: `echo $(cat nums | sort -n | head -n 2)`}, {Src: `echo pre$(echo mid)post "a$(echo b)c"`},
	{Src: `test -n "$(ls sub)" && echo nonempty`}, {Src: `echo "$(< a.txt)" $(<nums)`}, {Src: `x=$(< missing.txt); echo $? "[$x]"`},
	{Src: `cat <<< "$(< b.txt)" | wc -l`}, {Src: `echo $(< $(echo nums))`},
	{Src: "printf '<%s>\\n' \"$(cat <<'EOF'\nFix it\n\n  body $X `x`\n\nEOF\n)\" $(cat <<'EOF'\na  b\nEOF\n)"},
	{Src: "cat <<EOF\nat $(pwd) `echo bt`\n$(printf 'a\\n\\n')|\nEOF"}, {Src: "cat <<-EOF | tr a-z A-Z\n\t$(echo \"$(echo deep)\")\n\tEOF"}, {Src: `echo $(echo a; echo b >&2) 2>/dev/null`},
	{Src: `echo "$(echo "inner \"quoted\"")"`}, {Src: `echo $(echo 'x;y' )`}, {Src: `wc -l $(echo a.txt nums)`},
}

// TestSubstDifferentialTable runs the hand-written substitution chains.
func TestSubstDifferentialTable(t *testing.T) {
	runSuite(t, "subst table", 0, len(trickySubsts), stderrText, func(i int) runCase { return tableCase(trickySubsts[i]) })
}

// substGen generates chains with command substitutions.
type substGen struct {
	r *rand.Rand
}

func newSubstGen(seed uint64, i int) *substGen {
	return &substGen{r: rand.New(rand.NewPCG(seed^0x5b57, 0x9e3779b97f4a7c15^uint64(i)))}
}

// innerCommands are inner chains: output with trailing newlines, blanks
// and glob characters to split, stderr, statuses, cd and assignments
// that must not leak out.
var innerCommands = []string{
	"echo hello", "echo 'a  b'", `printf 'x\n\n\n'`, `printf ' p  q \n r '`, "cat a.txt", "ls sub", "pwd",
	"false", "true", "cd sub && pwd", "seq 3", "grep an a.txt", "echo '*.txt'", "echo 'sub/*'", "ls nonexistent",
	"V=in; echo $V", "cd sub; ls", "head -n 1 nums", "sort -n nums", "cat b.txt | cut -d, -f1", "echo $V",
	"exit 3", "printf ''", "echo a; echo b >&2", "test -f a.txt && echo yes || echo no", "cat missing.txt",
	"< a.txt", "<nums", "< missing.txt", "< sub/c.txt",
}

// inner is an inner chain, now and then with a substitution of its own.
func (g *substGen) inner(depth int) string {
	c := pick(g.r, innerCommands...)
	if depth < 2 && g.r.IntN(5) == 0 {
		c = "echo " + g.subst(depth+1)
	}
	return c
}

// subst is one substitution, $(…) or (without backslashes and nesting)
// backticks, quoted or not.
func (g *substGen) subst(depth int) string {
	in := g.inner(depth)
	s := "$(" + in + ")"
	if depth == 0 && !strings.ContainsAny(in, "\\`$") && g.r.IntN(4) == 0 {
		s = "`" + in + "`"
	}
	if g.r.IntN(3) == 0 {
		s = `"` + s + `"`
	}
	return s
}

// segment is one outer command holding substitutions.
func (g *substGen) segment() string {
	s := g.subst(0)
	switch g.r.IntN(12) {
	case 0:
		return "V=" + s + "; echo \"[$V]\" $?"
	case 1:
		return "V=" + s + "; printf '<%s>' $V; echo"
	case 2:
		return "cat <<< " + s
	case 3:
		return "echo out > $(echo " + pick(g.r, "f1", "'f 2'", "sub/f3") + "); cat " + pick(g.r, "f1", "'f 2'", "sub/f3")
	case 4:
		return "printf '%s\\n' " + s + " | wc -l"
	case 5:
		return "test -n " + s + " && echo yes || echo no"
	case 6:
		return "cd $(echo " + pick(g.r, "sub", "sub/inner", "nonexistent") + ") && pwd"
	case 7:
		return "$(echo " + pick(g.r, "echo", "printf", "true", "nosuchprog_x") + ") " + s
	case 8:
		return "echo " + s + " 2>/dev/null"
	case 9:
		return "echo pre" + s + "post " + g.subst(0)
	case 10:
		return "V=x; W=" + s + " ; echo $? $V"
	}
	return "echo " + s
}

// chain joins one to three segments with the run suite's operators.
func (g *substGen) chain() runCase {
	var b strings.Builder
	for i := range 1 + g.r.IntN(3) {
		if i > 0 {
			b.WriteString(pick(g.r, " && ", " || ", "; ", "; "))
		}
		b.WriteString(g.segment())
	}
	if g.r.IntN(3) == 0 {
		b.WriteString("; pwd; echo $?")
	}
	src := b.String()
	return runCase{Src: src, POSIX: !strings.Contains(src, "<<<") && !strings.Contains(src, "$(<")} // dash reads $(< f) as empty
}
