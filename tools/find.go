package tools

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// find walks its start points (default ".") in directory order, as GNU's
// find does, and evaluates its expression on each file: tests -name,
// -iname, -path, -ipath, -type, -empty, -newer, -size, -mtime, -true,
// -false; actions -print, -print0, -prune, -delete, -exec … ; and
// -exec … {} + (run through Call.Exec, as xargs runs its command);
// operators !, -not, -a, -and, -o, -or and parentheses; global options
// -maxdepth and -mindepth.

func registerFind() {
	register(&Tool{Name: "find", Spec: Spec{Raw: true}, run: find})
}

// node is one file as find sees it.
type node struct {
	path  string // as printed: start point joined with names
	real  string // on disk
	info  fs.FileInfo
	depth int
}

// findExpr is a compiled expression: it reports whether the file matches
// and may act on it.
type findExpr func(f *finder, n *node) bool

// finder is one find run.
type finder struct {
	*task
	expr               findExpr
	hasAction          bool
	minDepth, maxDepth int
	prune, failed      bool
	depthFirst         bool // -delete: a directory after what it holds
	batches            []*execBatch
	now                time.Time
}

func find(k *task) int {
	f := &finder{task: k, maxDepth: -1, now: time.Now()}
	starts, rest := splitStarts(k.operands)
	p := &findParser{f: f, args: rest}
	expr, err := p.parse()
	if err != nil {
		return k.findUsage(err)
	}
	f.expr = expr
	if len(starts) == 0 {
		starts = []string{"."}
	}
	for _, s := range starts {
		if f.stopped() {
			break
		}
		info, err := os.Lstat(k.path(s))
		if err != nil {
			f.report(s, err)
			continue
		}
		f.walk(&node{path: s, real: k.path(s), info: info})
	}
	for _, b := range f.batches {
		b.run(f)
	}
	k.out.flush()
	if f.failed || k.out.err != nil {
		return 1
	}
	return 0
}

// findUsage reports an expression find cannot run: GNU's words and
// status 1 for one GNU does not know either, the tools' usage error for
// one it knows that the built-in find does not support.
func (k *task) findUsage(err error) int {
	var ue *UsageError
	if errors.As(err, &ue) {
		return k.usage(err)
	}
	k.errorf("%s", err)
	return 1
}

// splitStarts cuts find's start points from its expression: they end at
// the first word that begins with "-", "(" or "!".
func splitStarts(args []string) (starts, expr []string) {
	for i, a := range args {
		if strings.HasPrefix(a, "-") && a != "-" || a == "(" || a == "!" {
			return args[:i], args[i:]
		}
	}
	return args, nil
}

func (f *finder) report(name string, err error) {
	f.failed = true
	f.errorf("%s: %s", quote(name), describe(err))
}

// walk evaluates the expression on n and then, unless -prune said not to,
// on the files below it.
func (f *finder) walk(n *node) {
	if f.stopped() {
		return
	}
	inRange := n.depth >= f.minDepth && (f.maxDepth < 0 || n.depth <= f.maxDepth)
	if inRange && !f.depthFirst {
		if f.visit(n); f.prune {
			return
		}
	}
	f.walkBelow(n)
	if inRange && f.depthFirst {
		f.visit(n)
	}
}

// visit evaluates the expression on n, printing it when the expression
// has no action of its own.
func (f *finder) visit(n *node) {
	f.prune = false
	if f.expr(f, n) && !f.hasAction {
		f.out.WriteString(n.path + "\n")
	}
}

// walkBelow walks the files in directory n.
func (f *finder) walkBelow(n *node) {
	if !n.info.IsDir() || f.maxDepth >= 0 && n.depth >= f.maxDepth {
		return
	}
	d, err := os.Open(n.real)
	if err != nil {
		f.report(n.path, err)
		return
	}
	des, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		f.report(n.path, err)
	}
	for _, de := range des {
		info, err := de.Info()
		if err != nil {
			continue // gone since it was listed
		}
		f.walk(&node{path: joinShown(n.path, de.Name()), real: filepath.Join(n.real, de.Name()), info: info, depth: n.depth + 1})
	}
}

