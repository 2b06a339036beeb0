//go:build unix

package differential

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The shell-state suite: set -e, set -u, set -o pipefail, command -v and
// -V, type and command NAME, generated and hand-written, compared with
// bash as the run suite compares (stdout, stderr without the shells'
// prefixes, status, files).

const shellStateSeed = 24

// TestShellStateDifferential runs generated chains mixing the shell
// options with failing and succeeding pipelines, && || ; and the
// built-ins that say what a name is.
func TestShellStateDifferential(t *testing.T) {
	seed, n := seedAndCount(t, shellStateSeed, 300)
	runSuite(t, "shell state", seed, n, stderrText, func(i int) runCase { return newStateGen(seed, i).chain() })
}

// stateGen generates chains for the shell-state suite.
type stateGen struct{ r *rand.Rand }

func newStateGen(seed uint64, i int) *stateGen {
	return &stateGen{r: rand.New(rand.NewPCG(seed^0x5e75, 0x9e3779b97f4a7c15^uint64(i)))}
}

// Names command -v, -V and type are asked about: programs, engine
// built-ins, bash built-ins chainrun refuses, keywords, paths, nothing.
var stateNames = []string{"ls", "cat", "echo", "printf", "cd", "set", "eval", "read", "if", "done", "[[", "nosuchprog_x",
	"/bin/ls", "./missing", "sub", "command", "type", "true", "[", "a.txt"}

// chain generates one chain.
func (g *stateGen) chain() runCase {
	var b strings.Builder
	n := 2 + g.r.IntN(5)
	for i := range n {
		if i > 0 {
			b.WriteString(pick(g.r, " && ", " || ", "; ", "; ", "; "))
		}
		b.WriteString(g.pipeline())
	}
	return runCase{Src: b.String(), POSIX: false}
}

// pipeline is one pipeline: a set, a query, or programs that succeed or
// fail, alone or piped.
func (g *stateGen) pipeline() string {
	switch g.r.IntN(10) {
	case 0, 1:
		return "set " + pick(g.r, "-e", "+e", "-u", "+u", "-o pipefail", "+o pipefail", "-eu", "-euo pipefail",
			"-o errexit", "+o nounset", "-e -o pipefail", "-q", "-o nosuch", "-x", "+x", "-xe", "-o xtrace")
	case 2:
		return "command " + pick(g.r, "-v ", "-V ", "-vV ", "-v -- ") + g.names()
	case 3:
		return "type " + pick(g.r, "", "-t ", "-p ", "-P ", "-f ") + g.names()
	case 4:
		if g.r.IntN(2) == 0 {
			return g.read()
		}
		return "command " + g.simple()
	case 5:
		// The reader reads its whole input: one that stops early races
		// with the writer's SIGPIPE, in bash too.
		return g.simple() + " | " + pick(g.r, "cat", "wc -l", "sort", "grep a")
	default:
		return g.simple()
	}
}

// readTexts are lines read splits: blanks, IFS bytes, backslashes, a
// trailing delimiter.
var readTexts = []string{`'  x   y  z  '`, `'1,2,'`, `'a:b:c:'`, `'a\ b c'`, `'p\'`, `'1, 2,,3'`, `''`, `'one'`,
	`'tab	sep x'`, `'x y,z w'`, `"it's a b"`}

// read is read with its options and an IFS, from a here-string or a
// file, and an echo of what it set.
func (g *stateGen) read() string {
	var b strings.Builder
	if g.r.IntN(3) == 0 {
		b.WriteString("IFS=" + pick(g.r, "','", "':'", "', '", "''", "' '") + " ")
	}
	b.WriteString("read " + pick(g.r, "", "-r ", "-d , ", "-rd , "))
	names := pick(g.r, []string{}, []string{"a"}, []string{"a", "b"}, []string{"a", "b", "c"})
	b.WriteString(strings.Join(names, " "))
	if g.r.IntN(4) == 0 {
		b.WriteString(" < " + pick(g.r, "a.txt", "b.txt", "empty", `"my file.txt"`))
	} else {
		b.WriteString(" <<< " + pick(g.r, readTexts...))
	}
	if len(names) == 0 {
		return b.String() + `; echo "[$REPLY] $?"`
	}
	return b.String() + `; echo "[$a][$b][$c] $?"`
}

