package expand

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
)

// The expansion tables run in one fixture: a temporary directory holding a
// few files, and variables of every shape. Expected values were checked
// against bash 5.2 run in the same state; "$TMP" in an expected value
// stands for the fixture's directory.

// skipBug skips a case that fails for a known bug in the non-test code,
// unless CHAINRUN_BUGS is set (go test with CHAINRUN_BUGS=1 runs them, to
// see which are fixed).
func skipBug(t *testing.T, bug string) {
	t.Helper()
	if bug != "" && os.Getenv("CHAINRUN_BUGS") == "" {
		t.Skip("BUG: " + bug)
	}
}

// tmpMark stands for the fixture's directory in an expected value.
const tmpMark = "$TMP"

// fixtureFiles are the files of the fixture's directory ("/" ends a
// directory).
var fixtureFiles = []string{"a.go", "b.go", "c.txt", ".hidden.go", "sub/", "sub/s.go", "sub/x y.txt", ".cfg/", ".cfg/.x", ".cfg/y"}

// fixture returns a shell in a fresh fixture directory: exported X, E
// (empty), G (a glob), W (spaces around), N, F, S, H; shell variables V,
// EXP, EV; status 3; OLDPWD /old; HOME /home/me.
func fixture(t testing.TB) *Shell {
	t.Helper()
	dir := testprog.TempDir(t)
	testprog.MakeTree(t, dir, fixtureFiles...)
	return &Shell{
		Env: []string{"HOME=/home/me", "PWD=" + dir, "OLDPWD=/old", "X=a  b", "E=", "G=*.go",
			"W= lead  trail ", "N=21", "F=out.txt", "S=sub", "H=#hash"},
		Vars:   map[string]string{"V": "v1", "EXP": "A=1 B=2", "EV": "eval"},
		Dir:    dir,
		Status: 3,
		Rules:  POSIXRules,
	}
}

// subst replaces tmpMark in each expected value with dir.
func subst(dir string, ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ReplaceAll(s, tmpMark, dir)
	}
	return out
}

// setVars assigns NAME=value pairs in sh, as NAME=value alone would.
func setVars(sh *Shell, kvs []string) {
	for _, kv := range kvs {
		k, v, _ := strings.Cut(kv, "=")
		sh.Assign(k, v)
	}
}

// expandOne parses a one-segment src in dialect d and expands it both
// ways: through the plan (Plan) and for the run (Segment).
func expandOne(t *testing.T, sh *Shell, d chain.Dialect, src string) (plan, run *chain.Segment) {
	t.Helper()
	c, err := chain.ParseDialect(src, d)
	if err != nil {
		t.Fatalf("ParseDialect(%q): %v", src, err)
	}
	if n := len(c.Segments()); n != 1 {
		t.Fatalf("%q has %d segments, want 1", src, n)
	}
	p, err := Plan(c, sh)
	if err != nil {
		t.Fatalf("Plan(%q): %v", src, err)
	}
	run, err = Segment(c.Segments()[0], sh)
	if err != nil {
		t.Fatalf("Segment(%q): %v", src, err)
	}
	plan = p.Segments()[0]
	checkPlanWords(t, plan)
	return plan, run
}

// checkPlanWords asserts a planned segment's Args are its Words' fields
// and that each Runtime word is one field, the word as written.
func checkPlanWords(t *testing.T, s *chain.Segment) {
	t.Helper()
	var fields []string
	for i, w := range s.Words {
		if w.Runtime && (len(w.Fields) != 1 || w.Fields[0] != s.WordText(i)) {
			t.Errorf("segment %d: runtime word has fields %q, want the word as written", s.Index, w.Fields)
		}
		fields = append(fields, w.Fields...)
	}
	if !slices.Equal(fields, s.Args) {
		t.Errorf("segment %d: Args %q are not the words' fields %q", s.Index, s.Args, fields)
	}
}

// argCase expands one segment and compares its Args.
type argCase struct {
	name string
	src  string
	set  []string // NAME=value set in the fixture first
	want []string // Args, as bash 5.2 gives them
	bug  string   // when set, the case fails for this reason: skipped
}

func runArgCases(t *testing.T, cases []argCase) {
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			skipBug(t, tt.bug)
			sh := fixture(t)
			setVars(sh, tt.set)
			// A directory written in the source is written with slashes:
			// the POSIX dialect reads a backslash as an escape.
			dir := sh.Dir
			if strings.Contains(tt.src, tmpMark) {
				dir = filepath.ToSlash(dir)
			}
			plan, run := expandOne(t, sh, chain.POSIX, strings.ReplaceAll(tt.src, tmpMark, dir))
			want := subst(dir, tt.want)
			if !slices.Equal(plan.Args, want) {
				t.Errorf("plan Args = %q, want %q", plan.Args, want)
			}
			if !slices.Equal(run.Args, want) {
				t.Errorf("Segment Args = %q, want %q", run.Args, want)
			}
		})
	}
}

func TestExpandParameters(t *testing.T) { runArgCases(t, parameterCases) }

