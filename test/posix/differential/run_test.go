//go:build unix

package differential

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
)

// Default seeds of the suites.
const (
	runSeed      = 3
	redirectSeed = 4
)

// TestRunDifferential runs generated chains under bash -c and under
// engine.RunString, each in the same fresh directory in turn, and requires
// the same stdout, stderr (sorted by line, with the shells' own prefixes
// "bash: line 1: " and "chainrun: " removed), exit status and files left
// behind. Chains with nothing bash-only also run under dash; agreement with
// dash is reported, not required (dash differs from bash on purpose in
// places, such as cd's failure status).
func TestRunDifferential(t *testing.T) {
	seed, n := seedAndCount(t, runSeed, 400)
	runSuite(t, "run", seed, n, stderrText, func(i int) runCase { return newRunGen(seed, i).chain() })
}

// TestRedirectDifferential runs generated chains mixing redirects with
// pipelines and operators the same way (the shells' prefixes are removed in
// files too, where 2>f may put their messages).
func TestRedirectDifferential(t *testing.T) {
	seed, n := seedAndCount(t, redirectSeed, 400)
	runSuite(t, "redirect", seed, n, stderrText, func(i int) runCase { return newRedirGen(seed, i).chain() })
}

// runSuite runs n generated chains under bash, chainrun and, where they
// are POSIX, dash, and reports the counts.
func runSuite(t *testing.T, suite string, seed uint64, n int, mode stderrMode, gen func(i int) runCase) {
	bash := needShell(t, "bash")
	dash, _ := lookShell("dash")
	only := onlyCase(t)
	dir := testprog.TempDir(t)
	var known knownCases
	var mu sync.Mutex
	posixN, dashOK := 0, 0
	var dashFails []string
	fails := forEach(n, func(i int) string {
		if only >= 0 && i != only {
			return ""
		}
		c := gen(i)
		name := fmt.Sprintf("%s case %d (DIFF_SEED=%d DIFF_CASE=%d)", suite, i, seed, i)
		if strings.HasSuffix(suite, "table") {
			name = fmt.Sprintf("%s case %d (DIFF_CASE=%d)", suite, i, i)
		}
		// Every side runs in the same path, one after the other, so that
		// paths in the output (pwd) compare as they are.
		side := fmt.Sprintf("s%d", i)
		bo, err := runSide(dir, side, bash, c.Src)
		if err != nil {
			return report(name, c.Src, "  bash: "+err.Error()+"\n", "bash", nil, nil)
		}
		co, err := runSide(dir, side, "", c.Src)
		if err != nil {
			r := report(name, c.Src, "  "+err.Error()+"\n", "bash", bo, nil)
			if kb := matchKnown(c.Traits, nil, nil); kb != nil {
				known.add(kb, r)
				return ""
			}
			return r
		}
		if dash != "" && c.POSIX {
			do, err := runSide(dir, side, dash, c.Src)
			d := ""
			if err == nil {
				d = diffOutcomes("dash", do, "chainrun", co, stderrIgnore)
			}
			mu.Lock()
			posixN++
			if err == nil && d == "" {
				dashOK++
			} else if err == nil {
				dashFails = append(dashFails, report(name, c.Src, d, "dash", do, co))
			}
			mu.Unlock()
		}
		if d := diffOutcomes("bash", bo, "chainrun", co, mode); d != "" {
			r := report(name, c.Src, d, "bash", bo, co)
			if kb := matchKnown(c.Traits, bo, co); kb != nil {
				known.add(kb, r)
				return ""
			}
			return r
		}
		return ""
	})
	msg := fmt.Sprintf("differential %s: seed %d, %d chains, %d matched bash", suite, seed, n, n-len(fails)-known.count())
	if strings.HasSuffix(suite, "table") {
		msg = fmt.Sprintf("differential %s: %d chains, %d matched bash", suite, n, n-len(fails)-known.count())
	}
	if dash != "" {
		msg += fmt.Sprintf("; %d POSIX chains under dash, %d matched dash", posixN, dashOK)
	}
	msg += known.summary()
	fmt.Println(msg)
	t.Log(msg)
	known.log(t)
	if testing.Verbose() {
		for i, f := range dashFails {
			if i == 10 {
				break
			}
			t.Logf("dash differs (reported, not required):\n%s", f)
		}
	}
	failures(t, fails, 15)
}