// names is one to three names to ask about.
func (g *stateGen) names() string {
	k := 1 + g.r.IntN(3)
	out := make([]string, k)
	for i := range out {
		out[i] = pick(g.r, stateNames...)
	}
	return strings.Join(out, " ")
}

// simple is a command that succeeds or fails, maybe reading a variable
// that is set, unset or defaulted.
func (g *stateGen) simple() string {
	switch g.r.IntN(9) {
	case 0:
		return "false"
	case 1:
		return "true"
	case 2:
		return "echo " + pick(g.r, "$UNSET_X", "${UNSET_X:-dflt}", "\"$HOME\"", "x$?", "${UNSET_X-}")
	case 3:
		return "ls " + pick(g.r, "a.txt", "nonexistent", "sub")
	case 4:
		return "nosuchprog_x"
	case 5:
		return "cat " + pick(g.r, "a.txt", "missing.txt", "< $UNSET_X", "<<< $UNSET_X")
	case 6:
		return pick(g.r, "V=1", "PATH=$PATH")
	case 7:
		return "printf '%s\\n' " + pick(g.r, "$V", "${V:-none}", "done")
	default:
		return "echo " + pick(g.r, "a", "b", "done")
	}
}

// shellStateTable are hand-written chains for the same built-ins.
var shellStateTable = []runCase{
	{Src: `set -e; false; echo after`}, {Src: `set -e; false && true; echo after $?`},
	{Src: `set -e; false || false; echo after`}, {Src: `set -e; true | false; echo after`},
	{Src: `set -e; false | true; echo after`}, {Src: `set -eo pipefail; false | true; echo after`},
	{Src: `set -e; nosuchprog_x; echo after`}, {Src: `set -e; cd nonexistent; echo after`},
	{Src: `set -e; set +e; false; echo after $?`}, {Src: `set -eu; echo $X | cat; echo after $?`},
	{Src: `set -eu; echo $X; echo after`}, {Src: `set -u; set -e && echo $X`},
	{Src: `set -e | cat; false; echo after`}, {Src: `set -e; ls nonexistent || echo handled; echo after`},
	{Src: `set -o pipefail; false | true; echo $?; set +o pipefail; false | true; echo $?`},
	{Src: `set -o pipefail; ls nonexistent | cat | true; echo $?`},
	{Src: `set -u; echo $X; echo after`}, {Src: `set -u; echo ${X:-d}; echo ${X-e}; echo after`},
	{Src: `set -u; echo $X | cat; echo after $?`}, {Src: `set -u; true && echo "$X" || echo or; echo after`},
	{Src: `set -u; X=1; echo $X; set +u; echo $Y after`}, {Src: `set -euo pipefail; echo ok; false; echo no`},
	{Src: `set -oe pipefail; false | true; echo after`},
	{Src: `set -u; cat < $X; echo after $?; cat <<< $X; echo $?; nosuchprog_x > $X; echo $?; echo hi > $X; echo no`},
	{Src: `set -eu; cat < $X; echo after $?`},
	{Src: `[ -o errexit ] || echo off; set -eo pipefail; [ -o errexit ] && [ -o pipefail ] && echo on; test -o nounset || echo nu`},
	{Src: `set -ux; test -o xtrace && test -o nounset && echo on; set +xu; test -o xtrace || echo off`}, {Src: `set -u; echo a | cat < $X; echo after $?`}, {Src: `set -q; echo s=$?`}, {Src: `set -o nosuch; echo s=$?`},
	{Src: `command -v ls echo nosuchprog_x if; echo s=$?`}, {Src: `command -v nosuchprog_x; echo s=$?`},
	{Src: `command -V ls echo nosuchprog_x if set; echo s=$?`}, {Src: `command -V nosuchprog_x; echo s=$?`},
	{Src: `command -v; echo s=$?`}, {Src: `command; echo s=$?`}, {Src: `command -x ls; echo s=$?`},
	{Src: `command -v /bin/ls ./missing sub a.txt; echo s=$?`}, {Src: `command -vV ls; command -Vv ls`},
	{Src: `type ls echo nosuchprog_x if set; echo s=$?`}, {Src: `type -t ls echo if nosuchprog_x; echo s=$?`},
	{Src: `type -p ls echo; type -P echo; echo s=$?`}, {Src: `type; echo s=$?`}, {Src: `type -x; echo s=$?`},
	{Src: `type -- ls [ [[; echo s=$?`},
	{Src: `command ls -d sub; command echo hi; command -- printf '%s\n' x; echo s=$?`},
	{Src: `command nosuchprog_x; echo s=$?`}, {Src: `command ./missing > o1; echo s=$?; ls`},
	{Src: `command -v ls > o1; cat o1`}, {Src: `command ls nonexistent 2>&1 | wc -l`},
	{Src: `if_x=1; command -v git >/dev/null && echo has || echo none`},
	{Src: `command -v nosuchprog_x >/dev/null 2>&1 || echo missing`},
	// set -x: bash's trace, its quoting.
	{Src: `set -x; echo "a b" '' "it's" 'a"b' '$x' "~" a~ "#a" b# '*' = a=b % @ ,: ; X='a b' Y= true; Z=1; set +x; echo off`},
	{Src: "set -x; echo \"x\ny\" \"t\tz\" $'a\\001b' $'a\\vb' $'a\\x7fb' \"é\" $'a\\'b\\001'"},
	{Src: `set -x; true | echo hi; ls -d sub 2>/dev/null > o1; cd sub; echo ${UNSET_X:-d}; command -v ls; type -t cd`},
	{Src: `set -xe; false; echo no`}, {Src: `set -x; set -u; echo $X`}, {Src: `set -o xtrace; V=1; printf '%s
' "$V" x`},
	// read.
	{Src: `read a b <<< "  x   y  z  "; echo "[$a][$b]"; read <<< "  x  y  "; echo "[$REPLY]"`},
	{Src: `IFS=, read a b <<< "1,2,"; echo "[$a][$b]"; IFS=: read a b <<< "x:y:z:"; echo "[$a][$b]"`},
	{Src: `read -r a <<< 'a\b'; echo "[$a]"; read a <<< 'a\b\ c'; echo "[$a]"`},
	{Src: `read a < /dev/null; echo "s=$? [$a]"; printf abc > f; read a < f; echo "s=$? [$a]"`},
	{Src: `read -d , a b <<< "x y,z"; echo "s=$? [$a][$b]"; IFS= read -r a <<< "  x  "; echo "[$a]"`},
	{Src: `IFS=", " read a b c <<< "1, 2,,3"; echo "[$a][$b][$c]"; read a b c <<< x; echo "[$a][$b][$c]"`},
	{Src: `export E=1; read E <<< z; printenv E; read 1a; echo $?; echo a b | read x y; echo "[$x]"`},
	{Src: `read l; echo "s=$? [$l]"; read -r first < a.txt; echo "$first"; printf 'a\\\nb\n' > f; read x < f; echo "[$x]"`},
	{Src: `IFS=,; read a b <<< "1,2"; echo "[$a][$b]"; unset IFS; read a b <<< "1 2 3"; echo "[$a][$b]"`},
	// bash's hash table: a program the shell itself ran is "hashed".
	{Src: `ls sub; type ls; command -V ls`}, {Src: `ls sub | cat; type ls`}, {Src: `ls sub; PATH=$PATH; type ls`},
	{Src: `command ls sub; type ls`}, {Src: `ls nonexistent; type ls cat; cat a.txt; type cat`},
	{Src: `/bin/ls sub; type ls`}, {Src: `ls sub; export PATH=$PATH; type ls`},
}

// TestShellStateDifferentialTable runs the hand-written chains.
func TestShellStateDifferentialTable(t *testing.T) {
	runSuite(t, "shell state table", 0, len(shellStateTable), stderrText, func(i int) runCase { return shellStateTable[i] })
}