// findParser reads find's expression by GNU's precedence: ( ) and ! bind
// tightest, then -a (or nothing), then -o.
type findParser struct {
	f    *finder
	args []string
	i    int
}

func (p *findParser) parse() (findExpr, error) {
	if len(p.args) == 0 {
		return func(*finder, *node) bool { return true }, nil
	}
	e, err := p.or()
	if err == nil && p.i < len(p.args) {
		err = errors.New("unexpected extra predicate " + quote(p.args[p.i]))
	}
	return e, err
}

func (p *findParser) or() (findExpr, error) {
	l, err := p.and()
	for err == nil && p.i < len(p.args) && (p.args[p.i] == "-o" || p.args[p.i] == "-or") {
		p.i++
		var r findExpr
		if r, err = p.and(); err == nil {
			a, b := l, r
			l = func(f *finder, n *node) bool { return a(f, n) || b(f, n) }
		}
	}
	return l, err
}

func (p *findParser) and() (findExpr, error) {
	l, err := p.not()
	for err == nil && p.i < len(p.args) && p.args[p.i] != "-o" && p.args[p.i] != "-or" && p.args[p.i] != ")" {
		if p.args[p.i] == "-a" || p.args[p.i] == "-and" {
			p.i++
		}
		var r findExpr
		if r, err = p.not(); err == nil {
			a, b := l, r
			l = func(f *finder, n *node) bool { return a(f, n) && b(f, n) }
		}
	}
	return l, err
}

func (p *findParser) not() (findExpr, error) {
	if p.i < len(p.args) && (p.args[p.i] == "!" || p.args[p.i] == "-not") {
		p.i++
		e, err := p.not()
		return func(f *finder, n *node) bool { return !e(f, n) }, err
	}
	if p.i < len(p.args) && p.args[p.i] == "(" {
		p.i++
		e, err := p.or()
		if err == nil && (p.i >= len(p.args) || p.args[p.i] != ")") {
			err = errNoClose
		}
		p.i++
		return e, err
	}
	return p.primary()
}

// value takes the argument of the primary at p.i-1.
func (p *findParser) value() (string, error) {
	if p.i >= len(p.args) {
		return "", errors.New("missing argument to `" + p.args[p.i-1] + "'")
	}
	p.i++
	return p.args[p.i-1], nil
}

func (p *findParser) primary() (findExpr, error) {
	if p.i >= len(p.args) {
		return nil, errors.New("invalid expression")
	}
	a := p.args[p.i]
	p.i++
	if e := findFlag(a); e != nil {
		if a == "-print" || a == "-print0" || a == "-delete" {
			p.f.hasAction = true
		}
		if a == "-delete" {
			p.f.depthFirst = true // GNU: -delete implies -depth
		}
		return e, nil
	}
	if mk := findTest(a); mk != nil {
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		return mk(p.f, v)
	}
	switch a {
	case "-exec":
		return p.exec()
	case "-maxdepth", "-mindepth":
		v, err := p.value()
		n, cerr := strconv.Atoi(v)
		if err == nil && (cerr != nil || n < 0) {
			err = errors.New("Expected a positive decimal integer argument to " + a + ", but got " + quote(v))
		}
		if a == "-maxdepth" {
			p.f.maxDepth = n
		} else {
			p.f.minDepth = n
		}
		return func(*finder, *node) bool { return true }, err
	}
	if slices.Contains(findKnown, a) {
		return nil, &UsageError{Option: a, Reason: "not supported"}
	}
	return nil, errors.New("unknown predicate `" + a + "'")
}

// findMessage is one of GNU find's messages, word for word.
type findMessage string

func (m findMessage) Error() string { return string(m) }

// errNoClose is an unclosed parenthesis.
const errNoClose = findMessage("invalid expression; I was expecting to find a ')' somewhere but did not see one.")

// The primaries' tables are literals the linker lays out, looked up by a
// scan (a handful of entries, read once per primary of a find run), so
// that nothing is built when a program that links the tools starts.

