//go:build unix

package differential

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
)

// expandSeed is the expansion suite's default seed.
const expandSeed = 5

// TestExpandDifferential runs generated chains full of shell expansion
// (parameters, $?, tildes, globs, braces, $'…', arithmetic, chain
// variables, heredocs and here-strings) under bash -c and under
// engine.RunString on sides seeded with dotfiles and more names to glob,
// in an environment with empty, spaced, glob-holding and unset variables,
// and compares them as the run suite does. A case whose data is not
// ASCII runs under LC_ALL=C.UTF-8 on both sides (see needsUTF8). A
// refusal by design (designRefusals) is counted apart by reason and does
// not fail; a case that shows a known bug or departure (knownBugs) is
// listed by its ID and does not fail; any other refusal fails, as does
// every other mismatch. The counts group the cases by form too, so that
// the work on expansion can be followed.
func TestExpandDifferential(t *testing.T) {
	seed, n := seedAndCount(t, expandSeed, 800)
	expandSuite(t, "expand", seed, n, func(i int) expandCase { return newExpandGen(seed, i).chain() })
}

// TestExpandDifferentialTable runs the hand-written expansion chains.
func TestExpandDifferentialTable(t *testing.T) {
	expandSuite(t, "expand table", 0, len(expandTable), func(i int) expandCase { return expandTable[i] })
}

// expandResult is what became of one case.
type expandResult struct {
	// Refused is what chainrun refused, nil when it ran.
	Refused *refusal
	// ByDesign is the reason of a refusal by design (see designRefusals).
	ByDesign string
	// Report is the case in full when it failed or was refused:
	// refused, mismatched, bash rejected it, or a side could not run.
	Report string
	// Generator: bash itself rejected a generated chain (a syntax error
	// or a bad substitution), so the generator is wrong.
	Generator bool
	// Known is the known bug the mismatch or the refusal shows, if any.
	Known *knownBug
	// UTF8: the case ran under utf8Locale.
	UTF8 bool
	// CrunRan: chainrun ran the chain (refused or failing to start, not).
	CrunRan bool
	// POSIX results: whether dash ran it, agreed with bash, and agreed
	// with chainrun (when chainrun ran); DashReport shows a difference.
	DashRan, DashCrun bool
	// DashReport shows how chainrun differs from dash, DashBashReport
	// how bash does (a chain marked POSIX that should not be).
	DashReport, DashBashReport string
}

// expandSuite runs the n cases gen makes under bash, chainrun and (for
// POSIX ones) dash, and reports them grouped: refused by design per
// reason, refused otherwise per construct, mismatched, known, and per
// form.
func expandSuite(t *testing.T, suite string, seed uint64, n int, gen func(i int) expandCase) {
	bash := needShell(t, "bash")
	dash, _ := lookShell("dash")
	only := onlyCase(t)
	dir := testprog.TempDir(t)
	table := strings.HasSuffix(suite, "table")
	cases := make([]expandCase, n)
	results := make([]*expandResult, n)
	forEach(n, func(i int) string {
		if only >= 0 && i != only {
			return ""
		}
		name := fmt.Sprintf("%s case %d (DIFF_SEED=%d DIFF_CASE=%d)", suite, i, seed, i)
		if table {
			name = fmt.Sprintf("%s case %d (DIFF_CASE=%d)", suite, i, i)
		}
		cases[i] = gen(i)
		results[i] = runExpandCase(dir, fmt.Sprintf("s%d", i), name, cases[i], bash, dash, !table)
		return ""
	})
	var tally expandTally
	for i, r := range results {
		if r != nil {
			tally.add(cases[i], r)
		}
	}
	head := fmt.Sprintf("differential %s: seed %d, ", suite, seed)
	if table {
		head = fmt.Sprintf("differential %s: ", suite)
	}
	msg := head + tally.summary(dash != "")
	fmt.Println(msg)
	t.Log(msg)
	tally.log(t)
	tally.fail(t)
}

