package builtin

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/chainrun/chainrun/builtin/spec"
)

// testCmd is bash's test and [ built-in: 0 true, 1 false, 2 a usage error.
// It follows bash's test.c: zero to four arguments are read by POSIX's
// rules on their count, more by the grammar of -o, -a, !, ( and ), so
// that [ "$x" = -a ] compares strings as bash does. Files are relative to
// the chain's current directory; -v looks in the segment's environment,
// the only variables a chain has.
type testCmd struct {
	dir  string // the chain's directory, for relative files
	io   *IO
	env  []string
	opts Options // the chain's shell options, for -o
	args []string
	end  string // what bash sees after the last argument: "]" for [, nothing for test
	pos  int
	err  string // the first syntax error
}

// errSyntax ends a test with a usage error; it unwinds the parser.
type errSyntax struct{}

func test(io *IO, name string, args, env []string, dir string, opts Options) (code int) {
	if name == "[" {
		if len(args) == 0 || args[len(args)-1] != "]" {
			return io.fail(2, "[: missing `]'")
		}
		args = args[:len(args)-1]
	}
	t := &testCmd{dir: dir, io: io, env: env, opts: opts, args: args}
	if name == "[" {
		t.end = "]" // bash drops the ] from the count but still reads it
	}
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(errSyntax); !ok {
				panic(v)
			}
			code = io.fail(2, name+": "+t.err)
		}
	}()
	v := t.posix()
	if t.pos != len(t.args) {
		if t.pos < len(t.args) && strings.HasPrefix(t.args[t.pos], "-") && t.args[t.pos] != "-" {
			t.fail("syntax error: `" + t.args[t.pos] + "' unexpected")
		}
		t.fail("too many arguments")
	}
	if v {
		return 0
	}
	return 1
}

func (t *testCmd) fail(msg string) {
	t.err = msg
	panic(errSyntax{})
}

// posix reads zero to four arguments by their count (POSIX's rules, as
// bash applies them), more by the full grammar.
func (t *testCmd) posix() bool {
	a := t.args
	switch len(a) {
	case 0:
		return false
	case 1:
		t.pos = 1
		return a[0] != ""
	case 2:
		return t.two()
	case 3:
		return t.three()
	case 4:
		if a[0] == "!" {
			t.pos++
			return !t.three()
		}
		if a[0] == "(" && a[3] == ")" {
			t.pos++
			v := t.two()
			t.pos = 4
			return v
		}
	}
	return t.expr()
}

// two reads the two arguments from pos: ! S, or a unary test.
func (t *testCmd) two() bool {
	a, p := t.args, t.pos
	t.pos += 2
	switch {
	case a[p] == "!":
		return a[p+1] == ""
	case len(a[p]) == 2 && a[p][0] == '-' && isUnaryTest(a[p][1]):
		return t.unary(a[p][1], a[p+1])
	}
	t.fail(a[p] + ": unary operator expected")
	return false
}

// three reads the three arguments from pos.
func (t *testCmd) three() bool {
	a, p := t.args, t.pos
	switch {
	case isBinaryTest(a[p+1]):
		t.pos += 3
		return t.binary(a[p], a[p+1], a[p+2])
	case a[p+1] == "-a" || a[p+1] == "-o":
		t.pos += 3
		if a[p+1] == "-a" {
			return a[p] != "" && a[p+2] != ""
		}
		return a[p] != "" || a[p+2] != ""
	case a[p] == "!":
		t.pos++
		return !t.two()
	case a[p] == "(" && a[p+2] == ")":
		t.pos += 3
		return a[p+1] != ""
	}
	t.fail(a[p+1] + ": binary operator expected")
	return false
}

// expr, and and term are bash's grammar for five or more arguments.
func (t *testCmd) expr() bool {
	if t.pos >= len(t.args) {
		t.fail("argument expected")
	}
	v := t.and()
	if t.pos < len(t.args) && t.args[t.pos] == "-o" {
		t.advance()
		w := t.expr()
		return v || w
	}
	return v
}

func (t *testCmd) and() bool {
	v := t.term()
	if t.pos < len(t.args) && t.args[t.pos] == "-a" {
		t.advance()
		w := t.and()
		return v && w
	}
	return v
}

// advance steps over an operator that needs an operand after it.
func (t *testCmd) advance() {
	t.pos++
	if t.pos >= len(t.args) {
		t.fail("argument expected")
	}
}

func (t *testCmd) term() bool {
	a := t.args
	if t.pos >= len(a) {
		t.fail("argument expected")
	}
	if a[t.pos] == "!" {
		neg := false
		for t.pos < len(a) && a[t.pos] == "!" {
			t.advance()
			neg = !neg
		}
		return t.term() != neg
	}
	if a[t.pos] == "(" {
		t.advance()
		v := t.expr()
		switch {
		case t.pos >= len(a) && t.end != "":
			t.fail("`)' expected, found " + t.end)
		case t.pos >= len(a):
			t.fail("`)' expected")
		case a[t.pos] != ")":
			t.fail("`)' expected, found " + a[t.pos])
		}
		t.pos++
		return v
	}
	p := t.pos
	if p+3 <= len(a) && isBinaryTest(a[p+1]) {
		t.pos += 3
		return t.binary(a[p], a[p+1], a[p+2])
	}
	if p+2 <= len(a) && len(a[p]) == 2 && a[p][0] == '-' && isUnaryTest(a[p][1]) {
		if _, isFd := testInt(a[p+1]); a[p][1] == 't' && !isFd {
			t.pos++ // -t without an fd after it tests fd 1
			return t.unary('t', "1")
		}
		t.pos += 2
		return t.unary(a[p][1], a[p+1])
	}
	t.pos++
	return a[p] != ""
}