// findKnown are GNU find's primaries the built-in one does not support.
var findKnown = []string{"-exec", "-execdir", "-ok", "-okdir", "-printf", "-fprint", "-fprintf", "-fprint0", "-fls",
	"-ls", "-regex", "-iregex", "-user", "-group", "-perm", "-newermt", "-mmin", "-amin", "-cmin", "-atime", "-ctime",
	"-links", "-inum", "-samefile", "-lname", "-ilname", "-follow", "-xdev", "-depth", "-quit", "-readable",
	"-writable", "-executable", "-nouser", "-nogroup", "-wholename", "-iwholename", "-xtype", "-fstype", "-used",
	"-anewer", "-cnewer"}

// findFlags are the primaries without an argument.
var findFlags = [...]struct {
	name string
	e    findExpr
}{
	{"-print", func(f *finder, n *node) bool { f.out.WriteString(n.path + "\n"); return true }},
	{"-print0", func(f *finder, n *node) bool { f.out.WriteString(n.path + "\x00"); return true }},
	{"-prune", func(f *finder, n *node) bool { f.prune = true; return true }},
	{"-true", func(*finder, *node) bool { return true }},
	{"-false", func(*finder, *node) bool { return false }},
	{"-empty", func(f *finder, n *node) bool {
		if n.info.IsDir() {
			d, err := os.ReadDir(n.real)
			return err == nil && len(d) == 0
		}
		return n.info.Mode().IsRegular() && n.info.Size() == 0
	}},
	{"-delete", func(f *finder, n *node) bool {
		if n.path == "." {
			return true
		}
		if err := os.Remove(n.real); err != nil {
			f.failed = true
			f.errorf("cannot delete %s: %s", quote(n.path), describe(err))
			return false
		}
		return true
	}},
}

// findTests are the primaries with an argument: each compiles its test.
var findTests = [...]struct {
	name string
	mk   func(f *finder, v string) (findExpr, error)
}{
	{"-name", func(_ *finder, v string) (findExpr, error) { return nameTest(v, false, true) }},
	{"-iname", func(_ *finder, v string) (findExpr, error) { return nameTest(v, true, true) }},
	{"-path", func(_ *finder, v string) (findExpr, error) { return nameTest(v, false, false) }},
	{"-ipath", func(_ *finder, v string) (findExpr, error) { return nameTest(v, true, false) }},
	{"-type", typeTest},
	{"-newer", func(f *finder, v string) (findExpr, error) {
		fi, err := os.Stat(f.path(v))
		if err != nil {
			return nil, errors.New(quote(v) + ": " + describe(err))
		}
		t := fi.ModTime()
		return func(_ *finder, n *node) bool { return n.info.ModTime().After(t) }, nil
	}},
	{"-size", sizeTest},
	{"-mtime", mtimeTest},
}

// findFlag is the primary a without an argument, or nil.
func findFlag(a string) findExpr {
	for _, f := range findFlags {
		if f.name == a {
			return f.e
		}
	}
	return nil
}

// findTest compiles the test of primary a with an argument, or is nil.
func findTest(a string) func(f *finder, v string) (findExpr, error) {
	for _, t := range findTests {
		if t.name == a {
			return t.mk
		}
	}
	return nil
}

// nameTest matches the base name (or, for -path, the whole path) against
// a shell pattern; fold ignores case.
func nameTest(pattern string, fold, base bool) (findExpr, error) {
	if fold {
		pattern = strings.ToLower(pattern)
	}
	if _, err := path.Match(pattern, ""); err != nil {
		return nil, errors.New("invalid pattern " + quote(pattern))
	}
	return func(_ *finder, n *node) bool {
		s := filepath.ToSlash(n.path)
		if base {
			s = path.Base(strings.TrimRight(s, "/"))
			if s == "" || n.path == "/" {
				s = "/"
			}
		}
		if fold {
			s = strings.ToLower(s)
		}
		ok, _ := findMatch(pattern, s, base)
		return ok
	}, nil
}

// findMatch is fnmatch without FNM_PATHNAME: in -path, * matches / too.
func findMatch(pattern, s string, base bool) (bool, error) {
	if base {
		return path.Match(pattern, s)
	}
	// path.Match stops * at "/": match segment runs by turning / into a
	// byte no name holds.
	const slash = "\x00"
	return path.Match(strings.ReplaceAll(pattern, "/", slash), strings.ReplaceAll(s, "/", slash))
}