// runExpandCase runs one case on its side under bash, chainrun and,
// when the case is POSIX, dash. generated: the case is generated, and
// bash's rejecting it is the generator's bug.
func runExpandCase(dir, side, name string, c expandCase, bash, dash string, generated bool) *expandResult {
	r := &expandResult{UTF8: needsUTF8(c)}
	setup := sideSetup{Seed: seedExpand, Env: expandEnv(c.Env, r.UTF8)}
	if len(c.Env) > 0 {
		name += fmt.Sprintf("\nwith %q in the environment", c.Env)
	}
	if r.UTF8 {
		name += "\nunder " + utf8Locale
	}
	bo, err := runSideWith(dir, side, bash, c.Src, setup)
	if err != nil {
		r.Report = report(name, c.Src, "  bash: "+err.Error()+"\n", "bash", nil, nil)
		return r
	}
	if generated && bashRejects(bo) {
		r.Generator = true
		r.Report = report(name, c.Src, "  bash rejects the generated chain: "+bo.Stderr, "bash", nil, nil)
		return r
	}
	var do *outcome
	if dash != "" && c.POSIX {
		do = r.runDash(dir, side, name, c, dash, setup, bo)
	}
	co, err := runSideWith(dir, side, "", c.Src, setup)
	if err != nil {
		r.refused(name, c, err, bo, generated)
		return r
	}
	r.CrunRan = true
	if r.DashRan {
		d := diffOutcomes("dash", do, "chainrun", co, stderrIgnore)
		r.DashCrun = d == ""
		if d != "" {
			r.DashReport = report(name, c.Src, d, "dash", do, co)
		}
	}
	if d := diffOutcomes("bash", bo, "chainrun", co, stderrText); d != "" {
		r.Report = report(name, c.Src, d, "bash", bo, co)
		r.Known = matchKnown(expandTraits(c.Src), bo, co)
	}
	return r
}

// runDash runs a POSIX case under dash and notes how dash differs from
// bash; nil when dash could not run it.
func (r *expandResult) runDash(dir, side, name string, c expandCase, dash string, setup sideSetup, bo *outcome) *outcome {
	do, err := runSideWith(dir, side, dash, c.Src, setup)
	if err != nil {
		return nil
	}
	r.DashRan = true
	if d := diffOutcomes("bash", bo, "dash", do, stderrIgnore); d != "" {
		r.DashBashReport = report(name, c.Src, d, "bash", nil, nil)
	}
	return do
}

// refused records chainrun's failing to run a case: a refusal by
// design, one that shows a known bug, any other refusal, or another
// error.
func (r *expandResult) refused(name string, c expandCase, err error, bo *outcome, generated bool) {
	detail := "  " + err.Error() + "\n"
	if r.Refused = refusalOf(err); r.Refused != nil {
		r.ByDesign = byDesign(r.Refused, generated)
		if r.ByDesign == "" {
			r.Known = matchKnownRefusal(r.Refused)
		}
		detail = fmt.Sprintf("  refused (%s): %v\n", r.Refused.Construct, err)
		if r.ByDesign != "" {
			detail = fmt.Sprintf("  refused by design (%s): %v\n", r.ByDesign, err)
		}
	}
	r.Report = report(name, c.Src, detail, "bash", bo, nil)
}

// bashRejects reports whether bash refused the chain as malformed: a
// syntax error (runSide's syntaxMessage, or one in an arithmetic
// expression) or a bad substitution.
func bashRejects(o *outcome) bool {
	return o.Stderr == syntaxMessage || strings.Contains(o.Stderr, "syntax error") ||
		strings.Contains(o.Stderr, "bad substitution")
}

// formCount is how the chains holding one form fared.
type formCount struct{ Chains, ByDesign, Refused, Mismatched int }

// expandTally collects a suite's results.
type expandTally struct {
	n, matched, mismatched, generator, utf8 int
	byDesign                                map[string][]string // reason -> reports
	refused                                 map[string][]string // construct -> reports, not by design
	fails                                   []string            // mismatches and errors in case order
	known                                   knownCases
	forms                                   map[string]*formCount
	dashRan, dashBash                       int
	crunRan, dashCrun                       int
	dashFails, dashBashFails                []string
}