func isUnaryTest(c byte) bool { return strings.IndexByte("abcdefghknoprstuvwxzGLNORS", c) >= 0 }

func isBinaryTest(op string) bool {
	switch op {
	case "=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef":
		return true
	}
	return false
}

// unary applies the unary test -op to arg.
func (t *testCmd) unary(op byte, arg string) bool {
	switch op {
	case 'n':
		return arg != ""
	case 'z':
		return arg == ""
	case 'v':
		_, ok := lookup(t.env, arg)
		return ok
	case 'o':
		return shellOptionOn(arg, t.opts)
	case 'R':
		return false // chainrun has no variables, so no namerefs
	case 't':
		n, ok := testInt(arg)
		if !ok || n < 0 || n >= int64(len(t.io.files)) || t.io.files[n] == nil {
			return false
		}
		return isTerminal(t.io.files[n])
	}
	return fileTest(op, t.path(arg))
}

// shellOptionOn reports the shell options set -o would show as on: those
// of a non-interactive bash -c, and the ones set turned on.
func shellOptionOn(name string, o Options) bool {
	switch name {
	case "braceexpand", "hashall", "interactive-comments":
		return true
	case "errexit":
		return o.Errexit
	case "nounset":
		return o.Nounset
	case "pipefail":
		return o.Pipefail
	case "xtrace":
		return o.Xtrace
	}
	return false
}

// path resolves a file operand against the chain's current directory, as
// the OS reads it (on Windows "\x" is on the directory's drive).
func (t *testCmd) path(name string) string {
	if name == "" || spec.PathAnchor(name, runtime.GOOS == "windows") == spec.Absolute {
		return name
	}
	return filepath.Clean(spec.JoinPath(t.dir, name, runtime.GOOS == "windows"))
}

// binary applies a binary test.
func (t *testCmd) binary(x, op, y string) bool {
	switch op {
	case "=", "==":
		return x == y
	case "!=":
		return x != y
	case "<":
		return x < y
	case ">":
		return x > y
	case "-nt", "-ot", "-ef":
		return fileCompare(op, t.path(x), t.path(y))
	}
	a, ok := testInt(x)
	if !ok {
		t.fail(x + ": integer expression expected")
	}
	b, ok := testInt(y)
	if !ok {
		t.fail(y + ": integer expression expected")
	}
	switch op {
	case "-eq":
		return a == b
	case "-ne":
		return a != b
	case "-lt":
		return a < b
	case "-le":
		return a <= b
	case "-gt":
		return a > b
	}
	return a >= b
}

// testInt reads an integer as bash's legal_number does: blanks around an
// optional sign and decimal digits, nothing else, no overflow.
func testInt(s string) (int64, bool) {
	s = strings.Trim(s, " \t\n\v\f\r")
	if s == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || s[0] == '+' && len(s) > 1 && (s[1] == '+' || s[1] == '-') {
		return 0, false
	}
	return n, true
}

// fileCompare is -nt (newer, or x exists and y does not), -ot, -ef (the
// same file).
func fileCompare(op, x, y string) bool {
	fx, ex := os.Stat(x)
	fy, ey := os.Stat(y)
	switch op {
	case "-nt":
		return ex == nil && (ey != nil || fx.ModTime().After(fy.ModTime()))
	case "-ot":
		return ey == nil && (ex != nil || fx.ModTime().Before(fy.ModTime()))
	}
	return ex == nil && ey == nil && os.SameFile(fx, fy)
}

// fileTest applies a unary file test to path.
func fileTest(op byte, path string) bool {
	if path == "" {
		return false
	}
	if op == 'h' || op == 'L' {
		fi, err := os.Lstat(path)
		return err == nil && fi.Mode()&os.ModeSymlink != 0
	}
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	m := fi.Mode()
	switch op {
	case 'a', 'e':
		return true
	case 'f':
		return m.IsRegular()
	case 'd':
		return m.IsDir()
	case 's':
		return fi.Size() > 0
	case 'p':
		return m&os.ModeNamedPipe != 0
	case 'S':
		return m&os.ModeSocket != 0
	case 'b':
		return m&os.ModeDevice != 0 && m&os.ModeCharDevice == 0
	case 'c':
		return m&os.ModeCharDevice != 0
	case 'u':
		return m&os.ModeSetuid != 0
	case 'g':
		return m&os.ModeSetgid != 0
	case 'k':
		return m&os.ModeSticky != 0
	}
	return fileAccess(op, path, fi)
}