var parameterCases = []argCase{
	{name: "unquoted splits", src: "echo $X", want: []string{"echo", "a", "b"}},
	{name: "braced", src: "echo ${X}", want: []string{"echo", "a", "b"}},
	{name: "double-quoted keeps", src: `echo "$X" "${X}"`, want: []string{"echo", "a  b", "a  b"}},
	{name: "single-quoted literal", src: `echo '$X'`, want: []string{"echo", "$X"}},
	{name: "escaped dollar", src: `echo \$X "\$X"`, want: []string{"echo", "$X", "$X"}},
	{name: "unset is empty and removed", src: "echo $U x", want: []string{"echo", "x"}},
	{name: "unset quoted is one empty field", src: `echo "$U" ''$U`, want: []string{"echo", "", ""}},
	{name: "shell variable", src: "echo $V", want: []string{"echo", "v1"}},
	{name: "glued to text", src: `echo a$X"b"$X`, want: []string{"echo", "aa", "bba", "b"}},
	{name: "name ends at a non-name character", src: "echo $V.txt $V-x ${V}x", want: []string{"echo", "v1.txt", "v1-x", "v1x"}},
	{name: "dollar alone stays", src: `echo $ a$ "$"`, want: []string{"echo", "$", "a$", "$"}},
	{name: "line continuation after dollar", src: "echo $\\\nV", want: []string{"echo", "v1"}},
	{name: "default when unset or empty", src: "echo ${U:-d} ${E:-d} ${X:-d}", want: []string{"echo", "d", "d", "a", "b"}},
	{name: "default when unset", src: `echo ${U-d} "${E-d}"`, want: []string{"echo", "d", ""}},
	{name: "alternative when set and not empty", src: "echo ${U:+s} ${E:+s} ${X:+s}", want: []string{"echo", "s"}},
	{name: "alternative when set", src: "echo ${U+s} ${E+s}", want: []string{"echo", "s"}},
	{name: "default splits unquoted", src: "echo ${U:-a b}", want: []string{"echo", "a", "b"}},
	{name: "default in double quotes", src: `echo "${U:-a b}"`, want: []string{"echo", "a b"}},
	{name: "default expands a variable", src: "echo ${U:-$V}", want: []string{"echo", "v1"}},
	{name: "length", src: "echo ${#X} ${#U} ${#E}", want: []string{"echo", "4", "0", "0"}},
	{name: "substring", src: `echo "${X:1}" ${X:0:1} ${X: -1} "${X:(-2):1}"`, want: []string{"echo", "  b", "a", "b", " "}},
	{name: "prefix removal", src: `echo ${H#\#} ${H#*a} "${X##* }"`, want: []string{"echo", "hash", "sh", "b"}},
	{name: "suffix removal", src: `echo ${F%.txt} ${F%%t*} "${X%% *}"`, want: []string{"echo", "out", "ou", "a"}},
	{name: "replace first and all", src: `echo ${F/t/T} ${F//t/T} "${X// /_}"`, want: []string{"echo", "ouT.txt", "ouT.TxT", "a__b"}},
	{name: "replace with a bracket class", src: "echo ${F//[aeiou]/_}", want: []string{"echo", "__t.txt"}},
	{name: "case", src: "echo ${F^} ${F^^} ${V,,} ${F^^[t]}", want: []string{"echo", "Out.txt", "OUT.TXT", "v1", "ouT.TxT"}},
	{name: "case operators", src: `echo ${F@U} ${F@u} "${X@L}"`, want: []string{"echo", "OUT.TXT", "Out.txt", "a  b"}},
	{name: "status", src: "echo $? ${?} x$?", want: []string{"echo", "3", "3", "x3"}},
	{name: "PWD and OLDPWD", src: "echo $PWD $OLDPWD", want: []string{"echo", tmpMark, "/old"}},
	{name: "command word from a variable", src: "$S x", set: []string{"S=ls -l"}, want: []string{"ls", "-l", "x"}},
	{name: "empty command word", src: "$U echo x", want: []string{"echo", "x"}},
}

func TestExpandIFS(t *testing.T) { runArgCases(t, ifsCases) }

var ifsCases = []argCase{
	{name: "default splits on runs of blanks", src: "echo $W", want: []string{"echo", "lead", "trail"}},
	{name: "default trims in a glued word", src: "echo x${W}y", want: []string{"echo", "x", "lead", "trail", "y"}},
	{name: "tabs and newlines", src: "echo $T", set: []string{"T=a\tb\nc"}, want: []string{"echo", "a", "b", "c"}},
	{name: "empty IFS does not split", src: "echo $X", set: []string{"IFS="}, want: []string{"echo", "a  b"}},
	{name: "quoted never splits", src: `echo "$P" "${P}x"`, set: []string{"IFS=:", "P=a:b"}, want: []string{"echo", "a:b", "a:bx"}},
	{name: "blanks only", src: "echo $P", set: []string{"IFS=\t", "P=a b\tc"}, want: []string{"echo", "a b", "c"}},
	{name: "assignment-shaped argument still splits", src: "echo a=$X", want: []string{"echo", "a=a", "b"}},
	{name: "IFS starts as space, tab, newline", src: "cat${IFS}/etc/passwd", want: []string{"cat", "/etc/passwd"}},
}

func TestExpandSpecialWords(t *testing.T) { runArgCases(t, specialWordCases) }