// add counts one case.
func (k *expandTally) add(c expandCase, r *expandResult) {
	if k.refused == nil {
		k.refused, k.byDesign, k.forms = map[string][]string{}, map[string][]string{}, map[string]*formCount{}
	}
	k.n++
	if r.UTF8 {
		k.utf8++
	}
	k.countForms(c, r)
	k.countDash(c, r)
	switch {
	case r.ByDesign != "":
		k.byDesign[r.ByDesign] = append(k.byDesign[r.ByDesign], r.Report)
	case r.Known != nil:
		k.known.add(r.Known, r.Report)
	case r.Refused != nil:
		k.refused[r.Refused.Construct] = append(k.refused[r.Refused.Construct], r.Report)
	case r.Report == "":
		k.matched++
	case r.Generator:
		k.generator++
		k.fails = append(k.fails, r.Report)
	default:
		k.mismatched++
		k.fails = append(k.fails, r.Report)
	}
}

// countForms counts a case under each form it holds.
func (k *expandTally) countForms(c expandCase, r *expandResult) {
	forms := slices.Compact(slices.Sorted(slices.Values(c.Forms)))
	if len(forms) == 0 {
		forms = []string{"table"}
	}
	for _, f := range forms {
		if k.forms[f] == nil {
			k.forms[f] = &formCount{}
		}
		fc := k.forms[f]
		fc.Chains++
		switch {
		case r.ByDesign != "":
			fc.ByDesign++
		case r.Known != nil:
		case r.Refused != nil:
			fc.Refused++
		case r.Report != "":
			fc.Mismatched++
		}
	}
}

// countDash counts a POSIX case's agreement with dash.
func (k *expandTally) countDash(c expandCase, r *expandResult) {
	if !c.POSIX || !r.DashRan {
		return
	}
	k.dashRan++
	if r.DashBashReport == "" {
		k.dashBash++
	} else {
		k.dashBashFails = append(k.dashBashFails, r.DashBashReport)
	}
	if !r.CrunRan {
		return
	}
	k.crunRan++
	if r.DashCrun {
		k.dashCrun++
	} else {
		k.dashFails = append(k.dashFails, r.DashReport)
	}
}

// count is the number of reports in m.
func count(m map[string][]string) int {
	n := 0
	for _, r := range m {
		n += len(r)
	}
	return n
}

// mostFirst lists m's keys with their counts, most first: "glob 120, …".
func mostFirst(m map[string][]string) string {
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, func(a, b string) int {
		if d := len(m[b]) - len(m[a]); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	var parts []string
	for _, c := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", c, len(m[c])))
	}
	return strings.Join(parts, ", ")
}

// summary is the suite's count line.
func (k *expandTally) summary(withDash bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d chains (%d under %s), %d matched bash, %d refused by design", k.n, k.utf8, utf8Locale,
		k.matched, count(k.byDesign))
	if len(k.byDesign) > 0 {
		fmt.Fprintf(&b, " (by reason: %s)", mostFirst(k.byDesign))
	}
	fmt.Fprintf(&b, ", %d refused otherwise", count(k.refused))
	if len(k.refused) > 0 {
		fmt.Fprintf(&b, " (by construct: %s)", mostFirst(k.refused))
	}
	fmt.Fprintf(&b, ", %d mismatched", k.mismatched)
	if k.generator > 0 {
		fmt.Fprintf(&b, ", %d rejected by bash (generator bugs)", k.generator)
	}
	if withDash {
		fmt.Fprintf(&b, "; %d POSIX chains under dash, %d matched bash; chainrun ran %d of them, %d matched dash",
			k.dashRan, k.dashBash, k.crunRan, k.dashCrun)
	}
	return b.String() + k.known.summary()
}

// log prints the per-form counts, the known bugs seen and, verbosely,
// the first case of each refusal by design and a few of dash's
// differences.
func (k *expandTally) log(t *testing.T) {
	t.Helper()
	for _, f := range slices.Sorted(maps.Keys(k.forms)) {
		fc := k.forms[f]
		t.Logf("form %-13s %4d chains, %4d refused by design, %3d refused otherwise, %3d mismatched",
			f, fc.Chains, fc.ByDesign, fc.Refused, fc.Mismatched)
	}
	k.known.log(t)
	if !testing.Verbose() {
		return
	}
	for _, r := range slices.Sorted(maps.Keys(k.byDesign)) {
		t.Logf("refused by design, %s (%d cases, not counted as failures); first:\n%s", r, len(k.byDesign[r]), k.byDesign[r][0])
	}
	for i, f := range k.dashFails {
		if i == 10 {
			break
		}
		t.Logf("dash differs from chainrun (reported, not required):\n%s", f)
	}
	for i, f := range k.dashBashFails {
		if i == 10 {
			break
		}
		t.Logf("dash differs from bash on a chain marked POSIX (reported, not required):\n%s", f)
	}
}