// trickyRuns are hand-written chains compared with bash like the generated
// ones; traits name the known bug a chain shows.
var trickyRuns = []runCase{
	{Src: `exit 256`}, {Src: `exit -1`}, {Src: `exit abc; echo not reached`}, {Src: `false; exit`},
	{Src: `true && exit 7 || echo no`}, {Src: `exit 3 | cat; echo after`},
	{Src: `echo a | exit 4`}, {Src: `false | true`}, {Src: `true | false`},
	{Src: `PATH=/nonexistent ls sub`}, {Src: `PATH=/bin ls sub`}, {Src: `V=x printenv V; printenv V`},
	{Src: `cd sub sub`}, {Src: `cd sub; pwd -P; pwd -L; cd; pwd`}, {Src: `cd ""; pwd`},
	{Src: `cd missing/..; pwd`, Traits: map[string]bool{traitCdDotDot: true}},
	{Src: `cd sub/inner/../..; pwd`}, {Src: `cd sub && cd .. && cd .. && pwd && ls`},
	{Src: `cd nonexistent || pwd`}, {Src: `cd sub | pwd; pwd`},
	{Src: `echo -e 'caf\u00e9'`, Traits: map[string]bool{traitEchoU: true}},
	{Src: `echo -e 'a\cb'; echo next`}, {Src: `echo -e 'a\0101\x41\t|'`}, {Src: `echo -neE 'a\tb'`},
	{Src: `echo -- -n`}, {Src: `echo -n`}, {Src: `echo -x -n`}, {Src: `echo -nx a`}, {Src: `echo ''`},
	{Src: `/bin/echo -e 'a\tb'`}, {Src: `echo a   b"  c"`},
	{Src: `nosuchprog_x; true`}, {Src: `nosuchprog_x || echo fallback`},
	{Src: `./a.txt`}, {Src: `sub`}, {Src: `a.txt`},
	{Src: `mkdir d && cd d && touch f && ls && cd .. && ls d`},
	{Src: `seq 100000 | head -n 2`}, {Src: `seq 3 | tail -n 1 | wc -c`},
	{Src: "echo a\necho b\n\necho c"}, {Src: `echo a;echo b&&echo c||echo d|cat`},
	{Src: `seq 1 100000 | true`}, {Src: `echo x | true`}, {Src: `pwd | false`}, {Src: `seq 1 100000 | echo done`},
	{Src: `cd nonexistent 2>&1 | cat`}, {Src: `echo a | cd sub | cat; pwd`},
	// Closing reserved words where a command starts: bash refuses the line.
	{Src: `echo a; done`}, {Src: `else`}, {Src: `echo a && in x`}, {Src: `echo a | fi`}, {Src: `true || esac`},
	{Src: `A=1 fi; echo after`}, {Src: `echo fi done; "fi"; echo after`},
}

// TestRunDifferentialTable runs the hand-written chains.
func TestRunDifferentialTable(t *testing.T) {
	runSuite(t, "run table", 0, len(trickyRuns), stderrText, func(i int) runCase { return tableCase(trickyRuns[i]) })
}