var specialWordCases = []argCase{
	{name: "ANSI-C escapes", src: `echo $'a\tb' $'\x41\101' $'it\'s' $'\\' $'\z'`, want: []string{"echo", "a\tb", "AA", "it's", `\`, `\z`}},
	{name: "ANSI-C glued", src: `echo x$'\n'y`, want: []string{"echo", "x\ny"}},
	{name: "ANSI-C NUL ends the string", src: `echo $'a\0b'`, want: []string{"echo", "a"}},
	{name: "ANSI-C command word", src: `$'\x72m' x`, want: []string{"rm", "x"}},
	{name: "arithmetic", src: "echo $((1+2)) $[2*3] $((N*2)) $(($N+1)) $((U+1))", want: []string{"echo", "3", "6", "42", "22", "1"}},
	{name: "arithmetic operators", src: "echo $((7/2)) $((-7%3)) $((2**10)) $((1<<4)) $((5>3&&2)) $((!0)) $((~0)) $((1?2:3))",
		want: []string{"echo", "3", "-1", "1024", "16", "1", "1", "-1", "2"}},
	{name: "arithmetic bases", src: "echo $((16#ff)) $((0x10)) $((010)) $((2#101)) $((10#010))", want: []string{"echo", "255", "16", "8", "5", "10"}},
	{name: "arithmetic in double quotes", src: `echo "$(( N + 1 ))"`, want: []string{"echo", "22"}},
	{name: "arithmetic shift past the width", src: "echo $((1<<64)) $((1<<-1))", want: []string{"echo", "1", "-9223372036854775808"},
		bug: "bash masks the shift count (1<<64 is 1, 1<<-1 is 1<<63); chainrun gives 0 0"},
}

func TestExpandTilde(t *testing.T) { runArgCases(t, tildeCases) }

var tildeCases = []argCase{
	{name: "home", src: "echo ~ ~/x ~/", want: []string{"echo", "/home/me", "/home/me/x", "/home/me/"}},
	{name: "PWD and OLDPWD", src: "echo ~+ ~+/x ~- ~-/x", want: []string{"echo", tmpMark, tmpMark + "/x", "/old", "/old/x"}},
	{name: "quoted stays", src: `echo "~" '~'/x \~ ~"/x"`, want: []string{"echo", "~", "~/x", "~", "~/x"}},
	{name: "not leading stays", src: "echo a~ x/~ --p=~ 1=~", want: []string{"echo", "a~", "x/~", "--p=~", "1=~"}},
	{name: "unknown user stays", src: "echo ~nosuchuser.zz/x", want: []string{"echo", "~nosuchuser.zz/x"}},
	{name: "assignment-shaped argument", src: "echo a=~/x b=x:~/y:~", want: []string{"echo", "a=/home/me/x", "b=x:/home/me/y:/home/me"}},
	{name: "assignment-shaped argument with an expansion", src: "echo a=~/$V", want: []string{"echo", "a=/home/me/v1"}},
	{name: "only after the first =", src: "echo a=b=~/x", want: []string{"echo", "a=b=~/x"}},
	{name: "HOME with spaces is one field", src: "echo ~/x", set: []string{"HOME=/h o"}, want: []string{"echo", "/h o/x"}},
	{name: "HOME empty", src: "echo ~/x", set: []string{"HOME="}, want: []string{"echo", "/x"}},
}

// TestExpandTildeUnset covers a tilde whose variable is unset: ~- stays
// as written, and ~ is the user's home from the system (bash asks the
// password database when HOME is unset).
func TestExpandTildeUnset(t *testing.T) {
	home, herr := os.UserHomeDir()
	for _, tt := range []struct {
		name, unset, src string
		want             []string
		bug              string
	}{
		{"OLDPWD", "OLDPWD", "echo ~- ~-/x", []string{"echo", "~-", "~-/x"}, ""},
		{"PWD is the directory", "PWD", "echo ~+", []string{"echo", tmpMark}, ""},
		{"HOME", "HOME", "echo ~", []string{"echo", home},
			"with HOME unset bash expands ~ to the user's home from the password database; chainrun leaves ~"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			skipBug(t, tt.bug)
			if herr != nil && tt.unset == "HOME" {
				t.Skip(herr)
			}
			sh := fixture(t)
			sh.Unset(tt.unset)
			plan, run := expandOne(t, sh, chain.POSIX, tt.src)
			tt.want = slices.Clone(tt.want)
			for i, w := range tt.want {
				tt.want[i] = strings.ReplaceAll(w, tmpMark, sh.Dir)
			}
			if !slices.Equal(plan.Args, tt.want) || !slices.Equal(run.Args, tt.want) {
				t.Errorf("plan %q, run %q, want %q", plan.Args, run.Args, tt.want)
			}
		})
	}
}

func TestExpandGlobs(t *testing.T) { runArgCases(t, globCases) }

var globCases = []argCase{
	{name: "star", src: "ls *.go", want: []string{"ls", "a.go", "b.go"}},
	{name: "all, sorted, no dotfiles", src: "ls *", want: []string{"ls", "a.go", "b.go", "c.txt", "sub"}},
	{name: "dotfiles need a dot", src: "ls .* .h*", want: []string{"ls", ".cfg", ".hidden.go", ".hidden.go"}},
	{name: "in a dot directory", src: "ls .cfg/* .cfg/.*", want: []string{"ls", ".cfg/y", ".cfg/.x"}},
	{name: "question mark", src: "ls ?.go", want: []string{"ls", "a.go", "b.go"}},
	{name: "bracket", src: "ls [ab].go [a-b].go", want: []string{"ls", "a.go", "b.go", "a.go", "b.go"}},
	{name: "negated bracket", src: "ls [!a].go [^a].go", want: []string{"ls", "b.go", "b.go"}},
	{name: "in a directory", src: "ls sub/*", want: []string{"ls", "sub/s.go", "sub/x y.txt"}},
	{name: "directories only", src: "ls */", want: []string{"ls", "sub/"}},
	{name: "a match with a space is one field", src: "ls sub/*.txt", want: []string{"ls", "sub/x y.txt"}},
	{name: "absolute", src: "ls " + tmpMark + "/*.txt", want: []string{"ls", tmpMark + "/c.txt"}},
	{name: "no match stays as written", src: `ls *.xyz "a b"*.xyz [z]`, want: []string{"ls", "*.xyz", "a b*.xyz", "[z]"}},
	{name: "quoted stays literal", src: `ls "*.go" '*'.go \*.go "?".go`, want: []string{"ls", "*.go", "*.go", "*.go", "?.go"}},
	{name: "unquoted variable globs", src: "ls $G", want: []string{"ls", "a.go", "b.go"}},
	{name: "quoted variable does not", src: `ls "$G"`, want: []string{"ls", "*.go"}},
	{name: "command word", src: "*.txt x", want: []string{"c.txt", "x"}},
	{name: "negated bracket does not match a leading dot", src: "ls [!a]*.go [^x]*", want: []string{"ls", "b.go", "a.go", "b.go", "c.txt", "sub"}},
	{name: "negated bracket in a dot directory", src: "ls .cfg/[!a]*", want: []string{"ls", ".cfg/y"}},
	{name: "dot component after a plain one", src: "ls .cfg/.* ./.c* sub/.*", want: []string{"ls", ".cfg/.x", "./.cfg", "sub/.*"}},
}

func TestExpandBraces(t *testing.T) { runArgCases(t, braceCases) }

var braceCases = []argCase{
	{name: "list", src: "echo {a,b} x{1,2}y", want: []string{"echo", "a", "b", "x1y", "x2y"}},
	{name: "ranges", src: "echo {1..3} {3..1} {a..c} {1..10..4}", want: []string{"echo", "1", "2", "3", "3", "2", "1", "a", "b", "c", "1", "5", "9"}},
	{name: "product", src: "echo {a,b}{1,2}", want: []string{"echo", "a1", "a2", "b1", "b2"}},
	{name: "nested", src: "echo {a,b{1,2}}", want: []string{"echo", "a", "b1", "b2"}},
	{name: "empty alternative with a prefix", src: "cp f{,.bak}", want: []string{"cp", "f", "f.bak"}},
	{name: "quoted alternative", src: `echo {a,'b c'}`, want: []string{"echo", "a", "b c"}},
	{name: "with a variable", src: "echo {$V,x}", want: []string{"echo", "v1", "x"}},
	{name: "then globs", src: "ls {a,b}.go {a,z}.go", want: []string{"ls", "a.go", "b.go", "a.go", "z.go"}},
	{name: "not braces", src: `echo {a} {} "{a,b}" \{a,b}`, want: []string{"echo", "{a}", "{}", "{a,b}", "{a,b}"}},
	{name: "command word", src: "{rm,-rf,x}", want: []string{"rm", "-rf", "x"}},
	{name: "an empty result is dropped", src: "echo {,a} {a,} x{,} {,''}", want: []string{"echo", "a", "a", "x", "x", ""}},
}

func TestExpandExport(t *testing.T) { runArgCases(t, exportCases) }

var exportCases = []argCase{
	{name: "value is not split", src: "export A=$X", want: []string{"export", "A=a  b"}},
	{name: "value is not globbed", src: "export A=*.go B=$G", want: []string{"export", "A=*.go", "B=*.go"}},
	{name: "value gets tildes", src: "export A=~/x P=~/a:~/b", want: []string{"export", "A=/home/me/x", "P=/home/me/a:/home/me/b"}},
	{name: "names and empty values", src: "export A B= C=$U", want: []string{"export", "A", "B=", "C="}},
	{name: "quoted assignment", src: `export "A=$X"`, want: []string{"export", "A=a  b"}},
	{name: "a plain word splits", src: "export $EXP", want: []string{"export", "A=1", "B=2"}},
	{name: "unset arguments expand", src: "unset $S V", want: []string{"unset", "sub", "V"}},
	{name: "quoted braces in a value", src: "export A='{a,b}'", want: []string{"export", "A={a,b}"}},
}

// assignCase expands one segment and compares its assignments.
type assignCase struct {
	name    string
	src     string
	args    []string
	assigns []string // NAME=value
	bug     string
}

func TestExpandAssigns(t *testing.T) {
	for _, tt := range assignCases {
		t.Run(tt.name, func(t *testing.T) {
			s := expandBoth(t, tt.src, tt.bug, tt.assigns, "assigns", assignStrings)
			if !slices.Equal(s.Args, tt.args) {
				t.Errorf("Args = %q, want %q", s.Args, tt.args)
			}
		})
	}
}

// expandBoth expands src's first segment through the plan and through
// Segment in the fixture and compares what project makes of each
// with want (tmpMark standing for the fixture's directory); it returns
// the run's segment for further checks.
func expandBoth(t *testing.T, src, bug string, want []string, what string, project func(*chain.Segment) []string) *chain.Segment {
	t.Helper()
	skipBug(t, bug)
	sh := fixture(t)
	plan, run := expandOne(t, sh, chain.POSIX, src)
	want = subst(sh.Dir, want)
	for _, s := range []*chain.Segment{plan, run} {
		if got := project(s); !slices.Equal(got, want) {
			t.Errorf("%s = %q, want %q", what, got, want)
		}
	}
	return run
}

func assignStrings(s *chain.Segment) []string {
	var out []string
	for _, a := range s.Assigns {
		out = append(out, a.Name+"="+a.Value)
	}
	return out
}

var assignCases = []assignCase{
	{name: "no splitting", src: "A=$X cmd", args: []string{"cmd"}, assigns: []string{"A=a  b"}},
	{name: "no globbing or braces", src: "A=*.go B={a,b} cmd", args: []string{"cmd"}, assigns: []string{"A=*.go", "B={a,b}"}},
	{name: "tilde", src: "A=~/x cmd", args: []string{"cmd"}, assigns: []string{"A=/home/me/x"}},
	{name: "tilde after colons", src: "PATH=~/a:~/b:x cmd", args: []string{"cmd"}, assigns: []string{"PATH=/home/me/a:/home/me/b:x"}},
	{name: "no tilde after a second =", src: "A=a=~/x cmd", args: []string{"cmd"}, assigns: []string{"A=a=~/x"}},
	{name: "each sees the ones before", src: "A=1 B=$A$V cmd", args: []string{"cmd"}, assigns: []string{"A=1", "B=1v1"}},
	{name: "the command's words see the old value", src: "X=new echo $X", args: []string{"echo", "a", "b"}, assigns: []string{"X=new"}},
	{name: "alone", src: "A=$V B=$((N+1))", args: nil, assigns: []string{"A=v1", "B=22"}},
	{name: "status and ANSI-C", src: `A=$? B=$'\t' cmd`, args: []string{"cmd"}, assigns: []string{"A=3", "B=\t"}},
	{name: "empty", src: `A= B="" C=$U cmd`, args: []string{"cmd"}, assigns: []string{"A=", "B=", "C="}},
	{name: "leading tilde ended by a colon", src: "A=~:x cmd", args: []string{"cmd"}, assigns: []string{"A=/home/me:x"}},
}

// redirCase expands one segment and compares its redirects, each written
// as fd, operator and target, or fd, operator and body for text.
type redirCase struct {
	name   string
	src    string
	redirs []string
	bug    string
}

func redirString(r chain.Redirect) string {
	s := fmt.Sprintf("%d%s", r.Fd, r.Op)
	switch {
	case r.Op.IsText():
		s += fmt.Sprintf("%q", r.Body)
	case r.Ambiguous:
		s += " ambiguous"
	default:
		s += r.Target
	}
	return s
}

func TestExpandRedirects(t *testing.T) {
	for _, tt := range redirCases {
		t.Run(tt.name, func(t *testing.T) {
			expandBoth(t, tt.src, tt.bug, tt.redirs, "redirects", func(s *chain.Segment) []string {
				var got []string
				for _, r := range s.Redirects {
					got = append(got, redirString(r))
				}
				return got
			})
		})
	}
}

var redirCases = []redirCase{
	{name: "variable target", src: "echo >$F 2>>$F.err", redirs: []string{"1>out.txt", "2>>out.txt.err"}},
	{name: "tilde target", src: "echo >~/x", redirs: []string{"1>/home/me/x"}},
	{name: "glob with one match", src: "cat <*.txt", redirs: []string{"0<c.txt"}},
	{name: "glob without a match", src: "echo >*.log", redirs: []string{"1>*.log"}},
	{name: "glob with two matches is ambiguous", src: "cat <*.go", redirs: []string{"0< ambiguous"}},
	{name: "split into two words is ambiguous", src: "echo >$X", redirs: []string{"1> ambiguous"}},
	{name: "unset is ambiguous", src: "echo >$U", redirs: []string{"1> ambiguous"}},
	{name: "quoted unset is an empty name", src: `echo >"$U"`, redirs: []string{"1>"}},
	{name: "quoted keeps spaces", src: `echo >"$X"`, redirs: []string{"1>a  b"}},
	{name: "here-string", src: "cat <<<$X", redirs: []string{`0<<<"a  b\n"`}},
	{name: "here-string quoted", src: `cat <<<"$X $U"`, redirs: []string{`0<<<"a  b \n"`}},
	{name: "here-string tilde, no glob, no braces", src: "cat <<<~/x 3<<<*.go 4<<<{a,b}",
		redirs: []string{`0<<<"/home/me/x\n"`, `3<<<"*.go\n"`, `4<<<"{a,b}\n"`}},
	{name: "here-string ANSI-C and arithmetic", src: `cat <<<$'a\tb'$((N+1))`, redirs: []string{`0<<<"a\tb22\n"`}},
	{name: "here-string tilde after a colon", src: "cat <<<x:~/y", redirs: []string{`0<<<"x:/home/me/y\n"`},
		bug: "bash expands a tilde after ':' in a here-string (x:/home/me/y); chainrun leaves x:~/y"},
}

func TestExpandHeredocs(t *testing.T) {
	for _, tt := range []redirCase{
		{name: "parameters", src: "cat <<EOF\n$X ${U:-d} $V\nEOF", redirs: []string{`0<<"a  b d v1\n"`}},
		{name: "arithmetic and status", src: "cat <<EOF\n$((N+1)) $?\nEOF", redirs: []string{`0<<"22 3\n"`}},
		{name: "escapes", src: "cat <<EOF\n\\$X \\\\ \\` \\t \"q\" 's'\nEOF", redirs: []string{"0<<\"$X \\\\ ` \\\\t \\\"q\\\" 's'\\n\""}},
		{name: "no tilde, glob or braces", src: "cat <<EOF\n~ *.go {a,b} $G\nEOF", redirs: []string{`0<<"~ *.go {a,b} *.go\n"`}},
		{name: "tabs stripped, expansions kept", src: "cat <<-EOF\n\t$X\n\t\tb\n\tEOF", redirs: []string{`0<<-"a  b\nb\n"`}},
		{name: "value holding tabs is not stripped", src: "cat <<-EOF\n\t$T\n\tEOF", redirs: []string{"0<<-\"x\\n\\ty\\n\""}},
		{name: "quoted delimiter stays literal", src: "cat <<'EOF'\n$X\nEOF", redirs: []string{`0<<"$X\n"`}},
		{name: "two bodies", src: "cat <<A 3<<B\n$V\nA\n$N\nB", redirs: []string{`0<<"v1\n"`, `3<<"21\n"`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sh := fixture(t)
			sh.Assign("T", "x\n\ty")
			plan, run := expandOne(t, sh, chain.POSIX, tt.src)
			for _, s := range []*chain.Segment{plan, run} {
				var got []string
				for _, r := range s.Redirects {
					got = append(got, redirString(r))
				}
				if !slices.Equal(got, tt.redirs) {
					t.Errorf("redirects = %q, want %q", got, tt.redirs)
				}
			}
		})
	}
}