// fail fails the test for every refusal not by design and not a known
// bug (one error per construct, with its first case) and every mismatch
// (in full, up to DIFF_SHOW).
func (k *expandTally) fail(t *testing.T) {
	t.Helper()
	for _, c := range slices.Sorted(maps.Keys(k.refused)) {
		t.Errorf("refused %d chains (%s), not by design; first:\n%s", len(k.refused[c]), c, k.refused[c][0])
	}
	failures(t, k.fails, 15)
}

// tableCases makes the table's cases of one form from their sources; a
// source starting with @ is bash-only (see bashOnly).
func tableCases(form string, srcs ...string) []expandCase {
	var out []expandCase
	for _, s := range srcs {
		src, bashOnlyCase := strings.CutPrefix(s, bashOnly)
		out = append(out, expandCase{runCase: runCase{Src: src, POSIX: !bashOnlyCase}, Forms: []string{form}})
	}
	return out
}

// withEnv gives a table case its own variables.
func withEnv(src string, posix bool, env ...string) expandCase {
	return expandCase{runCase: runCase{Src: src, POSIX: posix}, Env: env, Forms: []string{"env"}}
}

// expandTable are hand-written chains, compared with bash like the
// generated ones: the brief's examples and the corners of each form.
var expandTable = slices.Concat(
	tableCases("param",
		`echo $HOME ${HOME} "$HOME" "$HOME/x"`, `printf '<%s>' $S "$S" $L "$L" $T "$T"; echo`,
		`printf '<%s>' $E "$E" $U "$U" ${E}${U} x$E; echo`, `echo $G "$G" '$G'`,
		`echo ${U:-w} ${U-w} ${U:+w} ${U+w} ${E:-w} ${E-w} ${E:+w} ${E+w} ${N:-w} ${N-w} ${N:+w} ${N+w}`,
		`echo ${#S} ${#E} ${#U} ${#N} ${#HOME}`, `echo ${F%.*} ${F%%.*} ${F#*.} ${F##*.} ${F%.nomatch}`,
		`@echo ${F/a/A} ${F//a/A} ${F:3} ${F:3:4} ${F: -2} ${F:(-6):3}`, `@echo ${F:20} "[${F:1:0}]"`, `@echo ${F/#arc/ARC} ${F/%gz/GZ}`,
		`echo ${G%.txt}`, `echo "${G%.txt}"`, `echo ${U:-*.md} "${U:-*.md}"`, `printf '<%s>' ${U:-a  b}; echo`,
		`printf '<%s>' ${U:-'a  b'} ${U:-"a  b"}; echo`, `echo "${E:-~/x}" "${U-~}" "${N:+~/y}"`, `echo ${E:-~/x} ${N:+~}`,
		`echo "${U:-'q'}" ${U:-'q'}`, `printf '<%s>' ${N:+"$S"} ${N:+$S}; echo`, `echo $URL "$URL"`, `cat $SP; cat "$SP"`,
		`echo ${HOME##*/} ${PATHS%%:*} ${PATHS##*:}`, `echo $N_x ${N}_x "$N"_x`),
	tableCases("vars",
		`X=1 echo $X`, `N=1 echo $N; echo $N`, `X=1 | true; echo "[$X]"`, `X=value; printenv X; echo $?`,
		`export X=value; printenv X`, `X=v; export X; printenv X`, `unset N; echo "[$N]"; printenv N || echo gone`,
		`export A=1 && printenv A`, `export Y=1 | true; printenv Y; echo $?`, `unset HOME | true; echo $HOME`,
		`cd sub | true; pwd; echo $PWD`, `X=1 | echo "[$X]"`, `X=1; X=2 | true; echo $X`, `A=1 B=$A printenv B`,
		`X=$S; printf '<%s>' $X "$X"; echo`, `X=*.txt; echo $X "$X"`, `@export X=$S; printenv X`, `X=2 true; echo "[$X]"`,
		`export X; printenv X; echo $?; X=1; printenv X`, `X=1; unset X; export X; printenv X; echo $?`,
		`X=1 printenv X | cat; echo "[$X]"`, `unset S N; echo "[$S$N]"`),
	tableCases("status",
		`echo $?; false; echo $?; ls nonexistent 2>/dev/null; echo $?; nosuchprog_x 2>/dev/null; echo $?; ./a.txt 2>/dev/null; echo $?`,
		`true | false; echo $?; false | true; echo $?`, `exit 3 | true; echo $?`, `false; echo $? | cat`, `false; echo $? $?`,
		`cd nonexistent 2>/dev/null; echo $?`, `false; X=$?; echo $X $?`),
	tableCases("cd",
		`cd sub && echo $PWD $OLDPWD && cd - && echo $PWD $OLDPWD`, `cd -`, `echo "[$OLDPWD]"; cd sub; echo "[$OLDPWD]"`,
		`@cd sub && echo ~+ ~- ~+/x ~-/y`, `cd sub/inner && cd ../.. && echo $PWD`, `cd .. && echo $PWD && cd - >/dev/null && echo $OLDPWD`,
		`cd sub && ls *.txt; echo $?`, `cd $HOME/data && echo *`, `@cd ~-; echo $?`, `X=cd; $X sub; pwd`),
	tableCases("tilde",
		`echo ~ ~/x "~" \~ ~nosuchuser_x x~ '~'/x`, `@echo a=~/x --opt=~/x b=x:~/y ~:x`, `X=~/a:~/b:c~; echo $X`,
		`@export P=~/bin:~/x; printenv P`, `HOME=/nowhere; echo ~ ~/x; cd; echo $?`, `HOME=; echo "[" ~ "]"`,
		`unset HOME; echo ~`, `HOME=$HOME/sub echo ~; echo ~`, `echo ~/*.md ~/sub/*.txt`),
	tableCases("glob",
		`echo *.nomatch; ls *.nomatch; echo $?`, `echo http://x/api?project=x`, `echo .[dev]`, `@echo .h* .*`,
		`echo "*.txt" \*.txt '*'.txt *".txt"`, `echo * | wc -w`, `echo */ sub/*/ */*.txt`, `echo [abc].txt [!a].txt [a-c].txt`,
		`echo [ a[ [!] []] [a-`, `ls my*; cat my*`, `touch '*.txt'; echo *.txt`, `mkdir e && cd e && echo * .*; echo $?`,
		`echo a.txt/* sub/../*.md ./*.md`, `echo /dev/nul?`, `echo é*`, `echo *\ *`, `echo "my "*`, `echo [[:upper:]]*.log`,
		`@echo sub/.* sub/.[!.]*`, `echo log?.log log??.log`, `ls -1 *.log | sort -r`),
	tableCases("brace",
		`@echo {a,b} {1..5} {01..03} {a..e} {5..1} {a,b{c,d}}`, `@echo pre{a,b}post x{1..3}y{,z}`,
		`@mkdir -p p/{a,b}/{c,d} && ls -R p`, `@echo {1..20..5} {z..v..2} {0001..3} {-3..3..2}`, `@echo {a..c}{1..2}`,
		`@echo {Z..c}`, `@echo x{b..C}y`, `@echo "{a,b}" '{a,b}' \{a,b\} {a\,b}`, `@echo ${U:-{a,b}}`, `@echo {$N,x}{1,2}`,
		`@echo {$D,x}1`, `@echo {${D},x}1`, `@echo {*.md,x}`,
		`@echo {a} {} {a,} {,} x{,}y`, `@touch t{1..3} && ls t*`),
	tableCases("ansi-c",
		`@echo $'a\tb\nc'`, `@echo $'\x41' $'\101' $'it\'s' $'a\\b' $'\z'`, `@echo $'\u00e9'`, `@printf '%s' $'a\0b' | wc -c`,
		`@echo $'\cA\c?' | wc -c`, `@echo "$'x'" $'"$S"'`, `@echo $'*.txt' $'sub/'*`, `@echo $'\U1F600' | wc -c`),
	tableCases("arith",
		`echo $((1+2*3)) $(( (5/2) % 3 )) $((N+1)) $((N > 40 ? N : 0))`, `X=7; echo $((X+1)) $(($X*2))`,
		`echo $((1/0)); echo after`, `echo $((N/0)) || echo handled`, `echo $((S+1)); echo after`, `@X=1+2; echo $((X*2))`,
		`echo $(( 0x1F )) $(( 1 ? 2 : 3 )) $(( -5 % 3 )) $((U)) $((E+0))`, `echo $((9223372036854775807+1)) $((-9223372036854775807-1))`,
		`[ $((N % 2)) -eq 0 ] && echo even`),
	tableCases("heredoc",
		"cat <<EOF\nhome=$HOME n=$N sum=$((1+1)) d=${U:-d} \\$5 \\\\ \\n ~ *.txt {a,b} \"$S\" '$S'\nEOF",
		"cat <<EOF | tr a-z A-Z\n$F\nEOF\necho after", "cat <<'EOF'\n$HOME $((1+1))\nEOF", "cat <<-EOF\n\t$N\n\t\tx\n\tEOF",
		"cat <<EOF\nline \\\ncontinued\nEOF", "X=1; cat <<EOF\n$X\nEOF", "X=1; X=2 cat <<EOF\n$X\nEOF", "cat <<EOF\n$L|$T|$E|$U|\nEOF",
		"cat <<\"EOF\" && cat <<EOF\n$N\nEOF\n$N\nEOF", "cat <<EOF > out.txt; cat out.txt\n${F%%.*}\nEOF"),
	tableCases("here-string",
		`@cat <<<"$X"`, `@cat <<<$S`, `@X=1; X=3 cat <<<$X`, `@cat <<<~/x`, `@cat <<<*.txt`, `@cat <<<{a,b}`, `@wc -c <<<"$E"`),
	tableCases("test",
		`[ -n $U ] && echo nonempty`, `[ $S = x ]; echo $?`, `test $E = x; echo $?`, `[ -e *.md ] && echo one`,
		`test -e *.txt; echo $?`, `[ -f ~/a.txt ] && [ -d "$HOME/$D" ] && echo both`),
	tableCases("redirect",
		`@echo x > $S; echo $?`, `@echo x > $U; echo $?`, `echo x > "$S" && ls`, `@cat < *.md`, `@cat < *.txt; echo $?`,
		`echo x > ~/o.txt && cat ~/o.txt`, `@echo x > f{1,2}; echo $?`, `echo x > "$E"; echo $?`),
	tableCases("ifs",
		`IFS=,; printf '<%s>' $LIST; echo`, `IFS=; printf '<%s>' $S "$S"; echo`, `IFS=:; X="$PATHS"; printf '<%s>' $X; echo`,
		`IFS=' :'; printf '<%s>' $PATHS$S; echo`, `IFS=,; unset IFS; printf '<%s>' $S; echo`, `IFS=,; echo ${U:-a,b}`,
		`IFS=,; printf '<%s>' ${U:-a,b} "${U:-a,b}"; echo`),
	tableCases("command-word", `$CMD sub; "$CMD" sub; echo $?`, `$U $E echo hi`, `X=printenv; $X N`),
	tableCases("locale", `echo ?.txt ??.txt [!a].txt`, `echo é* *.txt`, `printf '%s\n' * | head -n 3`),
	tableCases("refused", `echo $(pwd)`, "echo `pwd`", `@cat ${U:-<(echo x)}`, `echo ${U:?w}`, `echo $1 $#`, `echo $((X=1))`),
	[]expandCase{
		withEnv(`printf '<%s>' $PATHS $S; echo`, true, "IFS=:"),
		withEnv(`printf '<%s>' $LIST; echo`, true, "IFS=,"),
		withEnv(`echo ${#U8}`, true, "U8=é日本"),
		withEnv(`echo ${U8:0:2} | wc -c`, false, "U8=é日本"),
		withEnv(`echo ${U8%?} | wc -c`, true, "U8=é日本"),
		withEnv(`echo ${U8:1} ${U8: -1} ${U8/日/x}`, false, "U8=é日本"),
		withEnv(`printf '<%s>' $U8 "${U8#?}"; echo`, true, "U8=é 日本"),
		withEnv(`cd -; echo $?; echo "$OLDPWD"`, true, "OLDPWD=/"),
	},
)