func typeTest(_ *finder, v string) (findExpr, error) {
	var want fs.FileMode
	switch v {
	case "f":
	case "d":
		want = fs.ModeDir
	case "l":
		want = fs.ModeSymlink
	case "p":
		want = fs.ModeNamedPipe
	case "s":
		want = fs.ModeSocket
	default:
		return nil, errors.New("Unknown argument to -type: " + v)
	}
	return func(_ *finder, n *node) bool {
		if v == "f" {
			return n.info.Mode().IsRegular()
		}
		return n.info.Mode()&want != 0
	}, nil
}

// cmpNumber reads find's [+-]N: more than, less than, exactly.
func cmpNumber(v string) (sign byte, n int64, err error) {
	if v != "" && (v[0] == '+' || v[0] == '-') {
		sign, v = v[0], v[1:]
	}
	n, err = strconv.ParseInt(v, 10, 64)
	return sign, n, err
}

func compare(sign byte, got, n int64) bool {
	switch sign {
	case '+':
		return got > n
	case '-':
		return got < n
	}
	return got == n
}

// sizeTest is -size [+-]N[cwbkMG]: the size rounded up to units (512-byte
// blocks by default).
func sizeTest(_ *finder, v string) (findExpr, error) {
	unit := int64(512)
	if i := len(v) - 1; i >= 0 {
		if u, ok := map[byte]int64{'c': 1, 'w': 2, 'b': 512, 'k': 1024, 'M': 1 << 20, 'G': 1 << 30}[v[i]]; ok {
			unit, v = u, v[:i]
		}
	}
	sign, n, err := cmpNumber(v)
	if err != nil {
		return nil, errors.New("invalid argument " + quote(v) + " to -size")
	}
	return func(_ *finder, nd *node) bool {
		return compare(sign, (nd.info.Size()+unit-1)/unit, n)
	}, nil
}

// mtimeTest is -mtime [+-]N: whole days since the last change.
func mtimeTest(f *finder, v string) (findExpr, error) {
	sign, n, err := cmpNumber(v)
	if err != nil {
		return nil, errors.New("invalid argument " + quote(v) + " to -mtime")
	}
	return func(f *finder, nd *node) bool {
		return compare(sign, int64(f.now.Sub(nd.info.ModTime())/(24*time.Hour)), n)
	}, nil
}

// exec reads -exec COMMAND ARGS ; (one run per file, true when it exits
// 0) or -exec COMMAND ARGS {} + (the files in batches, run at the end;
// always true, a failure makes find's status 1).
func (p *findParser) exec() (findExpr, error) {
	start := p.i
	for p.i < len(p.args) {
		a := p.args[p.i]
		p.i++
		if a == ";" || a == "+" && p.i-2 > start && p.args[p.i-2] == "{}" {
			p.f.hasAction = true
			return p.execExpr(p.args[start:p.i-1], a == "+")
		}
	}
	return nil, errors.New("missing argument to `-exec'")
}

func (p *findParser) execExpr(cmd []string, batch bool) (findExpr, error) {
	if len(cmd) == 0 {
		return nil, errors.New("missing argument to `-exec'")
	}
	if batch {
		b := &execBatch{cmd: cmd[:len(cmd)-1]}
		p.f.batches = append(p.f.batches, b)
		return func(f *finder, n *node) bool { b.add(f, n.path); return true }, nil
	}
	return func(f *finder, n *node) bool {
		argv := make([]string, len(cmd))
		for i, c := range cmd {
			argv[i] = strings.ReplaceAll(c, "{}", n.path)
		}
		return f.exec(argv, f.Env, f.Stdin) == 0
	}, nil
}

// execBatch is one -exec … {} +: its command and the files waiting.
type execBatch struct {
	cmd   []string
	files []string
	size  int
}

// add queues a file, running the batch first when the line would grow
// past xargs' limit.
func (b *execBatch) add(f *finder, path string) {
	if b.size+len(path) > xargsMaxChars {
		b.run(f)
	}
	b.files = append(b.files, path)
	b.size += len(path) + 1
}

func (b *execBatch) run(f *finder) {
	if len(b.files) == 0 {
		return
	}
	if f.exec(append(append([]string(nil), b.cmd...), b.files...), f.Env, f.Stdin) != 0 {
		f.failed = true
	}
	b.files, b.size = nil, 0
}
