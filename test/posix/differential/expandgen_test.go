//go:build unix

package differential

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// The expansion suite's generated chains: what agents write with shell
// expansion (ls *.txt, echo "$HOME/x", export A=1 && printenv A, cd sub &&
// ls *.txt; echo $?) mostly, and the corner cases of each form at a lower
// rate, joined by the operators the other suites use. Every form is a
// function from a template list; a template that only bash reads alike is
// marked bash-only (its chain is then not run under dash), and %v in a
// template stands for a variable name drawn from the environment, the
// chain's own variables or names never set.

// expandSeedFiles are added to seedFiles on the expansion suite's sides:
// dotfiles (globs skip them), more names for ?, [..] and ranges to tell
// apart, and a second directory for */ patterns.
var expandSeedFiles = []struct{ Name, Data string }{
	{".hidden", "secret\n"},
	{".env", "K=v\n"},
	{"notes.md", "# notes\n"},
	{"log1.log", "one\n"},
	{"log2.log", "two\ntwo\n"},
	{"logA.log", "A\n"},
	{"archive.tar.gz", ""},
	{"data/", ""},
	{"data/x.csv", "1,2\n"},
	{"data/y.csv", "3,4\n"},
	{"sub/e.txt", "e\n"},
	{"sub/.dot", ""},
}