// planCase plans a chain in the fixture and compares each segment's Args
// (a word known only at run time written as u(its source)) and, when dirs is set,
// the directory each segment was planned in ("" for unknown).
type planCase struct {
	name  string
	src   string
	want  [][]string
	dirs  []string
	bug   string
	posix string // the POSIX fact the case depends on: skipped on Windows
}

// skipPOSIX skips on Windows a case that depends on the POSIX fact named.
func skipPOSIX(t *testing.T, fact string) {
	t.Helper()
	if fact != "" && runtime.GOOS == "windows" {
		t.Skip("POSIX: " + fact)
	}
}

func TestChainExpandPlan(t *testing.T) {
	for _, tt := range planCases {
		t.Run(tt.name, func(t *testing.T) {
			skipBug(t, tt.bug)
			skipPOSIX(t, tt.posix)
			sh := fixture(t)
			segs := planSegments(t, sh, tt.src)
			if len(segs) != len(tt.want) {
				t.Fatalf("%d segments, want %d", len(segs), len(tt.want))
			}
			for i, s := range segs {
				checkPlanWords(t, s)
				if want := subst(sh.Dir, tt.want[i]); !slices.Equal(typedArgs(s), want) {
					t.Errorf("segment %d Args = %q, want %q", i, typedArgs(s), want)
				}
				if tt.dirs != nil && s.Dir != subst(sh.Dir, tt.dirs)[i] {
					t.Errorf("segment %d Dir = %q, want %q", i, s.Dir, subst(sh.Dir, tt.dirs)[i])
				}
			}
		})
	}
}