// tableCase marks a hand-written chain POSIX when it has nothing
// bash-only in it.
func tableCase(c runCase) runCase {
	c.POSIX = !strings.Contains(c.Src, "&>") && !strings.Contains(c.Src, "|&") &&
		!strings.Contains(c.Src, "echo -") && !strings.Contains(c.Src, `\`) && !strings.Contains(c.Src, "<<<")
	return c
}

// trickyRedirects are hand-written chains with redirects, compared with
// bash like the generated ones.
var trickyRedirects = []runCase{
	{Src: `ls a.txt nonexistent > out.log 2>&1; cat out.log`},
	{Src: `ls a.txt nonexistent 2>&1 > out.log; cat out.log`},
	{Src: `ls a.txt nonexistent 2>&1 | sort`},
	{Src: `ls a.txt nonexistent 2>/dev/null || echo none`},
	{Src: `false && echo x > f; ls`},
	{Src: `echo x > sub || echo failed`},
	{Src: `echo x > nodir/f; echo after`},
	{Src: `echo x > nodir/f || echo fallback`},
	{Src: `cat < missing.txt || echo fallback`},
	{Src: `echo a > f; echo b >> f; cat f`},
	{Src: `echo a >| f; cat < f`},
	{Src: `echo hi 1>&2 2>/dev/null`},
	{Src: `echo hi 2>/dev/null 1>&2`},
	{Src: `cd sub && echo x > f && cat f && cd .. && ls sub`},
	{Src: `echo x 3> f >&3; cat f`},
	{Src: `cat 3< a.txt <&3`},
	{Src: `ls a.txt nonexistent &> f; cat f`},
	{Src: `ls a.txt nonexistent &>> nums; cat nums`},
	{Src: `ls a.txt nonexistent 3>&1 1>&2 2>&3 | tr a-z A-Z`},
	{Src: `echo x > /dev/null; echo y 2> /dev/null`},
	{Src: `echo x 2> /dev/stdout; echo y > /dev/stderr`},
	{Src: `cat < /dev/null && echo ok`},
	{Src: `echo "a b" > "my out"; cat 'my out'`},
	{Src: `echo x >&5; echo status`},
	{Src: `nosuchprog_x 2>/dev/null; echo after`},
	{Src: `nosuchprog_x 2>&1 | cat`},
	{Src: `cat 2>/dev/null < missing.txt`},
	{Src: `echo hi 2> err.txt > nodir/f; cat err.txt`},
	{Src: `cd nonexistent 2> err.txt; cat err.txt`},
	{Src: `cd sub > out.txt; pwd`},
	{Src: `pwd > p.txt; cat p.txt`},
	{Src: `seq 3 | tee t.txt | wc -l; cat t.txt`},
	{Src: `echo a | cat > f 2>&1; cat f`},
	{Src: `echo x 1>&2 | wc -c`},
	{Src: `echo x 2>&1 1>&2 | wc -c`},
	{Src: `exit 3 > f`}, {Src: `true; exit 2>/dev/null 5`}, {Src: `echo x > f | cat f2; ls`},
	{Src: `cd nonexistent 2>/dev/null || echo no`}, {Src: `pwd 1>&2 | wc -c`},
	// A program that cannot be found or run reports its failing redirect
	// first, as bash applies redirects before looking for the program.
	{Src: `nosuchprog_x < missing.txt || echo failed`}, {Src: `nosuchprog_x 2>/dev/null < missing.txt; echo after`},
	{Src: `nosuchprog_x < missing.txt 2>&1 | cat`}, {Src: `./a.txt < missing.txt || echo failed`},
	{Src: `nosuchprog_x >&5`}, {Src: `sub > nodir/f`}, {Src: `nosuchprog_x > sub`}, {Src: `nosuchprog_x < sub || echo ran`},
	// ... and the ones that succeed are applied: targets created or
	// truncated, the message where fd 2 then points.
	{Src: `./missing > out.txt; echo $?; ls`}, {Src: `nosuchprog_x > o1 2> e1; echo $?; cat o1 e1`},
	{Src: `nosuchprog_x 2> e1 < missing.txt; echo $?; cat e1`}, {Src: `./missing 2>&1 > o1 | cat; ls`},
	{Src: `echo keep > o1; nosuchprog_x a >> o1 2>&1; cat o1`}, {Src: `sub/missing 2> e1; cat e1`},
	{Src: `./sub > o1 2> e1; echo $?; cat e1`}, {Src: `./a.txt 2> e1 >> o2; echo $?; cat e1 o2`},
	{Src: `nosuchprog_x 2> e1 > nodir/f; cat e1`}, {Src: `cd sub && ../missing > o1; ls`},
	// A redirect failing after earlier ones: bash has applied those.
	{Src: `cat f1 > f1 2> e1 < missing.txt; cat f1 e1`}, {Src: `echo a > f1; cat f1 > f1 2> e1 < missing.txt; cat f1 e1`},
	{Src: `cat a.txt 2>&1 > o1 < missing.txt | cat; ls`}, {Src: `echo x >> o1 2>> e1 > nodir/f; cat o1 e1`},
	// Heredocs and here-strings.
	{Src: "cat > f.py <<'EOF'\nprint(\"$x\")\n\tx = `y`\n\nEOF\ncat f.py; wc -c f.py"},
	{Src: "cat <<EOF | tr a-z A-Z && cat <<-'END' || echo no\nplain\nEOF\n\t\tdeep\n\tEND\necho after"},
	{Src: "cat 3<<'A' <&3 <<'B'; cat <<<'hi there' 4<<<x\na\nA\nb\nB"},
	{Src: "cat <<<a <<<b 0<<'EOF'\nlast\nEOF"},
	{Src: "cat <&3 3<<<early || echo failed <<'EOF'\nx\nEOF"},
	{Src: "true <<'EOF' && head -c 5 <<'BIG'\nx\nEOF\n" + strings.Repeat("0123456789\n", 5000) + "BIG"},
	{Src: "nosuchprog_x 2<<<x; echo hi 1<<<x || echo failed"},
	{Src: "cat <<'EOF' | # a comment\nbody\nEOF\nsort"},
}

// TestRedirectDifferentialTable runs the hand-written redirect chains.
func TestRedirectDifferentialTable(t *testing.T) {
	runSuite(t, "redirect table", 0, len(trickyRedirects), stderrText, func(i int) runCase { return tableCase(trickyRedirects[i]) })
}
