package chain

import (
	"errors"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// argvs returns each segment's argv.
func argvs(c *Chain) [][]string {
	var out [][]string
	for _, s := range c.Segments() {
		out = append(out, s.Args)
	}
	return out
}

func TestParseAccepted(t *testing.T) {
	tests := []struct {
		name    string
		dialect Dialect
		in      string
		argv    [][]string
		ops     []Op
	}{
		{"pipeline", POSIX, "seq 10 | grep 5", [][]string{{"seq", "10"}, {"grep", "5"}}, []Op{OpPipe}},
		{"and glued", POSIX, "a&&b", [][]string{{"a"}, {"b"}}, []Op{OpAnd}},
		{"semicolon glued", POSIX, "echo a;b", [][]string{{"echo", "a"}, {"b"}}, []Op{OpSeq}},
		{"pipe glued", POSIX, "x|y", [][]string{{"x"}, {"y"}}, []Op{OpPipe}},
		{"or", POSIX, "a || b", [][]string{{"a"}, {"b"}}, []Op{OpOr}},
		{"newline is ;", POSIX, "a\nb", [][]string{{"a"}, {"b"}}, []Op{OpSeq}},
		{"trailing ;", POSIX, "a;", [][]string{{"a"}}, nil},
		{"precedence", POSIX, "a && b | c || d ; e", [][]string{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}},
			[]Op{OpAnd, OpPipe, OpOr, OpSeq}},
		{"single quotes", POSIX, `echo 'a b' 'c\d' '"'`, [][]string{{"echo", "a b", `c\d`, `"`}}, nil},
		{"double quotes posix", POSIX, `echo "a\"b" "c\\d" "e\f" "\$x" "\` + "`" + `"`,
			[][]string{{"echo", `a"b`, `c\d`, `e\f`, `$x`, "`"}}, nil},
		{"backslash escapes", POSIX, `echo a\ b \"q \\ \x`, [][]string{{"echo", "a b", `"q`, `\`, "x"}}, nil},
		{"line continuation", POSIX, "ec\\\nho a\\\nb \"c\\\nd\"", [][]string{{"echo", "ab", "cd"}}, nil},
		{"continuation between words", POSIX, "echo a \\\n b", [][]string{{"echo", "a", "b"}}, nil},
		{"adjacent parts", POSIX, `echo a'b'"c"d`, [][]string{{"echo", "abcd"}}, nil},
		{"empty args", POSIX, `printf '%s|' "" '' x`, [][]string{{"printf", "%s|", "", "", "x"}}, nil},
		{"comment", POSIX, "echo a # b c", [][]string{{"echo", "a"}}, nil},
		{"comment ending in a backslash", POSIX, "echo a # c\\\necho b", [][]string{{"echo", "a"}, {"echo", "b"}}, []Op{OpSeq}},
		{"two such comments", POSIX, "a # x\\\nb # y\\\nc", [][]string{{"a"}, {"b"}, {"c"}}, []Op{OpSeq, OpSeq}},
		{"quoted hash then backslash", POSIX, "echo '#' a\\\nb", [][]string{{"echo", "#", "ab"}}, nil},
		{"hash inside word", POSIX, "echo a#b #c", [][]string{{"echo", "a#b"}}, nil},
		{"dollar alone", POSIX, `echo $ a$ "$"`, [][]string{{"echo", "$", "a$", "$"}}, nil},
		{"quoted glob", POSIX, `ls '*.go' "a?" \*`, [][]string{{"ls", "*.go", "a?", "*"}}, nil},
		{"lone bracket", POSIX, "[ -f x ]", [][]string{{"[", "-f", "x", "]"}}, nil},
		{"braces without comma", POSIX, "find . -exec rm {} ;", [][]string{{"find", ".", "-exec", "rm", "{}"}}, nil},
		{"quoted tilde", POSIX, `echo '~' "~/x" a~b --p=~`, [][]string{{"echo", "~", "~/x", "a~b", "--p=~"}}, nil},
		{"unicode", POSIX, "echo héllo '日本'", [][]string{{"echo", "héllo", "日本"}}, nil},
		{"tabs", POSIX, "echo\ta\t'b\tc'", [][]string{{"echo", "a", "b\tc"}}, nil},
		{"newline in quotes", POSIX, "git commit -m 'a\nb'", [][]string{{"git", "commit", "-m", "a\nb"}}, nil},
		{"reserved word as arg", POSIX, "echo if then fi", [][]string{{"echo", "if", "then", "fi"}}, nil},
		{"windows path", Windows, `dir C:\Users\me\src`, [][]string{{"dir", `C:\Users\me\src`}}, nil},
		{"windows unc", Windows, `type \\server\share\f.txt | findstr x`,
			[][]string{{"type", `\\server\share\f.txt`}, {"findstr", "x"}}, []Op{OpPipe}},
		{"windows escapes", Windows, `echo a\ b a\|b \$x \"q`, [][]string{{"echo", "a b", "a|b", "$x", `"q`}}, nil},
		{"windows double quotes", Windows, `echo "a\\b" "q\"x" "\$y"`, [][]string{{"echo", `a\\b`, `q"x`, "$y"}}, nil},
		{"windows continuation", Windows, "echo a \\\n b", [][]string{{"echo", "a", "b"}}, nil},
		{"windows single quotes", Windows, `echo 'C:\'`, [][]string{{"echo", `C:\`}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseDialect(tt.in, tt.dialect)
			if err != nil {
				t.Fatalf("ParseDialect(%q): %v", tt.in, err)
			}
			if got := argvs(c); !reflect.DeepEqual(got, tt.argv) {
				t.Errorf("argv = %q, want %q", got, tt.argv)
			}
			if got := c.SegmentOps(); !reflect.DeepEqual(got, tt.ops) {
				t.Errorf("ops = %q, want %q", got, tt.ops)
			}
			checkSpans(t, c)
		})
	}
}

// checkSpans asserts every span lies inside the source and segments come
// in order.
func checkSpans(t *testing.T, c *Chain) {
	t.Helper()
	prev := 0
	for _, s := range c.Segments() {
		if s.Span.Start < prev || s.Span.End > len(c.Source) || s.Span.Start >= s.Span.End {
			t.Fatalf("segment %d span %v outside [%d,%d]", s.Index, s.Span, prev, len(c.Source))
		}
		if s.Text != c.Source[s.Span.Start:s.Span.End] {
			t.Fatalf("segment %d text %q != source span", s.Index, s.Text)
		}
		for _, r := range s.Redirects {
			if r.Span.Start < 0 || r.Span.End > len(c.Source) || r.Span.Start > r.Span.End {
				t.Fatalf("redirect span %v outside the source", r.Span)
			}
		}
		prev = s.Span.End
	}
}

func TestParseAssignsAndBuiltins(t *testing.T) {
	c, err := ParseDialect(`A=1 B="x y" C= go test ./... ; cd /tmp && pwd | echo -n x ; true ; false || exit 3`, POSIX)
	if err != nil {
		t.Fatal(err)
	}
	segs := c.Segments()
	if got := segs[0].Env(); !reflect.DeepEqual(got, map[string]string{"A": "1", "B": "x y", "C": ""}) {
		t.Errorf("env = %v", got)
	}
	want := []Builtin{"", BuiltinCd, BuiltinPwd, BuiltinEcho, BuiltinTrue, BuiltinFalse, BuiltinExit}
	for i, s := range segs {
		if s.Builtin != want[i] {
			t.Errorf("segment %d %q builtin = %q, want %q", i, s.Text, s.Builtin, want[i])
		}
	}
	w, err := ParseDialect("ECHO hi", Windows)
	if err != nil || w.Segments()[0].Builtin != BuiltinEcho {
		t.Errorf("windows dialect: ECHO should be the echo built-in, got %v %v", w, err)
	}
	p, err := ParseDialect("ECHO hi", POSIX)
	if err != nil || p.Segments()[0].IsBuiltin() {
		t.Errorf("posix dialect: ECHO is a program, not the built-in")
	}
}

func TestParseRedirects(t *testing.T) {
	r := func(fd int, op RedirOp, target string) Redirect { return Redirect{Fd: fd, Op: op, Target: target} }
	tests := []struct {
		in   string
		want []Redirect
	}{
		{"c >f", []Redirect{r(1, RedirOut, "f")}},
		{"c >|f", []Redirect{r(1, RedirOut, "f")}},
		{"c >>f", []Redirect{r(1, RedirAppend, "f")}},
		{"c <f", []Redirect{r(0, RedirIn, "f")}},
		{"c 2>f", []Redirect{r(2, RedirOut, "f")}},
		{"c 2>>f", []Redirect{r(2, RedirAppend, "f")}},
		{"c 2>&1", []Redirect{r(2, RedirDupOut, "1")}},
		{"c >&2", []Redirect{r(1, RedirDupOut, "2")}},
		{"c 3<&0", []Redirect{r(3, RedirDupIn, "0")}},
		{"c <&3", []Redirect{r(0, RedirDupIn, "3")}},
		{"c &>f", []Redirect{r(1, RedirBoth, "f")}},
		{"c &>>f", []Redirect{r(1, RedirBothAppend, "f")}},
		{"c >&f", []Redirect{r(1, RedirBoth, "f")}},
		{"c >f 2>&1", []Redirect{r(1, RedirOut, "f"), r(2, RedirDupOut, "1")}},
		{"c 2>&1 >f", []Redirect{r(2, RedirDupOut, "1"), r(1, RedirOut, "f")}},
		{">f c", []Redirect{r(1, RedirOut, "f")}},
		{"c > 'a b'", []Redirect{r(1, RedirOut, "a b")}},
		{"c 3>&1 1>&2 2>&3", []Redirect{r(3, RedirDupOut, "1"), r(1, RedirDupOut, "2"), r(2, RedirDupOut, "3")}},
		{"c 2>/dev/null", []Redirect{r(2, RedirOut, "/dev/null")}},
	}
	for _, tt := range tests {
		c, err := ParseDialect(tt.in, POSIX)
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		got := c.Segments()[0].Redirects
		for i := range got {
			got[i].Span = Span{}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: redirects = %+v, want %+v", tt.in, got, tt.want)
		}
	}
	c, err := ParseDialect("a 2>/dev/null |& b", POSIX)
	if err != nil {
		t.Fatal(err)
	}
	last := c.Segments()[0].Redirects[1]
	if last.Fd != 2 || last.Op != RedirDupOut || last.Target != "1" || !last.Implicit {
		t.Errorf("|& should append an implicit 2>&1 after the stage's redirects, got %+v", c.Segments()[0].Redirects)
	}
}

// parseRefusals are inputs refused in both dialects, with the kind,
// construct and offset of the refusal.
var parseRefusals = []struct {
	in        string
	kind      ErrorKind
	construct string
	offset    int
}{
	{"echo ${X:-$(id)}", KindUnsupported, "command substitution", 10},
	{"echo $()", KindUnsupported, "command substitution", 5},
	{"echo $(< f &)", KindUnsupported, "background", 11},
	{"echo `echo \\$HOME`", KindUnsupported, "command substitution", 5},
	{`echo "x $(a & b)"`, KindUnsupported, "background", 12},
	{"x=$(echo $(source a))", KindUnsupported, "shell built-in", 11},
	{"cat < $(ls **)", KindUnsupported, "glob", 11},
	{"diff <() b", KindUnsupported, "process substitution", 5},
	{"a > >(eval x)", KindUnsupported, "shell built-in", 6},
	{"echo x$\\\n\\\n{A}", KindUnsupported, "parameter expansion", 6},
	{`echo $"x"`, KindUnsupported, "locale quoting", 5},
	{"cat <<EOF", KindUnsupported, "heredoc", 4},
	{"make && make test &", KindUnsupported, "background", 18},
	{"select x in a; do y; done", KindUnsupported, "control flow", 0},
	{"f() { a; b; }", KindUnsupported, "control flow", 0},
	{"(( x > 1 ))", KindUnsupported, "control flow", 0},
	{"for i; do x; done", KindUnsupported, "control flow", 0},
	{"case x in $(a)) y;; esac", KindUnsupported, "control flow", 10},
	{"select x in a; do y; done", KindUnsupported, "control flow", 0},
	{"f() { x; }", KindUnsupported, "control flow", 0},
	{"function f { x; }", KindUnsupported, "control flow", 0},
	{"[[ -f x ]]", KindUnsupported, "control flow", 0},
	{"(( x = 1 ))", KindUnsupported, "control flow", 0},
	{"r[m] x", KindUnsupported, "glob", 1},
	{"coproc x", KindUnsupported, "coprocess", 0},
	{"echo $env:PATH", KindUnsupported, "PowerShell syntax", 5},
	{"echo @'x'@", KindUnsupported, "PowerShell syntax", 5},
	{`echo @"x"@`, KindUnsupported, "PowerShell syntax", 5},
	{"eval x", KindUnsupported, "shell built-in", 0},
	{"source x", KindUnsupported, "shell built-in", 0},
	{". x", KindUnsupported, "shell built-in", 0},
	{"exec x", KindUnsupported, "shell built-in", 0},
	{"set -k a", KindUnsupported, "set option", 0},
	{"echo $1; set -- a", KindUnsupported, "special parameter", 5},
	{"set -- a \"$1\"", KindUnsupported, "special parameter", 10},
	{"echo a; set -v", KindUnsupported, "set option", 8},
	{"set -o vi", KindUnsupported, "set option", 0},
	{"true && command -p ls", KindUnsupported, "command -p", 8},
	{"command cd /", KindUnsupported, "command", 0},
	{"command eval ls", KindUnsupported, "command", 0},
	{"command export X=1", KindUnsupported, "command", 0},
	{"alias ls=rm", KindUnsupported, "shell built-in", 0},
	{"trap x EXIT", KindUnsupported, "shell built-in", 0},
	{"declare -x A=1", KindUnsupported, "shell built-in", 0},
	{"local x", KindUnsupported, "shell built-in", 0},
	{"read -a x", KindUnsupported, "read option", 0},
	{"echo a && read -t 1 x", KindUnsupported, "read option", 10},
	{"true && 'eval' x", KindUnsupported, "shell built-in", 8},
	{"time", KindUnsupported, "time", 0},
	{"time -p", KindUnsupported, "time", 0},
	{"ls && time", KindUnsupported, "time", 6},
	{"time -- ls", KindUnsupported, "time", 5},
	{"time time ls", KindUnsupported, "time", 5},
	{"time ls &", KindUnsupported, "background", 8},
	{"a | time b | c", KindUnsupported, "time", 4},
	{"a | time x=1 b", KindUnsupported, "time", 9},
	{">f", KindUnsupported, "redirect without a command", 0},
	{"a && && b", KindSyntax, "empty segment", 2},
	{"| a", KindSyntax, "empty segment", 0},
	{"a |", KindSyntax, "empty segment", 2},
	{"a &&", KindSyntax, "empty segment", 2},
	{"a ;; b", KindSyntax, "syntax", 2},
	{";", KindSyntax, "empty segment", 0},
	{"", KindSyntax, "empty command", 0},
	{"  # only a comment", KindSyntax, "empty command", 0},
	{"echo 'x", KindSyntax, "unterminated quote", 5},
	{`echo "x`, KindSyntax, "unterminated quote", 5},
	{"echo >&-", KindUnsupported, "redirect", 5},
	{"echo 2>&1-", KindUnsupported, "redirect", 5},
	{"echo 10>f", KindUnsupported, "redirect", 5},
	{"echo 2>&10", KindUnsupported, "redirect", 5},
	{"echo {fd}>f", KindUnsupported, "redirect", 5},
	{"echo <>f", KindUnsupported, "redirect", 5},
	{"echo 2>&file", KindUnsupported, "redirect", 5},
	{"a && b > f &", KindUnsupported, "background", 11},
	{"echo a\x00b", KindUnsupported, "control character", 6},
	{"echo a\rb", KindUnsupported, "control character", 6},
	{"echo \x1b[31m", KindUnsupported, "control character", 5},
	{"echo a\u200bb", KindUnsupported, "invisible character", 6},
	{"echo \u202eabc", KindUnsupported, "invisible character", 5},
	{"echo \u2066x", KindUnsupported, "invisible character", 5},
	{"echo \ufeffx", KindUnsupported, "invisible character", 5},
	{"echo soft\u00adhyphen", KindUnsupported, "invisible character", 9},
	{"git log\u2028rm -rf x", KindUnsupported, "invisible character", 7},
	{"echo a\u00a0b", KindUnsupported, "non-ASCII space", 6},
	{"echo \xff", KindSyntax, "invalid UTF-8", 5},
	{`echo "${df["price"]:.2f}"`, KindUnsupported, "parameter expansion", 19},
	{`echo ${df["price"]:.2f}`, KindUnsupported, "parameter expansion", 18},
	{`echo "${x:.2f}"`, KindUnsupported, "parameter expansion", 9},
	{`echo "${x[}"`, KindUnsupported, "parameter expansion", 9},
	{`echo "${a b}"`, KindUnsupported, "parameter expansion", 9},
	{`echo "${#x[@]:1}"`, KindUnsupported, "parameter expansion", 13},
	{`echo "${x@Z}"`, KindUnsupported, "parameter expansion", 10},
	{`echo "${x:1:2:3}"`, KindUnsupported, "parameter expansion", 13},
	{`echo "$(( 1 + ))"`, KindUnsupported, "arithmetic expansion", 12},
	{`echo $(( ))`, KindUnsupported, "arithmetic expansion", 5},
	{"echo \"`echo \"a`\"", KindUnsupported, "command substitution", 12},
	{`echo "${x`, KindSyntax, "unterminated quote", 6},
	{`echo $(fi)`, KindSyntax, "reserved word", 7},
	{`echo "$(a &&)"`, KindSyntax, "empty segment", 10},
	{"fi", KindSyntax, "reserved word", 0},
	{"else", KindSyntax, "reserved word", 0},
	{"else x", KindSyntax, "reserved word", 0},
	{"in", KindSyntax, "reserved word", 0},
	{"in x", KindSyntax, "reserved word", 0},
	{"echo a; done", KindSyntax, "reserved word", 8},
	{"echo a; else", KindSyntax, "reserved word", 8},
	{"echo a && in", KindSyntax, "reserved word", 10},
	{"echo a | then", KindSyntax, "reserved word", 9},
	{"echo a\nesac", KindSyntax, "reserved word", 7},
	{"true || elif", KindSyntax, "reserved word", 8},
	{"echo x | }", KindSyntax, "reserved word", 9},
	{"]] x", KindSyntax, "reserved word", 0},
	{"do;", KindSyntax, "reserved word", 0},
	{"time fi", KindSyntax, "reserved word", 5},
	{"! fi", KindSyntax, "reserved word", 2},
	{"> f fi", KindUnsupported, "reserved word", 4},
	{"2>f done x", KindUnsupported, "reserved word", 4},
	{"echo " + strings.Repeat("a", MaxSourceLen), KindUnsupported, "input size", MaxSourceLen},
}

func TestParseRefusals(t *testing.T) {
	for _, tt := range parseRefusals {
		if procSubstRefusedHere(tt.in) && tt.construct != "process substitution" {
			continue // refused first for its process substitution
		}
		for _, d := range []Dialect{POSIX, Windows} {
			_, err := ParseDialect(tt.in, d)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Errorf("%s %q: want a refusal, got %v", d, tt.in, err)
				continue
			}
			if pe.Kind != tt.kind || pe.Construct != tt.construct || pe.Offset != tt.offset {
				t.Errorf("%s %q: got %s/%q at %d (%s), want %s/%q at %d",
					d, tt.in, pe.Kind, pe.Construct, pe.Offset, pe.Message, tt.kind, tt.construct, tt.offset)
			}
			if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrUnsupported) {
				t.Errorf("%q: errors.Is fails for kind %s", tt.in, pe.Kind)
			}
			if pe.Message == "" || strings.Contains(pe.Message, "\n") {
				t.Errorf("%q: message must be one non-empty line: %q", tt.in, pe.Message)
			}
		}
	}
}

// TestWindowsDialectRefusals covers inputs only the Windows dialect refuses:
// \" inside double quotes can leave a quote unclosed there. (A backslash
// before a glob character, which the Windows dialect keeps, is a live glob
// now that globs expand: see TestFormerRefusalsAccepted.)
func TestWindowsDialectRefusals(t *testing.T) {
	for _, tt := range []struct {
		in        string
		construct string
		offset    int
	}{
		{`echo "C:\dir\\" x`, "unterminated quote", 5},
	} {
		_, err := ParseDialect(tt.in, Windows)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Construct != tt.construct || pe.Offset != tt.offset {
			t.Errorf("%q: got %v, want %s at %d", tt.in, err, tt.construct, tt.offset)
		}
	}
}

// TestFoldedDollar: bash joins "$\<newline>(" into "$(" before reading it,
// inside double quotes too. In the Windows dialect a backslash-newline
// inside double quotes stays as it is, so nothing folds there.
func TestFoldedDollar(t *testing.T) {
	src := "echo \"$\\\n(id)\""
	_, err := ParseDialect(src, POSIX)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Construct != "parameter expansion" || pe.Offset != 6 {
		t.Errorf("posix %q: got %v, want a parameter expansion refusal at 6", src, err)
	}
	c, err := ParseDialect(src, Windows)
	if err != nil || c.Segments()[0].Args[1] != "$\\\n(id)" {
		t.Errorf("windows %q: got %v %v, want the literal text", src, c, err)
	}
}

func TestDialectWarnings(t *testing.T) {
	for _, tt := range []struct {
		in      string
		dialect Dialect
		want    string // substring of a warning; "" means no warning
	}{
		{`dir C:\Users\me`, POSIX, "«C:Usersme» in the posix dialect but as «C:\\Users\\me» in the windows"},
		{`dir C:\Users\me`, Windows, "«C:\\Users\\me» in the windows dialect but as «C:Usersme»"},
		{`echo a\ b`, POSIX, ""},
		{`echo "a\\b"`, POSIX, "«a\\b» in the posix dialect"},
		{`cd C:\ && dir`, Windows, "escapes the space"},
		{`echo plain`, Windows, ""},
	} {
		c, err := ParseDialect(tt.in, tt.dialect)
		if err != nil {
			t.Fatalf("%q: %v", tt.in, err)
		}
		var all []string
		for _, w := range c.Warnings {
			all = append(all, w.Message)
		}
		joined := strings.Join(all, "\n")
		if tt.want == "" && len(all) > 0 || tt.want != "" && !strings.Contains(joined, tt.want) {
			t.Errorf("%s %q: warnings %q, want %q", tt.dialect, tt.in, all, tt.want)
		}
	}
}

func TestParseErrorCaret(t *testing.T) {
	_, err := ParseDialect("git status && echo $(id &)", POSIX)
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatal(err)
	}
	want := "unsupported error: 1:25: running in the background (&) inside a command substitution is not supported; bash waits for the substitution's output to end: run it without &\n" +
		"  git status && echo $(id &)\n" +
		"                          ^\n"
	if got := pe.Caret(); got != want {
		t.Errorf("caret:\n%s\nwant:\n%s", got, want)
	}
	_, err = ParseDialect("a\n  b $$", POSIX)
	if !errors.As(err, &pe) {
		t.Fatal(err)
	}
	if line, col := pe.Position(); line != 2 || col != 5 {
		t.Errorf("position = %d:%d, want 2:5", line, col)
	}
	if !strings.Contains(pe.Caret(), "\n    b $$\n      ^\n") {
		t.Errorf("caret should show the second line:\n%s", pe.Caret())
	}
}

// TestLoweringSlabsOutgrown lowers with estimates far too small, so every
// slab is outgrown midway, and expects the same chain as a normal parse.
func TestLoweringSlabsOutgrown(t *testing.T) {
	for _, src := range []string{
		"a | b | c | d | e | f | g && h | i | j ; k >f 2>&1 | l <g",
		chainOf(50),
		"a",
	} {
		want, err := ParseDialect(src, POSIX)
		if err != nil {
			t.Fatal(err)
		}
		f, err := getShParser().Parse(strings.NewReader(src), "")
		if err != nil {
			t.Fatal(err)
		}
		l := newLowerer(src, POSIX, sourceFacts{segments: 1})
		l.estimate = 1
		if err := l.file(f); err != nil {
			t.Fatal(err)
		}
		got := l.chain
		if !reflect.DeepEqual(argvs(got), argvs(want)) || !reflect.DeepEqual(got.SegmentOps(), want.SegmentOps()) {
			t.Errorf("%q: lowered with small slabs to %q %q, want %q %q", src, argvs(got), got.SegmentOps(), argvs(want), want.SegmentOps())
		}
		for i, p := range got.Pipelines {
			if len(p.Segments) != len(want.Pipelines[i].Segments) {
				t.Errorf("%q: pipeline %d has %d stages, want %d", src, i, len(p.Segments), len(want.Pipelines[i].Segments))
			}
		}
	}
}

func TestParseHeredocs(t *testing.T) {
	type want struct {
		fd        int
		op        RedirOp
		body      string
		delimiter string
	}
	tests := []struct {
		name string
		in   string
		argv [][]string
		want [][]want // per segment
	}{
		{"quoted keeps $ ` and backslashes", "cat <<'EOF'\nhi $x `id` \\n\\\nEOF", [][]string{{"cat"}},
			[][]want{{{0, RedirHeredoc, "hi $x `id` \\n\\\n", "'EOF'"}}}},
		{"double-quoted delimiter", "cat <<\"EOF\"\n$HOME\nEOF\n", [][]string{{"cat"}},
			[][]want{{{0, RedirHeredoc, "$HOME\n", `"EOF"`}}}},
		{"backslashed delimiter", "cat <<\\EOF\n$(id)\nEOF", [][]string{{"cat"}},
			[][]want{{{0, RedirHeredoc, "$(id)\n", `\EOF`}}}},
		{"partly quoted delimiter", "cat <<E'O'F\n$x\nEOF", [][]string{{"cat"}},
			[][]want{{{0, RedirHeredoc, "$x\n", "E'O'F"}}}},
		{"unquoted without expansion", "cat <<EOF\nplain text, 'quotes' \"too\" ~ * {a,b}\nEOF",
			[][]string{{"cat"}}, [][]want{{{0, RedirHeredoc, "plain text, 'quotes' \"too\" ~ * {a,b}\n", "EOF"}}}},
		{"trailing empty lines kept", "cat <<'EOF'\na\n\n\nEOF", [][]string{{"cat"}},
			[][]want{{{0, RedirHeredoc, "a\n\n\n", "'EOF'"}}}},
		{"empty body", "cat <<'EOF'\nEOF", [][]string{{"cat"}}, [][]want{{{0, RedirHeredoc, "", "'EOF'"}}}},
		{"indented delimiter is body text", "cat <<'EOF'\n EOF\nEOF \nEOF", [][]string{{"cat"}},
			[][]want{{{0, RedirHeredoc, " EOF\nEOF \n", "'EOF'"}}}},
		{"<<- strips leading tabs", "cat <<-'EOF'\n\t\tindented\n\t x\n\tEOF", [][]string{{"cat"}},
			[][]want{{{0, RedirHeredocTabs, "indented\n x\n", "'EOF'"}}}},
		{"fd 3", "c 3<<'EOF'\nx\nEOF", [][]string{{"c"}}, [][]want{{{3, RedirHeredoc, "x\n", "'EOF'"}}}},
		{"two in one segment", "c <<A 3<<'B'\na\nA\nb\nB", [][]string{{"c"}},
			[][]want{{{0, RedirHeredoc, "a\n", "A"}, {3, RedirHeredoc, "b\n", "'B'"}}}},
		{"pipe and && on the delimiter line", "cat <<'EOF' | wc -l && cat <<X\n1\n2\nEOF\n3\nX",
			[][]string{{"cat"}, {"wc", "-l"}, {"cat"}},
			[][]want{{{0, RedirHeredoc, "1\n2\n", "'EOF'"}}, nil, {{0, RedirHeredoc, "3\n", "X"}}}},
		{"commands after the body", "cat <<'EOF' > f.py\nprint(1)\nEOF\necho done", [][]string{{"cat"}, {"echo", "done"}},
			[][]want{{{0, RedirHeredoc, "print(1)\n", "'EOF'"}}, nil}},
		{"here-string plain", "cat <<< hello", [][]string{{"cat"}}, [][]want{{{0, RedirHereString, "hello\n", ""}}}},
		{"here-string quoted", "cat <<<'a $b'", [][]string{{"cat"}}, [][]want{{{0, RedirHereString, "a $b\n", ""}}}},
		{"here-string empty", `cat <<< ""`, [][]string{{"cat"}}, [][]want{{{0, RedirHereString, "\n", ""}}}},
		{"here-string fd 4", "c 4<<<x", [][]string{{"c"}}, [][]want{{{4, RedirHereString, "x\n", ""}}}},
	}
	for _, tt := range tests {
		for _, d := range []Dialect{POSIX, Windows} {
			t.Run(tt.name+"/"+string(d), func(t *testing.T) {
				c, err := ParseDialect(tt.in, d)
				if err != nil {
					t.Fatal(err)
				}
				if got := argvs(c); !reflect.DeepEqual(got, tt.argv) {
					t.Fatalf("argv = %q, want %q", got, tt.argv)
				}
				for i, s := range c.Segments() {
					var got []want
					for _, r := range s.Redirects {
						if r.Op.IsText() {
							got = append(got, want{r.Fd, r.Op, r.Body, r.Delimiter})
							if r.Target != "" {
								t.Errorf("target %q: a heredoc has no path", r.Target)
							}
						}
					}
					if !reflect.DeepEqual(got, tt.want[i]) {
						t.Errorf("segment %d: %+v, want %+v", i, got, tt.want[i])
					}
					if strings.Contains(s.Text, "\n") {
						t.Errorf("segment %d text %q holds a body", i, s.Text)
					}
				}
			})
		}
	}
}

// TestParseHeredocSpans checks that a body's span is its lines in the
// source, without the delimiter line, and that the redirect's span stops
// at the delimiter word.
func TestParseHeredocSpans(t *testing.T) {
	src := "cat <<-'EOF' | wc\n\tab\n\tEOF"
	c, err := ParseDialect(src, POSIX)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Segments()[0].Redirects[0]
	if got := src[r.Span.Start:r.Span.End]; got != "<<-'EOF'" {
		t.Errorf("span text %q", got)
	}
	if got := src[r.BodySpan.Start:r.BodySpan.End]; got != "\tab\n" {
		t.Errorf("body span text %q", got)
	}
	if got := c.Segments()[0].Text; got != "cat <<-'EOF'" {
		t.Errorf("segment text %q", got)
	}
}

func TestParseHeredocRefusals(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		construct string
		offset    int
		message   string // a part of the message
	}{
		{"backtick with a backslash in unquoted body", "cat <<EOF\n`echo \\$x`\nEOF", "command substitution", 10, "write the substitution as $(…)"},
		{"backslash-newline in unquoted body", "cat <<EOF\na\\\nEOF\nEOF", "heredoc", 10, "end it with a line holding only EOF"},
		{"background in a <<- body's substitution", "cat <<-EOF\n\t$(id &)\n\tEOF", "background", 17, "inside a command substitution"},
		{"substitution in a default", "cat <<EOF\n${X:-$(id)}\nEOF", "command substitution", 15, "quote the heredoc's delimiter"},
		{"aborting default in body", "cat <<EOF\n${X:?w}\nEOF", "parameter expansion", 10, "side effect"},
		{"positional parameter in body", "cat <<EOF\n$1\nEOF", "special parameter", 10, "positional parameter"},
		{"arithmetic assignment in body", "cat <<EOF\n$((x=1))\nEOF", "arithmetic assignment", 14, "set it with NAME=value first"},
		{"second heredoc", "c <<'A' 3<<B\na\nA\n${X:-$(b)}\nB", "command substitution", 22, "<<'EOF'"},
		{"unterminated", "cat <<'EOF'\nabc", "heredoc", 4, "end the body with the delimiter line"},
		{"no body", "cat <<EOF", "heredoc", 4, "delimiter"},
		{"expanding delimiter", "cat <<$x\nz\n$x", "heredoc", 6, "plain delimiter"},
		{"here-string substitution of a loop", "cat <<< `select a in b; do c; done`", "control flow", 9, "select menus"},
		{"here-string substitution in a default", `cat <<< "a ${X:-$(id)}"`, "command substitution", 16, "assign it to a variable"},
		{"here-string special parameter", "cat <<< $$", "special parameter", 8, "running bash"},
		{"here-string locale quoting", `cat <<< $"a"`, "locale quoting", 8, "plain double quotes"},
		{"carriage return in a body", "cat <<'EOF'\r\nx\r\nEOF\r\n", "control character", 11, "carriage return"},
	}
	for _, tt := range tests {
		for _, d := range []Dialect{POSIX, Windows} {
			t.Run(tt.name+"/"+string(d), func(t *testing.T) {
				checkRefusal(t, tt.in, d, tt.construct, tt.offset, tt.message)
			})
		}
	}
}

// expansionRefusals are the expansions chainrun still refuses, each with
// the offset, construct and a part of the message.
var expansionRefusals = []struct {
	in, construct string
	offset        int
	message       string
	bug           string
}{
	{"echo $()", "command substitution", 5, "write the empty string", ""},
	{"echo `echo \\$HOME`", "command substitution", 5, "write the substitution as $(…)", ""},
	{"echo ${X:-$(id)}", "command substitution", 10, "v=$(id) then $v", ""},
	{"echo $((1+`id`))", "command substitution", 10, "v=`id` then $v", ""},
	{"echo <()", "process substitution", 5, "name /dev/null", ""},
	{"echo ${X:-<(id)}", "process substitution", 10, "a word of its own", ""},
	{"echo ${PATH:=w}", "parameter expansion", 5, "use ${PATH:-default}", ""},
	{"echo ${IFS=w}", "parameter expansion", 5, "set it first with IFS=value", ""},
	{"echo ${X:?w}", "parameter expansion", 5, "aborts when it is unset", ""},
	{`echo "${X?}"`, "parameter expansion", 6, "aborts when it is unset", ""},
	{"echo $1", "special parameter", 5, "positional parameter", ""},
	{"echo ${10}", "special parameter", 5, "positional parameter", ""},
	{`echo "$@"`, "special parameter", 6, "positional parameter", ""},
	{"echo $*", "special parameter", 5, "put it in single quotes", ""},
	{"echo $#", "special parameter", 5, "positional parameter", ""},
	{"echo ${#}", "special parameter", 5, "positional parameter", ""},
	{"echo $0", "special parameter", 5, "the shell's name", ""},
	{"echo $-", "special parameter", 5, "running bash", ""},
	{"echo $$", "special parameter", 5, "running bash", ""},
	{"echo $RANDOM", "special parameter", 5, "bash computes itself", ""},
	{"echo ${LINENO}", "special parameter", 5, "bash computes itself", ""},
	{"echo x$UID", "special parameter", 6, "id -u", ""},
	{"echo $BASHPID $EPOCHSECONDS", "special parameter", 5, "bash computes itself", ""},
	{"cat <<EOF\n$SECONDS\nEOF", "special parameter", 10, "bash computes itself", ""},
	{"echo $_", "special parameter", 5, "the last argument", ""},
	{"echo ${a[1]}", "parameter expansion", 5, "chainrun has no arrays", ""},
	{"echo ${a[@]}", "parameter expansion", 5, "chainrun has no arrays", ""},
	{"a=(1 2)", "array assignment", 0, "plain NAME=value", ""},
	{"a[1]=x", "array assignment", 0, "plain NAME=value", ""},
	{"X+=1", "array assignment", 0, "plain NAME=value", ""},
	{"echo ${!X}", "parameter expansion", 5, "indirect expansion", ""},
	{"echo ${!X*}", "parameter expansion", 5, "indirect expansion", ""},
	{"echo $((x=1))", "arithmetic assignment", 9, "set it with NAME=value first", ""},
	{"echo $((x+=2))", "arithmetic assignment", 9, "assigns a variable", ""},
	{"echo $((x++))", "arithmetic assignment", 9, "++ inside $((…))", ""},
	{"echo $((--x))", "arithmetic assignment", 8, "-- inside $((…))", ""},
	{"echo ${X:y=1}", "arithmetic assignment", 10, "assigns a variable", ""},
	{"echo $[x=1]", "arithmetic assignment", 8, "assigns a variable", ""},
	{"ls **/*.go", "glob", 3, "without globstar", ""},
	{"ls src/**", "glob", 7, "use find", ""},
	{"ls @(a|b)", "glob", 3, "extended globs", ""},
	{"ls !(a)", "glob", 3, "extended globs", ""},
	{"ls *.@(go|md)", "glob", 5, "extended globs", ""},
	{"declare x=1", "shell built-in", 0, "export NAME=value", ""},
	{"local x", "shell built-in", 0, "NAME=value", ""},
	{"readonly x=1", "shell built-in", 0, "NAME=value", ""},
	{"eval ls", "shell built-in", 0, "run the program directly", ""},
	{"source venv/bin/activate", "shell built-in", 0, "run the program directly", ""},
	{". f", "shell built-in", 0, "run the program directly", ""},
	{"export -n X", "export option", 7, "takes NAME and NAME=value", ""},
	{"export A={a,b}", "brace expansion", 9, "makes several assignments", ""},
	{"export -p", "export option", 7, "export -p is not supported", ""},
	{"export X+=1", "array assignment", 7, "plain NAME=value", ""},
	{"export a[0]=1", "array assignment", 7, "plain NAME=value", ""},
	{"export A=1 >f", "redirect", 11, "drop the redirect", ""},
	{"unset -f f", "unset option", 6, "removes variables", ""},
	{"unset -n X", "unset option", 6, "unset -n is not supported", ""},
	{"echo $env:PATH", "PowerShell syntax", 5, "write $NAME", ""},
	{`echo $"x"`, "locale quoting", 5, "plain double quotes", ""},
	{"cat <&$F", "redirect", 6, "must be written out", ""},
	{`echo ${U:-"a b"}`, "parameter expansion", 10, "quote the whole expansion", ""},
	{`echo "${U:-'x'}"`, "parameter expansion", 11, "quotes inside", ""},
	{"echo ${F/#out/in}", "parameter expansion", 5, "anchors its pattern", ""},
	{"echo ${F/%txt/log}", "parameter expansion", 5, "use ${X#prefix}", ""},
	{`echo $'\cA'`, "ANSI-C quoting", 5, `write the character with \x`, ""},
	{"echo {$V,x}y", "brace expansion", 6, "write ${V}", ""},
	{"echo ${A@Q$}", "parameter expansion", 5, "transformations chainrun does", ""},
	{"echo ${A@Q$B}", "parameter expansion", 5, "transformations chainrun does", ""},
	{"echo \"${X@P}\"", "parameter expansion", 6, "transformations chainrun does", ""},
	{"echo ${X@Q} ${X@E} ${X@a} ${X@A} ${X@K}", "parameter expansion", 5, "transformations chainrun does", ""},
	{"echo ${U:-~/x}", "parameter expansion", 10, "write $HOME", ""},
	{"A=${U:-~/x:~/y} cmd", "parameter expansion", 7, "write $HOME", ""},
	{"echo {1..1000000}", "brace expansion", 5, "more than the 100000", ""},
	{"echo {Z..c}", "brace expansion", 5, "letter sequence", ""},
}

func TestExpansionRefusals(t *testing.T) {
	for _, tt := range expansionRefusals {
		for _, d := range []Dialect{POSIX, Windows} {
			t.Run(tt.in+"/"+string(d), func(t *testing.T) {
				skipBug(t, tt.bug)
				if procSubstRefusedHere(tt.in) {
					t.Skip("process substitution is refused on Windows, before anything else in the line")
				}
				checkRefusal(t, tt.in, d, tt.construct, tt.offset, tt.message)
			})
		}
	}
}

// checkRefusal parses src in d and wants an unsupported refusal of
// construct at offset whose message holds message.
func checkRefusal(t *testing.T, src string, d Dialect, construct string, offset int, message string) {
	t.Helper()
	_, err := ParseDialect(src, d)
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("want a refusal, got %v", err)
	}
	if pe.Kind != KindUnsupported || pe.Construct != construct || pe.Offset != offset {
		t.Errorf("got %s/%q at %d (%s), want unsupported/%q at %d", pe.Kind, pe.Construct, pe.Offset, pe.Message, construct, offset)
	}
	if !strings.Contains(pe.Message, message) {
		t.Errorf("message %q lacks %q", pe.Message, message)
	}
}

// skipBug skips a case that fails for a known bug in the non-test code,
// unless CHAINRUN_BUGS is set (go test with CHAINRUN_BUGS=1 runs them, to
// see which are fixed).
func skipBug(t *testing.T, bug string) {
	t.Helper()
	if bug != "" && os.Getenv("CHAINRUN_BUGS") == "" {
		t.Skip("BUG: " + bug)
	}
}

// procSubstRefusedHere reports a line with a process substitution on
// Windows, where the parser refuses it (no /dev/fd) before anything else.
func procSubstRefusedHere(in string) bool {
	return runtime.GOOS == "windows" && (strings.Contains(in, "<(") || strings.Contains(in, ">("))
}