// planSegments plans src in sh and checks that sh is left as it was.
func planSegments(t *testing.T, sh *Shell, src string) []*chain.Segment {
	t.Helper()
	c, err := chain.ParseDialect(src, chain.POSIX)
	if err != nil {
		t.Fatalf("ParseDialect(%q): %v", src, err)
	}
	env, dir := slices.Clone(sh.Env), sh.Dir
	vars := fmt.Sprint(sh.Vars)
	p, err := Plan(c, sh)
	if err != nil {
		t.Fatalf("Plan(%q): %v", src, err)
	}
	if !slices.Equal(sh.Env, env) || sh.Dir != dir || fmt.Sprint(sh.Vars) != vars {
		t.Errorf("Plan changed its shell")
	}
	return p.Segments()
}

// u is how typedArgs shows a word known only at run time, written src.
func u(src string) string { return "⟨" + src + "⟩" }

// typedArgs is a segment's typed view (Segment.Argv) as strings: a word
// known only at run time as u(its text), nil for no arguments.
func typedArgs(s *chain.Segment) []string {
	var out []string
	for _, a := range s.Argv() {
		if a.Runtime {
			out = append(out, u(a.Text))
		} else {
			out = append(out, a.Text)
		}
	}
	return out
}

var planCases = []planCase{
	{name: "variable set earlier is known", src: "X=1; echo $X", want: [][]string{nil, {"echo", "1"}}},
	{name: "variables chain", src: "A=1; B=$A$A; echo $B", want: [][]string{nil, nil, {"echo", "11"}}},
	{name: "export earlier is known", src: `export A=$X; echo "$A"`, want: [][]string{{"export", "A=a  b"}, {"echo", "a  b"}}},
	{name: "unset earlier is known", src: "unset X; echo $X .", want: [][]string{{"unset", "X"}, {"echo", "."}}},
	{name: "IFS set earlier", src: "IFS=; echo $X", want: [][]string{nil, {"echo", "a  b"}}},
	{name: "set after && is runtime", src: "true && X=1; echo $X", want: [][]string{{"true"}, nil, {"echo", u("$X")}}},
	{name: "set after || is runtime", src: "false || X=1; echo $X $V", want: [][]string{{"false"}, nil, {"echo", u("$X"), "v1"}}},
	{name: "export after && is runtime", src: "true && export X=1; echo $X", want: [][]string{{"true"}, {"export", "X=1"}, {"echo", u("$X")}}},
	{name: "unknown variable in arithmetic", src: "true && N=1; echo $((N+1))", want: [][]string{{"true"}, nil, {"echo", u("$((N+1))")}}},
	{name: "prefix assignment is for the command only", src: "X=1 true; echo $X", want: [][]string{{"true"}, {"echo", "a", "b"}}},
	{name: "status in the first pipeline", src: "echo $? | cat $?", want: [][]string{{"echo", "3"}, {"cat", "3"}}},
	{name: "status after the first pipeline", src: "echo $?; echo $? x$?", want: [][]string{{"echo", "3"}, {"echo", u("$?"), u("x$?")}}},
	{name: "status after &&", src: "true && echo $?", want: [][]string{{"true"}, {"echo", u("$?")}}},
	{name: "cd then a relative glob", src: "cd sub; echo *", want: [][]string{{"cd", "sub"}, {"echo", "s.go", "x y.txt"}},
		dirs: []string{tmpMark, filepath.Join(tmpMark, "sub")}},
	{name: "cd then && then a glob", src: "cd $S && ls *.go", want: [][]string{{"cd", "sub"}, {"ls", "s.go"}},
		dirs: []string{tmpMark, filepath.Join(tmpMark, "sub")}},
	{name: "cd moves PWD and OLDPWD", src: "cd sub; echo $PWD $OLDPWD ~+ ~-",
		want: [][]string{{"cd", "sub"}, {"echo", filepath.Join(tmpMark, "sub"), tmpMark, filepath.Join(tmpMark, "sub"), tmpMark}}},
	{name: "cd to a missing directory", src: "cd nosuch; echo * $PWD", want: [][]string{{"cd", "nosuch"}, {"echo", u("*"), u("$PWD")}},
		dirs: []string{tmpMark, ""}},
	{name: "cd after && is runtime", src: "true && cd sub; echo *", want: [][]string{{"true"}, {"cd", "sub"}, {"echo", u("*")}},
		dirs: []string{tmpMark, tmpMark, ""}},
	// After "a && cd x", what runs through && runs only if cd ran and
	// succeeded: its directory is x. "||" or ";" end that: the pipeline
	// after them may run where the cd never did.
	{name: "cd after && gates what follows with &&", src: "true && cd sub && ls *.go && echo $PWD",
		want: [][]string{{"true"}, {"cd", "sub"}, {"ls", "s.go"}, {"echo", filepath.Join(tmpMark, "sub")}},
		dirs: []string{tmpMark, tmpMark, filepath.Join(tmpMark, "sub"), filepath.Join(tmpMark, "sub")}},
	{name: "|| after a gated cd is runtime", src: "true && cd sub || echo $PWD",
		want: [][]string{{"true"}, {"cd", "sub"}, {"echo", u("$PWD")}}, dirs: []string{tmpMark, tmpMark, ""}},
	{name: "a cd skipped by || leaves && after it runtime", src: "true || cd sub && echo $PWD",
		want: [][]string{{"true"}, {"cd", "sub"}, {"echo", u("$PWD")}}, dirs: []string{tmpMark, tmpMark, ""}},
	{name: "; after a gated cd is runtime", src: "true && cd sub && true; echo $PWD",
		want: [][]string{{"true"}, {"cd", "sub"}, {"true"}, {"echo", u("$PWD")}}, dirs: []string{tmpMark, tmpMark, filepath.Join(tmpMark, "sub"), ""}},
	{name: "a gated run starts again after ;", src: "true; true && cd sub && echo $PWD",
		want: [][]string{{"true"}, {"true"}, {"cd", "sub"}, {"echo", filepath.Join(tmpMark, "sub")}}, dirs: []string{tmpMark, tmpMark, tmpMark, filepath.Join(tmpMark, "sub")}},
	{name: "an assignment after && holds for what follows with &&", src: "true && X=1 && echo $X; echo $X",
		want: [][]string{{"true"}, nil, {"echo", "1"}, {"echo", u("$X")}}},
	{name: "glob after a program", src: "ls; echo *.go", want: [][]string{{"ls"}, {"echo", u("*.go")}}},
	{name: "glob in the stage after a program", src: "ls | echo *.go", want: [][]string{{"ls"}, {"echo", u("*.go")}}},
	{name: "glob after a built-in", src: "echo x; echo *.go", want: [][]string{{"echo", "x"}, {"echo", "a.go", "b.go"}}},
	{name: "glob after a redirect to a file", src: "echo x >f; echo *.go", want: [][]string{{"echo", "x"}, {"echo", u("*.go")}}},
	{name: "glob after a dup and an input", src: "echo x 2>&1 <c.txt; echo *.go", want: [][]string{{"echo", "x"}, {"echo", "a.go", "b.go"}}},
	{name: "stage assignment does not outlive the stage", src: "X=1 | true; echo $X", want: [][]string{nil, {"true"}, {"echo", "a", "b"}}},
	{name: "stage export does not outlive the stage", src: `export X=1 | true; echo "$X"`, want: [][]string{{"export", "X=1"}, {"true"}, {"echo", "a  b"}}},
	{name: "stage cd does not outlive the stage", src: "cd sub | true; echo *.go $PWD", want: [][]string{{"cd", "sub"}, {"true"}, {"echo", "a.go", "b.go", tmpMark}},
		dirs: []string{tmpMark, tmpMark, tmpMark}},
	{name: "stage sees the assignment before the pipeline", src: "X=1; echo $X | cat", want: [][]string{nil, {"echo", "1"}, {"cat"}}},
	{name: "command word expands to a built-in", src: "C=cd; $C sub; echo *", want: [][]string{nil, {"cd", "sub"}, {"echo", "s.go", "x y.txt"}}},
	{name: "failed expansion is runtime, later ones known", src: "echo $((1/0)); echo $V", want: [][]string{{"echo", u("$((1/0))")}, {"echo", "v1"}}},
	{name: "export of an unknown value makes the name unknown", src: "true && U=1; export A=$U; echo $A",
		want: [][]string{{"true"}, nil, {"export", u("A=$U")}, {"echo", u("$A")}}},
	{name: "unset of an unknown name makes every name unknown", src: "true && U=X; unset $U; echo $X",
		want: [][]string{{"true"}, nil, {"unset", u("$U")}, {"echo", u("$X")}}},
	{name: "cd through a missing directory fails", src: "cd missing/..; echo $OLDPWD", want: [][]string{{"cd", "missing/.."}, {"echo", u("$OLDPWD")}},
		posix: "the kernel walks missing/.. element by element (Windows removes .. before it looks)"},
}