// seedExpand writes expandSeedFiles under root, after makeSide's seed.
func seedExpand(root string) error {
	for _, f := range expandSeedFiles {
		p := filepath.Join(root, filepath.FromSlash(f.Name))
		var err error
		if strings.HasSuffix(f.Name, "/") {
			err = os.MkdirAll(p, 0o755)
		} else {
			err = os.WriteFile(p, []byte(f.Data), 0o644)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// expandVars are the variables the expansion suite's environment holds
// beside chainEnv's: empty, spaced (inside, leading, trailing), holding a
// glob, a number, a file name with dots, a path list, a comma list with an
// empty item, a directory, a name with a space, a URL with a ? and a
// command with an argument. U and NOPE are never set.
var expandVars = []string{
	"E=", "S=a  b  c", "L= lead", "T=trail ", "G=*.txt", "GS=sub/*.txt", "N=42", "F=archive.tar.gz",
	"PATHS=/opt/a:/opt/b:/opt/c", "LIST=one,two,,three", "D=sub", "SP=my file.txt",
	"URL=http://x/api?project=x", `Q=it's "q"`, "CMD=ls -1",
}

// expandEnv is the environment of a side: chainEnv's, expandVars and the
// case's own extra (an IFS, which bash does not import and neither may
// chainrun), under utf8Locale instead of LC_ALL=C when utf8 is set.
func expandEnv(extra []string, utf8 bool) func(root string) []string {
	return func(root string) []string {
		env := append(chainEnv(root), expandVars...)
		env = append(env, extra...)
		if utf8 {
			env = withLocale(env, utf8Locale)
		}
		return env
	}
}

// expandCase is one chain of the expansion suite.
type expandCase struct {
	runCase
	// Env is added to the suite's environment for this case.
	Env []string
	// Forms name the forms the chain is made of, for the per-form counts.
	Forms []string
}

// bashOnly starts a template that dash reads differently or not at all.
const bashOnly = "@"

// expandGen generates chains for the expansion suite.
type expandGen struct {
	r *rand.Rand
	// bash: something in the chain is bash-only, so dash is not compared.
	bash bool
	// cdUp: a cd .. came already; at most one keeps the chain in its side.
	cdUp bool
	// cds: a cd came, so cd - and ~- have somewhere to go back to.
	cds bool
	// bodies are the heredoc bodies, with their delimiter lines, that
	// follow the chain's line in the order their operators came.
	bodies []string
}

// newExpandGen seeds the generator of case i of a run with seed: every
// case has its own stream, so that DIFF_CASE replays one case alone.
func newExpandGen(seed uint64, i int) *expandGen {
	return &expandGen{r: rand.New(rand.NewPCG(seed^0xe4a9d, 0x9e3779b97f4a7c15^uint64(i)))}
}

// expandForm is one kind of snippet with its share of the snippets.
type expandForm struct {
	Name   string
	Weight int
	Gen    func(g *expandGen) string
}

// expandForms are the forms with their weights: globs and parameters,
// which agents write most, weigh most.
var expandForms = []expandForm{
	{"glob", 16, (*expandGen).glob},
	{"param", 15, (*expandGen).param},
	{"param-op", 12, (*expandGen).paramOp},
	{"status", 7, (*expandGen).status},
	{"cd", 8, (*expandGen).cd},
	{"tilde", 7, (*expandGen).tilde},
	{"vars", 14, (*expandGen).vars},
	{"brace", 7, (*expandGen).brace},
	{"ansi-c", 4, (*expandGen).ansiC},
	{"arith", 7, (*expandGen).arith},
	{"heredoc", 5, (*expandGen).heredoc},
	{"here-string", 3, (*expandGen).hereString},
	{"test", 4, (*expandGen).testExp},
	{"redirect", 4, (*expandGen).redirect},
	{"ifs", 2, (*expandGen).ifs},
	{"command-word", 1, (*expandGen).commandWord},
}

// pickForm draws a form by weight.
func (g *expandGen) pickForm() expandForm {
	total := 0
	for _, f := range expandForms {
		total += f.Weight
	}
	k := g.r.IntN(total)
	for _, f := range expandForms {
		if k < f.Weight {
			return f
		}
		k -= f.Weight
	}
	panic("unreachable")
}

// chain generates one chain: one to three snippets joined by && || ;,
// the heredoc bodies after the line, and now and then an IFS in the
// environment (bash ignores it; chainrun must too).
func (g *expandGen) chain() expandCase {
	var b strings.Builder
	var forms []string
	for i := range 1 + g.r.IntN(3) {
		if i > 0 {
			b.WriteString(pick(g.r, " && ", " || ", "; ", "; "))
		}
		f := g.pickForm()
		forms = append(forms, f.Name)
		b.WriteString(f.Gen(g))
	}
	src := b.String()
	if len(g.bodies) > 0 {
		src += "\n" + strings.Join(g.bodies, "")
	}
	var env []string
	if g.r.IntN(10) == 0 {
		env = []string{pick(g.r, "IFS=:", "IFS=,", "IFS=")}
	}
	return expandCase{runCase: runCase{Src: src, POSIX: !g.bash}, Env: env, Forms: forms}
}

// from returns a template of common most of the time and of corner
// otherwise, %v filled in and the bash-only mark noted.
func (g *expandGen) from(common, corner []string) string {
	list := common
	if len(corner) > 0 && (len(common) == 0 || g.r.IntN(10) < 3) {
		list = corner
	}
	return g.fill(pick(g.r, list...))
}

// fill notes and strips the bash-only mark and replaces every %v with
// one variable name.
func (g *expandGen) fill(t string) string {
	if s, ok := strings.CutPrefix(t, bashOnly); ok {
		g.bash = true
		t = s
	}
	if strings.Contains(t, "%v") {
		t = strings.ReplaceAll(t, "%v", g.varName())
	}
	return t
}

// varName is a variable to refer to: mostly one of the environment's,
// sometimes one the chain may have set (the vars form sets these) or one
// never set.
func (g *expandGen) varName() string {
	switch k := g.r.IntN(10); {
	case k < 6:
		return pick(g.r, "HOME", "E", "S", "L", "T", "G", "N", "F", "D", "SP", "PATHS", "LIST", "URL", "Q")
	case k < 8:
		return pick(g.r, "X", "A", "DIR")
	}
	return pick(g.r, "U", "NOPE")
}

// Globs: the listings agents ask for, in the tree and in sub-directories,
// and the patterns that match nothing (left as written), match dotfiles
// only when the dot is written, or are quoted or escaped and stay
// literal. bash 5.2's globskipdots keeps . and .. out of .*, which dash
// lists.
var (
	globCommon = []string{
		"ls *.txt", "ls -1 *.log", "cat sub/*.txt", "echo *.txt", "wc -l *.txt", "cat *.log | wc -l",
		"ls -1 data/*.csv", "head -n 1 log?.log", "echo log[12].log", "ls -1 log[!A].log", "echo [a-c]*",
		"cat data/*.csv | sort", "ls -1 */c.txt", "ls *.md && cat *.md", "ls *.txt | wc -l", "echo sub/*.txt",
		"cat *.nomatch 2>/dev/null || echo none", "ls -1 sub/*", "printf '%s\\n' *.txt | sort -r",
	}
	globCorner = []string{
		"echo *.nomatch", "ls *.nomatch; echo $?", "echo http://x/api?project=x", "echo .[dev]", `echo "*.txt"`,
		`echo \*.txt`, "echo '*'.txt", `echo *"."txt`, "@echo .*", "echo *", "echo sub/*", "@echo sub/.*",
		"echo ?", "echo ????.txt", "echo [ab]*.txt", "echo [!ab]*", "echo a[", "echo [z-a]*", "echo *.TXT",
		"printf '<%s>' *; echo", "echo sub/*/d.txt", "echo */*.txt", "echo */", "ls -1 -- *.md", "echo my*",
		"cat my*", `echo \[ab].txt`, "@echo [.]hidden", "echo .h*", "echo *.[tl]??", "echo [[:digit:]]*",
		"echo log[[:alpha:]].log", "echo [^a]*.txt", "echo data/?.csv data/[xz].csv", "echo \\?", "echo '['ab]*",
	}
)

func (g *expandGen) glob() string { return g.from(globCommon, globCorner) }

// Parameters, in and out of double quotes: a value's spaces split it
// unquoted (leading, trailing and runs of them too), its glob characters
// glob, an empty or unset one vanishes; printf '<%s>' shows the fields.
var (
	paramCommon = []string{
		`echo "$HOME/x"`, "echo $HOME", `ls "$HOME"/sub`, `cat "$HOME/a.txt"`, `echo "file: $F"`, "echo ${D}/c.txt",
		"cat $D/c.txt", "printenv S", `echo "$S"`, "echo $S", `echo "$%v"`, "echo $%v", "echo ${%v}",
		"printf '<%s>' $%v; echo", `printf '<%s>' "$%v"; echo`, "ls $D", `cat "$SP"`, `echo "$Q"`,
		`echo "Home is $HOME, file is ${F}"`, `ls -1 "$HOME/data"`, "echo $PATHS | tr : '\\n'", `basename "$HOME"`,
		`basename $F .gz`, "echo $N | wc -c", "printenv %v", `echo "$%v" | tr a-z A-Z`,
	}
	paramCorner = []string{
		"printf '<%s>' \"$L\" $L $T \"$T\"; echo", "echo $G", `echo "$G"`, "ls $GS", "cat $SP; echo $?",
		"echo x${E}y", `echo "[$E]" "[$U]"`, "printf '<%s>' $E $U; echo", `printf '<%s>' "$E" "$U"; echo`,
		"echo $URL", "echo $N$N", "echo ${N}0", "echo $N_suffix", `echo "$D"s`, `echo '$S' "\$S" \$S`,
		"echo $%v$%v", `echo "$%v"'$%v'`, "echo ${S}x$L", `echo "${S}"x`, "printf '<%s>' x$S; echo",
		"printf '<%s>' $G.bak; echo", "echo $", `echo "$"`, "echo a$%v-b",
		`printf '<%s>' "$S"$T; echo`, "echo \"$HOME\"/*.md", "echo $HOME/*.md",
	}
)

func (g *expandGen) param() string { return g.from(paramCommon, paramCorner) }

// paramOps are the parameter operators with their variable left as %s:
// defaults, alternatives, lengths, prefix and suffix removal (dash reads
// these alike), substitution and substrings (bash only).
var paramOps = []string{
	"${%s:-default}", "${%s-unset}", "${%s:+set}", "${%s+x}", "${#%s}", "${%s%%.gz}", "${%s%%.*}",
	"${%s%%%%.*}", "${%s#*.}", "${%s##*.}", "${%s%%%%:*}", "${%s##*:}", "${%s%%/*}", "${%s##*/}",
	"${%s:-$HOME/x}", `${%s:-"a  b"}`, "${%s:-a  b}", "${%s:-*.txt}", "${%s%%.txt}", "${%s:+$D/c.txt}",
	"${%s#\"a\"}", `${%s#\*}`, "${%s%%?z}", "${%s%%[.]*}", "${%s:-~/x}", "${%s-$N}", "${%s#* }",
	"@${%s/a/A}", "@${%s//:/ }", "@${%s// /_}", "@${%s:0:7}", "@${%s: -3}", "@${%s:2}", "@${%s/#a/A}",
	"@${%s/%%c/C}", "@${%s/.tar}", "@${%s:1:3}", "@${%s//,/ }", "@${%s:(-6):3}", "@${%s/t*/T}",
}

// paramOp applies an operator to a variable, quoted or not, as an
// argument of echo, printf '<%s>' (to show the fields) or ls or cat.
func (g *expandGen) paramOp() string {
	name := pick(g.r, "F", "F", "PATHS", "S", "E", "U", "N", "HOME", "D", "LIST", "G", "L", "T", "X")
	op := g.fill(pick(g.r, paramOps...))
	op = strings.ReplaceAll(strings.ReplaceAll(op, "%s", name), "%%", "%")
	w := op
	if g.r.IntN(2) == 0 {
		w = `"` + op + `"`
	}
	t := pick(g.r, "echo %w", "echo %w", "echo %w", "printf '<%s>' %w; echo", "echo x%wy",
		`echo "${%v:-none}" %w`, "ls -d %w", "mkdir -p out/%w && ls -R out")
	return g.fill(strings.ReplaceAll(t, "%w", w))
}

// $?: the status of the pipeline before, after every kind of failure,
// twice in one command (both the same), after an assignment alone (0).
var (
	statusCommon = []string{
		"false; echo $?", "ls nonexistent 2>/dev/null; echo $?", `cd nonexistent 2>/dev/null; echo "status $?"`,
		"true | false; echo $?", "false | true; echo $?", "test -d sub; echo $?", `[ -f missing.txt ] || echo "missing: $?"`,
		`cat missing.txt 2>/dev/null || echo "cat failed with $?"`, "echo $?", "false || echo $?",
		"ls *.nomatch 2>/dev/null; echo $?", "printenv NOPE; echo $?", `nosuchprog_x 2>/dev/null; echo "exit=$?"`,
	}
	statusCorner = []string{
		"false && echo no; echo $?", "X=1; echo $?", "false; X=1; echo $?", "false; echo $? $?", "echo $((1+1)); echo $?",
		"false; echo $?; echo $?", "false | echo $?", "false; exit $?", "sort -Z 2>/dev/null; echo $?", "echo \"[$?]\" '$?' \\$?",
		"false; X=$? printenv X", "false; [ $? -eq 1 ] && echo one", "cd sub/inner; echo $? ${PWD##*/}",
	}
)

func (g *expandGen) status() string { return g.from(statusCommon, statusCorner) }

// cd and what it leaves: $PWD and $OLDPWD (unset before the first cd),
// cd - (which prints where it goes), ~+ and ~- (bash only), globs and
// relative names read in the new directory. At most one cd .. per chain
// keeps it inside its side.
var (
	cdCommon = []string{
		"cd sub && ls *.txt; echo $?", "cd sub && echo $PWD", `cd sub; echo "$OLDPWD"`, "cd sub && pwd && cd -",
		`cd "$HOME/sub" && ls`, "cd ~/data && ls *.csv", "cd sub/inner && echo ${PWD##*/}", "cd; echo $PWD",
		"cd ~ && pwd", "cd $D && cat *.txt", `cd "$D" && echo "now in $PWD"`, "cd data && wc -l *.csv",
	}
	cdCorner = []string{
		"@cd $D && echo ~+ ~-", "cd sub && cd .. && echo $OLDPWD", "cd nonexistent; echo $PWD", `@echo "$PWD" "[$OLDPWD]"`,
		"cd -", "cd data; cd -; cd -", "@cd sub && cd inner && echo ~- ~+/x", "cd sub/inner && ls ../*.txt",
		"cd $U && pwd", `cd "$E"; echo $? $PWD`, "cd $HOME/nonexistent 2>/dev/null || echo $PWD", "cd sub | true; echo $PWD",
		"cd $GS; echo $?", "cd */inner && pwd", "cd d* && ls", "@cd ~- ; pwd",
	}
)

func (g *expandGen) cd() string {
	if !g.cdUp && g.r.IntN(8) == 0 {
		g.cdUp = true
		g.cds = true
		return g.fill(pick(g.r, "cd .. && ls -d */ && cd -", "cd ..; echo ${PWD##*/} $OLDPWD", "cd .. && echo */"))
	}
	t := g.from(cdCommon, cdCorner)
	if (t == "cd -" || strings.HasPrefix(t, "cd ~-")) && !g.cds && g.r.IntN(3) > 0 {
		t = "cd sub; " + t // mostly after a cd, sometimes with OLDPWD unset
	}
	g.cds = true
	return t
}

// Tildes: ~ and ~/x where a word starts, after = in assignment-shaped
// arguments (bash only: a=~/x; --prefix=~/x is not assignment-shaped) and
// after = and : in assignments, not in quotes, after a backslash or
// inside a word, not for a user that does not exist.
var (
	tildeCommon = []string{
		"echo ~", "ls ~/sub", "cat ~/a.txt", "echo ~/x", "ls -1 ~/data", "X=~/x:~/y; echo $X", "ls ~/*.md",
		"cat ~/sub/c.txt | wc -l", "echo ~/notes.md", "head -n 1 ~/log1.log",
	}
	tildeCorner = []string{
		"@echo a=~/x", "echo --prefix=~/opt", "@export P2=~/bin:~/lib && printenv P2", `echo "~"`, `echo \~`,
		"echo ~nosuchuser_x", "echo x~", "echo ~/'a b'", "echo ~/*.txt", "@echo ~+/x", "@echo ~:x",
		"HOME=$HOME/sub; echo ~; cd ~ && pwd", "HOME=$HOME/sub echo ~", "@echo ~-", "X=~; echo $X",
		"X=a:~/b; echo $X", `X="~/x"; echo $X`, "printenv HOME | tr / _; echo ~/", "echo ~/{a,b}x | wc -w",
		"echo '~'/x ~\"/x\"", "@echo x=~ y:~",
	}
)

func (g *expandGen) tilde() string {
	t := g.from(tildeCommon, tildeCorner)
	if strings.Contains(t, "{") {
		g.bash = true
	}
	return t
}

// Chain variables: X=v alone sets a variable for the rest of the chain
// that is not exported; export and unset; X=v cmd applies to cmd only
// while cmd's own words expand with the old value; inside a pipeline
// stage nothing outlives the stage.
var (
	varsCommon = []string{
		"export A=1 && printenv A", "X=hello; echo $X", `X=hello; printenv X || echo "not exported"`,
		"X=hello; export X; printenv X", `X=2 printenv X; echo "[$X]"`, "N=7 echo $N", `unset S; echo "[$S]"`,
		"DIR=sub; ls $DIR", "OUT=out.txt; echo hi > $OUT; cat $OUT", "export PATHS=/x; printenv PATHS",
		`X="a b"; echo "$X"`, "export X=1; echo $X", "A=1; B=2; echo $A$B", `DIR="$HOME/data"; ls "$DIR"`,
		"export A=1 B=2 && printenv A B", `X=$F; echo "${X%%.*}"`, "unset N; printenv N; echo $?",
	}
	varsCorner = []string{
		`X=1 | true; echo "[$X]"`, "export Y=2 | cat; printenv Y || echo gone", "unset HOME | true; echo $HOME",
		"A=1 B=$A printenv B", "X=$S; echo $X; echo \"$X\"", "X=*.txt; echo $X; echo \"$X\"", "X={a,b}; echo $X",
		"X=$((N+1)); echo $X", "@export X=$S; printenv X", "unset U; echo ${U-gone}", "X=a; X=${X}b; echo $X",
		"X=1; X=2 printenv X; echo $X", "export X; echo \"[$X]\"; printenv X; echo $?", `X=a\ b; echo "$X"`,
		"X='a  b'; echo $X", `X="$HOME"/x; echo $X`, "_x1=v; echo $_x1", "X=1; unset X; echo ${X:-unset}",
		"export X=1; unset X; printenv X; echo $?", "export E; printenv E | wc -c", "X=; printf '<%s>' $X \"$X\"; echo",
		"unset A B; echo \"[$A$B]\"", "X=2 true; echo \"[$X]\"", "X=1 Y=$X; echo $Y", "X=$'a\\tb'; echo \"$X\" | tr '\\t' _",
		"N=$N$N; echo $N", "export N=1; N=2; printenv N", "X=1 X=2 printenv X", "FOO_BAR=x; echo $FOO_BAR ${FOO_BAR}",
		"X=1; cd sub | X=2 true; echo $X $PWD", "X=v printenv X | cat; printenv X; echo $?", "LC_ALL=C X=1; echo $X",
	}
)

func (g *expandGen) vars() string {
	t := g.from(varsCommon, varsCorner)
	if strings.Contains(t, "$'") {
		g.bash = true
	}
	return t
}

// Braces (bash only): lists and sequences with prefixes and suffixes,
// zero-padded, descending, with a step, nested, next to parameters,
// tildes and globs (braces come first); a single item, a quoted or
// escaped brace and an invalid sequence stay as written.
var (
	braceCommon = []string{
		"mkdir -p out/{src,bin} && ls out", "touch f{1..3}.tmp && ls *.tmp", "echo {a,b,c}", "echo file{1..3}.txt",
		"cat {a,b}.txt", "ls sub/{c,e}.txt", "echo {1..5}", "printf '%s\\n' {c,a,b} | sort", "echo x{1,2}y",
		"mkdir -p d{1,2}/x && ls d1 d2", "cat log{1,2}.log | wc -l", "echo {a,b}.txt",
	}
	braceCorner = []string{
		"echo {01..03}", "echo {a..e}", "echo {5..1}", "echo {a,b{c,d}}", "echo {1..10..3}", "echo {a}", "echo {a,}",
		"echo {,a}b", `echo "{a,b}"`, `echo \{a,b}`, "echo {$D,x}", "echo ${D}{1,2}", "echo {1..3}{a,b}", "echo {a..c}.txt",
		"echo {x..z}{1..2}", "echo {-1..2}", "echo a{b,c}d{e,f}", "echo {a..e..2}", "echo {1..a}", "echo {*.txt,x}",
		"ls {a,b}*.txt", "echo '{'a,b'}'", "echo {a,b}$N", "echo {}", "echo {,}", "echo {a,b}{", "echo {10..8}",
		"echo {a,'b c'}", "echo {\"$S\",x}", "echo {$S,x}", "printf '<%s>' {,x}; echo", "echo x{}y",
		"echo {$D,x}1", "echo {Y..b}", "echo {${D},x}1",
	}
)

func (g *expandGen) brace() string {
	g.bash = true
	return g.from(braceCommon, braceCorner)
}

// ANSI-C quoting (bash only): tab, newline, hex and octal, an escaped
// quote, a backslash, an unknown escape, NUL (ends the string), a control
// character; inside double quotes $'…' is literal.
var (
	ansiCommon = []string{
		`echo $'a\tb'`, `printf '%s\n' $'x\ny'`, `echo $'\x41'`, `echo $'it\'s'`, `echo $'a\\b'`, `echo $'\101'`,
		`printf '<%s>' $'a b'; echo`, `echo $'tab\there' | tr '\t' _`, `X=$'a\nb'; echo "$X"`, `echo $'line1\nline2' | wc -l`,
	}
	ansiCorner = []string{
		`echo $'\''`, `echo $'"q"'`, `echo $'\z'`, `echo $'\cA' | wc -c`, `echo $'a\0b'`, `echo x$'\t'y | tr '\t' :`,
		`echo "$'x'"`, `echo $'\x41\x42'`, `echo $'\E' | wc -c`, `echo $'*.txt'`, `echo $'$S'`, `echo $'\x4'1`,
		`echo $'a'"$N"'b'`, `echo $'\0101'`, `echo $'\?'`, `echo $''`, `printf '<%s>' $'' x; echo`,
	}
)

func (g *expandGen) ansiC() string {
	g.bash = true
	return g.from(ansiCommon, ansiCorner)
}

// Arithmetic: precedence and parentheses, division towards zero, bases,
// shifts and bit operators, comparisons, logic and the ternary, variables
// with and without $, unset and empty ones (0), signed 64-bit overflow.
// The comma operator, base# and a variable holding an expression are
// bash only.
var (
	arithCommon = []string{
		"echo $((1+2*3))", "echo $((N+1))", "echo $(( (5/2) % 3 ))", "echo $((N > 40))", "echo $((N == 42 ? 1 : 2))",
		"[ $((N % 2)) -eq 0 ] && echo even || echo odd", "head -n $((1+1)) a.txt", "echo $((N/4))", `echo "$((N*N))"`,
		"printf '%d\\n' $((N-50))", "echo $(( (1+2) * (3+4) ))", "X=5; echo $((X*2))", "echo total: $((3 + 4))",
	}
	arithCorner = []string{
		"echo $((-7 / 2))", "echo $((0x10 + 010))", "echo $((1 << 4))", "echo $((7 & 3)) $((7 | 8)) $((5 ^ 1))",
		"echo $((!0)) $((~0))", "echo $((N % 5))", "echo $((U + 1))", "echo $((E + 2))", "echo $(( $N * 2 ))",
		"echo $(( N >= 42 && N < 50 ))", "echo $((10 - -2))", "echo $(( 2 > 1 ? N : 0 ))",
		"echo $((9223372036854775807 + 1))", "echo $((07 + 1))", "@echo $((1,2))", "@echo $((2#101))", "echo $((N))",
		"echo $((  N  ))", "echo $((-N))", "echo $((+N))", "@X=1+2; echo $((X*2))", "echo $((N)) $((${N}0))",
		"echo $((N<<1 | 1))", "echo $(( -9 % 4 ))", "echo $((0 || N)) $((0 && N))", "echo $(($N))",
	}
)

func (g *expandGen) arith() string { return g.from(arithCommon, arithCorner) }

// Heredoc body lines. Under an unquoted delimiter bash expands
// parameters, arithmetic and \$ \\ \` escapes (and joins a line ending in
// a backslash with the next); quotes, tildes, globs and braces stay as
// they are, and other backslashes too.
var (
	bodyCommon = []string{
		"home=$HOME", "file: $F", "sum=$((1+1))", "name=${F%%.*}", "default ${U:-d}", "plain text", `price \$5`,
		"n=$N", `quoted "$S"`, "'$N'", "path: $HOME/data/x.csv", "Hello, ${D}!",
	}
	bodyCorner = []string{
		"tilde ~ glob *.txt braces {a,b}", `back\\slash`, `keep \n and \t`, "$U.", "${#F}", "$N$N", "cont \\\ninued",
		`\"not special\"`, "$((N * 2))", "$", "a $ b", "@${F/tar/zip}", "${E:-empty}", "$'x'", "${S}|", " $L|$T|",
		`\a\b`, "${U-$N}", "x\\", "$E$U",
	}
)

// heredoc feeds a body to cat, wc, sort, head or tr, under an unquoted
// delimiter mostly, sometimes a quoted one (nothing expands) or <<-
// (leading tabs go).
func (g *expandGen) heredoc() string {
	delim := pick(g.r, "EOF", "EOF", "END", "TXT")
	word, strip := delim, g.r.IntN(6) == 0
	if g.r.IntN(8) == 0 {
		word = pick(g.r, "'"+delim+"'", `"`+delim+`"`, `\`+delim)
	}
	var body strings.Builder
	for range 1 + g.r.IntN(4) {
		line := g.from(bodyCommon, bodyCorner)
		if strip && g.r.IntN(2) == 0 {
			line = "\t" + line
		}
		body.WriteString(line + "\n")
	}
	end := delim + "\n"
	op := "<<"
	if strip {
		op = "<<-"
		end = pick(g.r, "", "\t") + end
	}
	if strings.HasSuffix(body.String(), "\\\n") {
		body.WriteString("last\n") // the backslash-newline joins this line, not the delimiter
	}
	g.bodies = append(g.bodies, body.String()+end)
	t := pick(g.r, "cat %h", "cat %h", "cat %h | tr a-z A-Z", "cat %h > out.txt && cat out.txt", "wc -l %h",
		"sort %h", "head -n 1 %h", "cat %h | wc -c")
	return strings.ReplaceAll(t, "%h", op+word)
}

// Here-strings (bash only): the word expands as an assignment's value
// does (no splitting, no globbing, no braces) and gains a newline.
var (
	hereCommon = []string{
		`cat <<<"$S"`, "cat <<< $S", `wc -w <<<"$S"`, `tr a-z A-Z <<<"$HOME"`, `cat <<<"${F%.gz}"`,
		"cat <<<$((N+1))", `tr , '\n' <<<"$LIST"`, `sort <<<"$N"`, `cat <<<"file is $F"`,
	}
	hereCorner = []string{
		"cat <<<$G", "cat <<<~/x", "cat <<<{a,b}", `cat <<<$'a\tb'`, `cat <<<""`, "cat <<<$U | wc -c", "cat <<< *.txt",
		"cat <<<$L$T", `cat <<<'$S'`, "wc -l <<<$E", "cat <<<a=~/x", "cat <<<${S// /_}",
	}
)

func (g *expandGen) hereString() string {
	g.bash = true
	return g.from(hereCommon, hereCorner)
}

// test and [ over expansions: the quoting mistakes ([ -n $U ] is true,
// [ $S = x ] has too many arguments, test $E = x too few), a glob that
// matches one file or several.
var (
	testCommon = []string{
		`[ -n "$E" ] || echo empty`, "[ -z $U ] && echo unset", `test "$N" -gt 40 && echo big`, `[ -d "$HOME/sub" ] && echo dir`,
		"[ -f ~/a.txt ] && echo file", `[ "$S" = "a  b  c" ] && echo same`, `[ "$D" = sub ] && cd $D && pwd`,
		`[ -z "$%v" ] && echo "%v is empty" || echo "%v is set"`, `test -f "$F" && echo "found $F"`, `[ -n "$N" ] && echo $N`,
	}
	testCorner = []string{
		"[ $S = x ]; echo $?", "test -e $G; echo $?", "[ -e *.md ] && echo one md", "test $E = x; echo $?",
		"[ -n $U ] && echo nonempty", "[ $N -eq 42 ] && echo yes", `[ "$L" = " lead" ] && echo kept`, "[ $L = lead ] && echo split",
		"test -z $S; echo $?", `[ "${U:-x}" = x ] && echo default`, "[ -d ~ ] && echo home", `[ "$URL" != "" ] && echo $URL`,
	}
)

func (g *expandGen) testExp() string { return g.from(testCommon, testCorner) }

// Redirect targets expand too: a parameter, a tilde, quoted spaces; an
// unquoted value that splits, an unset one and a glob with several
// matches are ambiguous redirects in bash (dash neither splits nor globs
// them), a glob with one match is its file.
var (
	redirCommon = []string{
		"echo hi > $D/out.txt && cat $D/out.txt", "echo x > ~/o.txt; cat ~/o.txt", "cat < $HOME/a.txt",
		`echo x > "$S" && ls`, "cat < ${D}/c.txt", "echo x > out_$N.txt && ls out_*", `ls > "$HOME/list.txt" && wc -l < ~/list.txt`,
		`echo "$F" >> ~/log.txt; cat ~/log.txt`,
	}
	redirCorner = []string{
		"@echo x > $S; echo $?", "@echo x > $U; echo $?", "@cat < *.md", "@cat < *.txt; echo $?",
		`echo x 2> $HOME/err.txt >&2; cat ~/err.txt`, `ls missing 2> "$HOME/e r.txt"; cat ~/"e r.txt"`,
		"@echo a > f{1,2}; echo $?", `echo x > "$E"; echo $?`, "echo x > $GS; echo $?", `echo x > "$G" && ls`,
		"echo x > ${U:-def}.out && ls *.out", "cat < ~/sub/c.txt", `cat < "$SP"`, "@cat < $SP; echo $?",
	}
)

func (g *expandGen) redirect() string { return g.from(redirCommon, redirCorner) }

// IFS set in the chain: a non-blank IFS keeps empty fields, an empty one
// splits nothing; quoted expansions never split.
var ifsCases = []string{
	"IFS=,; printf '<%s>' $LIST; echo", "IFS=:; echo $PATHS", "IFS=; printf '<%s>' $S; echo",
	"IFS=' '; printf '<%s>' $LIST; echo", `IFS=,; X="a,b"; printf '<%s>' $X "$X"; echo`, `IFS=,; echo "$LIST" $LIST`,
	"IFS=:; X=a::b; printf '<%s>' $X; echo", "IFS=', '; X='a, b,,c'; printf '<%s>' $X; echo", "IFS=,: printenv IFS | wc -c",
	"IFS=:; printf '<%s>' $PATHS:x; echo", "IFS=,; echo *.md", "IFS=.; printf '<%s>' $F; echo", "IFS=,; printf '<%s>' ${LIST}; echo",
}

func (g *expandGen) ifs() string { return g.from(ifsCases, nil) }

// The command word expands too: $CMD splits into ls -1, an empty or
// unset first word vanishes and the next one is the command, a quoted
// "ls -1" is no command at all.
var commandWords = []string{
	"$CMD sub", "${CMD} data", `"$CMD" sub; echo $?`, "X=echo; $X hi", "$U echo hi", "$E true && echo ok",
	"P=printenv; $P N", "X=ls; $X *.md", `C="echo  a"; $C b`, "$CMD $D/*.txt",
}

func (g *expandGen) commandWord() string { return g.from(commandWords, nil) }