// TestPlanWrites: with Writes, globs after a program that writes no
// files are known when the plan is made; after one that may, after one
// with a word known only at run time, or after a redirect to a file, only
// when they run.
func TestPlanWrites(t *testing.T) {
	writes := func(argv []string) bool { return argv[0] != "ls" }
	for _, tt := range []struct {
		src  string
		want []string
	}{
		{"ls; echo *.go", []string{"echo", "a.go", "b.go"}},
		{"ls | echo *.go", []string{"echo", "a.go", "b.go"}},
		{"touch x.go; echo *.go", []string{"echo", u("*.go")}},
		{"ls $((1/0)); echo *.go", []string{"echo", u("*.go")}},
		{"ls >f; echo *.go", []string{"echo", u("*.go")}},
	} {
		sh := fixture(t)
		sh.Writes = writes
		segs := planSegments(t, sh, tt.src)
		if got := typedArgs(segs[len(segs)-1]); !slices.Equal(got, tt.want) {
			t.Errorf("%q: last segment %q, want %q", tt.src, got, tt.want)
		}
	}
}

// TestPlanAssignsSeeUnknown: an assignment reading an earlier assignment
// of the same segment whose value is unknown is unknown too.
func TestPlanAssignsSeeUnknown(t *testing.T) {
	sh := fixture(t)
	segs := planSegments(t, sh, "true && U=1; X=$U Y=a$X cmd")
	got := segs[2].Assigns
	if len(got) != 2 || !got[0].Runtime || !got[1].Runtime {
		t.Errorf("assigns %+v, want both unknown", got)
	}
}

// TestPlanCdPhysical: cd -P resolves symbolic links, so the directory the
// plan follows is the link's target.
func TestPlanCdPhysical(t *testing.T) {
	sh := fixture(t)
	if err := os.Symlink("sub", filepath.Join(sh.Dir, "lnk")); err != nil {
		t.Skip(err)
	}
	segs := planSegments(t, sh, "cd -P lnk; echo $PWD")
	want := filepath.Join(sh.Dir, "sub")
	if got := segs[1].Args; len(got) != 2 || (got[1] != want && !segs[1].ArgRuntime(1)) {
		t.Errorf("Args = %q, want $PWD %q or unknown", got, want)
	}
}

// unsupportedCases are expansions chainrun refuses when it knows their
// value: by the plan when it knows it then (planSeg), else by
// Segment of the last segment, in the shell after late is set.
var unsupportedCases = []struct {
	name, src string
	set, late []string
	planSeg   int // the segment the plan refuses; -1: the plan accepts
	msg       string
	bug       string
}{
	{name: "eval from a shell variable", src: "$EV x", msg: "shell built-in chainrun does not run"},
	{name: "source from an assignment", src: "C=source; $C f", planSeg: 1, msg: "shell built-in chainrun does not run"},
	{name: "dot from a default", src: "echo; ${U:-.} f", planSeg: 1, msg: "shell built-in chainrun does not run"},
	{name: "eval unknown when planned", src: "true && C=eval; $C x", late: []string{"C=eval"}, planSeg: -1, msg: "shell built-in chainrun does not run"},
	{name: "IFS with other characters than blanks", src: "echo $P", set: []string{"IFS=:", "P=a:b"}, msg: "splits unquoted expansions by rules chainrun does not follow"},
	{name: "IFS set earlier in the chain", src: "IFS=,; echo $X", planSeg: 1, msg: `IFS=","`},
	{name: "arithmetic on a name whose value is not a number", src: "echo $((V+1))", msg: `reads V="v1", which is not a number`},
	{name: "arithmetic on an expression value", src: "echo $(($P*2))", set: []string{"P=1+2"}, msg: "compute it in one $((…))"},
	{name: "arithmetic on a value set earlier", src: "P=08; echo $((P))", planSeg: 1, msg: `P="08"`},
	{name: "arithmetic on an operand with an operator", src: "echo $((${P:-0}*2))", set: []string{"P=1+2"}, msg: "not a number"},
}

func TestExpandUnsupported(t *testing.T) {
	for _, tt := range unsupportedCases {
		t.Run(tt.name, func(t *testing.T) {
			skipBug(t, tt.bug)
			sh := fixture(t)
			setVars(sh, tt.set)
			c, err := chain.ParseDialect(tt.src, chain.POSIX)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Plan(c, sh)
			segs := c.Segments()
			if tt.planSeg >= 0 {
				checkUnsupported(t, "plan", err, tt.planSeg, tt.msg)
				if len(segs) > 1 {
					return
				}
			} else if err != nil {
				t.Fatalf("plan: %v", err)
			}
			setVars(sh, tt.late)
			last := segs[len(segs)-1]
			_, err = Segment(last, sh)
			checkUnsupported(t, "Segment", err, last.Index, tt.msg)
		})
	}
}

func checkUnsupported(t *testing.T, by string, err error, seg int, msg string) {
	t.Helper()
	var ee *Error
	if !errors.As(err, &ee) {
		t.Fatalf("%s: got %v, want an *Error", by, err)
	}
	if ee.Kind != chain.KindUnsupported || chain.KindOf(err) != chain.KindUnsupported || ee.Segment != seg {
		t.Errorf("%s: got %s in segment %d (%v), want %s in segment %d", by, ee.Kind, ee.Segment, err, chain.KindUnsupported, seg)
	}
	if !strings.Contains(ee.Error(), msg) {
		t.Errorf("%s: message %q lacks %q", by, ee.Error(), msg)
	}
}

// TestError: an expansion bash cannot do either fails the segment
// when it is about to start, with the offset of the word.
func TestError(t *testing.T) {
	for _, tt := range []struct {
		src    string
		offset int
		msg    string
	}{
		{"echo x $((1/0))", 7, "division by"},
		{"echo $((5%0))", 5, "division by"},
		{"A=$((1/0)) cmd", 0, "division by"},
		{"cat <<<$((2**-1))", 7, "exponent less than 0"},
		{"echo >$((1/0))", 5, "division by"},
	} {
		t.Run(tt.src, func(t *testing.T) {
			sh := fixture(t)
			c, err := chain.ParseDialect(tt.src, chain.POSIX)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Plan(c, sh); err != nil {
				t.Fatalf("the plan leaves the failure to the run: %v", err)
			}
			_, err = Segment(c.Segments()[0], sh)
			var ee *Error
			if !errors.As(err, &ee) || chain.KindOf(err) != chain.KindExpansion {
				t.Fatalf("got %v, want a %s *Error", err, chain.KindExpansion)
			}
			if ee.Offset != tt.offset || !strings.Contains(ee.Error(), tt.msg) {
				t.Errorf("got %q at %d, want %q at %d", ee.Error(), ee.Offset, tt.msg, tt.offset)
			}
		})
	}
}

// TestExpandUnchanged: a segment without expansions is its own expansion.
func TestExpandUnchanged(t *testing.T) {
	c, err := chain.ParseDialect(`git log --grep='$X' "*.go" >out`, chain.POSIX)
	if err != nil {
		t.Fatal(err)
	}
	s := c.Segments()[0]
	if s.HasExpansions() {
		t.Fatal("HasExpansions is true for a literal segment")
	}
	if e, err := Segment(s, fixture(t)); err != nil || e != s {
		t.Errorf("Expand = %p, %v; want the segment itself", e, err)
	}
}

// formerRefusal is an input chainrun refused before it expanded words,
// with the plan it has now in the fixture.
type formerRefusal struct {
	name    string
	src     string
	dialect chain.Dialect // "" for both
	want    [][]string
	assigns []string // every segment's, in order
	bodies  []string // every heredoc and here-string body, in order
	bug     string
	posix   string // the POSIX fact the case depends on: skipped on Windows
}

// globOr returns the matches of an absolute pattern, or the pattern when
// none match, as bash does.
func globOr(pattern string) []string {
	m, err := filepath.Glob(pattern)
	if err != nil || len(m) == 0 {
		return []string{pattern}
	}
	return m
}

var formerRefusals = []formerRefusal{
	{name: "arithmetic", src: "echo $((1+2)) $[1+2]", want: [][]string{{"echo", "3", "3"}}},
	{name: "parameter", src: "echo $HOME", want: [][]string{{"echo", "/home/me"}}},
	{name: "unset in double quotes", src: `echo "$x"`, want: [][]string{{"echo", ""}}},
	{name: "parameter after a line continuation", src: "echo $\\\nHOME", want: [][]string{{"echo", "/home/me"}}},
	{name: "ANSI-C", src: `echo $'\x72m'`, want: [][]string{{"echo", "rm"}}},
	{name: "glob", src: "ls *.go", want: [][]string{{"ls", "a.go", "b.go"}}},
	{name: "absolute glob", src: "/bin/r?", want: [][]string{globOr("/bin/r?")},
		posix: "/bin/r? is absolute (on Windows it is on the fixture's drive, which need not be the test's)"},
	{name: "braces", src: "echo {a,b} x{1..3} {a,'b'}", want: [][]string{{"echo", "a", "b", "x1", "x2", "x3", "a", "b"}}},
	{name: "braces as the command", src: "{rm,-rf,x}", want: [][]string{{"rm", "-rf", "x"}}},
	{name: "tilde", src: "cd ~; cat ~/.ssh/id_rsa", want: [][]string{{"cd", "/home/me"}, {"cat", "/home/me/.ssh/id_rsa"}}},
	{name: "tilde in assignment-shaped arguments", src: "echo a=~/x PATH=x:~/bin", want: [][]string{{"echo", "a=/home/me/x", "PATH=x:/home/me/bin"}}},
	{name: "tilde in an assignment", src: "A=~/x cmd", want: [][]string{{"cmd"}}, assigns: []string{"A=/home/me/x"}},
	{name: "export", src: "export A=1 && git log", want: [][]string{{"export", "A=1"}, {"git", "log"}}},
	{name: "unset", src: "unset A", want: [][]string{{"unset", "A"}}},
	{name: "bare assignment", src: "A=1", want: [][]string{nil}, assigns: []string{"A=1"}},
	{name: "parameters on a second line", src: "a\n  b $x", want: [][]string{{"a"}, {"b"}}},
	{name: "heredoc parameter", src: "cat <<EOF\na $x\nEOF", want: [][]string{{"cat"}}, bodies: []string{"a \n"}},
	{name: "heredoc backslash", src: "cat <<END\na\\tb\nEND", want: [][]string{{"cat"}}, bodies: []string{"a\\tb\n"}},
	{name: "second heredoc", src: "c <<'A' 3<<B\na\nA\n$b\nB", want: [][]string{{"c"}}, bodies: []string{"a\n", "\n"}},
	{name: "here-strings", src: `cat <<< $x; cat <<< $HOME; cat <<< "a $b"; cat <<< ~/x; cat <<< $'a'`,
		want: [][]string{{"cat"}, {"cat"}, {"cat"}, {"cat"}, {"cat"}}, bodies: []string{"\n", "/home/me\n", "a \n", "/home/me/x\n", "a\n"}},
	{name: "backslash before a glob, windows", src: `copy a\*.txt b`, dialect: chain.Windows, want: [][]string{{"copy", `a\*.txt`, "b"}}},
	{name: "backslash before a glob, posix", src: `copy a\*.txt b`, dialect: chain.POSIX, want: [][]string{{"copy", "a*.txt", "b"}}},
	{name: "IFS", src: "cat${IFS}/etc/passwd", want: [][]string{{"cat", "/etc/passwd"}}},
}

func TestFormerRefusalsAccepted(t *testing.T) {
	for _, tt := range formerRefusals {
		for _, d := range []chain.Dialect{chain.POSIX, chain.Windows} {
			if tt.dialect != "" && tt.dialect != d {
				continue
			}
			t.Run(tt.name+"/"+string(d), func(t *testing.T) {
				if tt.bug != "" {
					skipBug(t, tt.bug)
				}
				skipPOSIX(t, tt.posix)
				sh := fixture(t)
				c, err := chain.ParseDialect(tt.src, d)
				if err != nil {
					t.Fatalf("still refused: %v", err)
				}
				p, err := Plan(c, sh)
				if err != nil {
					t.Fatalf("Plan: %v", err)
				}
				checkFormerPlan(t, p, tt)
			})
		}
	}
}

func checkFormerPlan(t *testing.T, p *chain.Chain, tt formerRefusal) {
	t.Helper()
	var assigns, bodies []string
	if got := argvs(p); !slicesEqual2(got, tt.want) {
		t.Errorf("plan = %q, want %q", got, tt.want)
	}
	for _, s := range p.Segments() {
		checkPlanWords(t, s)
		assigns = append(assigns, assignStrings(s)...)
		for _, r := range s.Redirects {
			if r.Op.IsText() {
				bodies = append(bodies, r.Body)
			}
		}
	}
	if !slices.Equal(assigns, tt.assigns) {
		t.Errorf("assigns = %q, want %q", assigns, tt.assigns)
	}
	if !slices.Equal(bodies, tt.bodies) {
		t.Errorf("bodies = %q, want %q", bodies, tt.bodies)
	}
}

// slicesEqual2 compares argvs, a nil argv equal to an empty one.
func slicesEqual2(a, b [][]string) bool {
	return slices.EqualFunc(a, b, func(x, y []string) bool { return slices.Equal(x, y) })
}

// TestGlobBaseIsShellDir: globs are relative to the shell's directory,
// as bash's are relative to its working directory, whatever $PWD says.
func TestGlobBaseIsShellDir(t *testing.T) {
	for _, tt := range []struct {
		name string
		pwd  func(sh *Shell, other string)
		bug  string
	}{
		{"PWD unset", func(sh *Shell, _ string) { sh.Unset("PWD") }, ""},
		{"PWD elsewhere", func(sh *Shell, other string) { sh.Assign("PWD", other) },
			"mvdan's expansion globs relative to $PWD (FieldsSeq reads PWD), not Shell.Dir: with PWD naming another directory it lists that one (the engine always sets PWD to the chain's directory)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			skipBug(t, tt.bug)
			sh := fixture(t)
			other := testprog.TempDir(t)
			testprog.MakeTree(t, other, "z.go")
			tt.pwd(sh, other)
			plan, run := expandOne(t, sh, chain.POSIX, "echo *.go")
			want := []string{"echo", "a.go", "b.go"}
			if !slices.Equal(plan.Args, want) || !slices.Equal(run.Args, want) {
				t.Errorf("plan %q, run %q, want %q", plan.Args, run.Args, want)
			}
		})
	}
}

// argvs returns each segment's argv.
func argvs(c *chain.Chain) [][]string {
	var out [][]string
	for _, s := range c.Segments() {
		out = append(out, s.Args)
	}
	return out
}
