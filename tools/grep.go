package tools

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// grep matches with Go's regexp in leftmost-longest mode (POSIX's rule),
// after translating GNU's basic syntax (\( \) \{ \} \| \+ \? and \< \>);
// a back-reference is refused, as RE2 has none.

func registerGrep() {
	register(&Tool{Name: "grep", Spec: Spec{Flags: "rRnivcEFlLqwoxhHs", Values: "eABC", LongFlags: map[string]string{
		"recursive": "r", "dereference-recursive": "R", "line-number": "n", "ignore-case": "i", "invert-match": "v", "count": "c",
		"extended-regexp": "E", "fixed-strings": "F", "files-with-matches": "l", "files-without-match": "L", "quiet": "q",
		"silent": "q", "word-regexp": "w", "only-matching": "o", "line-regexp": "x", "no-filename": "h", "with-filename": "H",
		"no-messages": "s"}, LongValues: map[string]string{"regexp": "e", "after-context": "A", "before-context": "B",
		"context": "C", "include": "", "exclude": "", "exclude-dir": ""}}, run: grep})
}

// grepper is one grep run: its compiled pattern and its state.
type grepper struct {
	*task
	re               *regexp.Regexp
	before, after    int
	names            bool // prefix lines with the file's name
	matched, failed  bool
	printedSomething bool
}

func grep(k *task) int {
	patterns, operands := grepPatterns(k)
	if patterns == nil {
		k.errorf("missing pattern\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.")
		return 2
	}
	re, err := compileGrep(k, patterns)
	if err != nil {
		k.errorf("%s", err)
		return 2
	}
	g := &grepper{task: k, re: re}
	if g.before, g.after, err = g.context(); err != nil {
		k.errorf("%s", err)
		return 2
	}
	recursive := has(k.opts, "r") || has(k.opts, "R")
	if len(operands) == 0 && recursive {
		operands = []string{""} // the directory, its files named without "./"
	}
	if len(operands) == 0 {
		operands = []string{"-"}
	}
	g.names = g.withNames(operands, recursive)
	for _, o := range operands {
		if g.done() {
			break
		}
		g.operand(o, recursive)
	}
	k.out.flush()
	switch {
	case g.matched && has(k.opts, "q"):
		return 0
	case g.failed:
		return 2
	case g.matched:
		return 0
	}
	return 1
}

// withNames reports whether lines are prefixed with their file's name: for
// several operands or a tree (-H and -h, the later one winning, decide
// otherwise).
func (g *grepper) withNames(operands []string, recursive bool) bool {
	if h, H := lastIndex(g.opts, "h"), lastIndex(g.opts, "H"); h >= 0 || H >= 0 {
		return H > h
	}
	if len(operands) > 1 {
		return true
	}
	if !recursive || operands[0] == "" {
		return recursive
	}
	fi, err := os.Stat(g.path(operands[0]))
	return err == nil && fi.IsDir()
}

// done reports whether grep can stop: -q has its match, or the run ended.
func (g *grepper) done() bool { return g.matched && has(g.opts, "q") || g.stopped() }

// grepPatterns are the -e patterns, or else the first operand, split at
// newlines; nil when there is none.
func grepPatterns(k *task) (patterns, operands []string) {
	for _, o := range k.opts {
		if o.key == "e" {
			patterns = append(patterns, strings.Split(o.val, "\n")...)
		}
	}
	operands = k.operands
	if patterns == nil && len(operands) > 0 {
		patterns, operands = strings.Split(operands[0], "\n"), operands[1:]
	}
	return patterns, operands
}

// compileGrep builds one regexp of the patterns as -E, -F, -i, -w, -x
// say.
func compileGrep(k *task, patterns []string) (*regexp.Regexp, error) {
	alts := make([]string, len(patterns))
	for i, p := range patterns {
		switch {
		case has(k.opts, "F"):
			alts[i] = regexp.QuoteMeta(p)
		case has(k.opts, "E"):
			alts[i] = strings.NewReplacer(`\<`, `\b`, `\>`, `\b`).Replace(p)
		default:
			t, err := translateBRE(p)
			if err != nil {
				return nil, err
			}
			alts[i] = t
		}
	}
	expr := "(?:" + strings.Join(alts, ")|(?:") + ")"
	if has(k.opts, "x") {
		expr = "^(?:" + expr + ")$"
	}
	if has(k.opts, "i") {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, errors.New("invalid pattern: " + err.Error())
	}
	re.Longest()
	return re, nil
}

// translateBRE turns a basic regular expression into Go's syntax.
func translateBRE(p string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			i++
			switch n := p[i]; {
			case strings.IndexByte("(){}|+?", n) >= 0:
				b.WriteByte(n)
			case n == '<' || n == '>':
				b.WriteString(`\b`)
			case n >= '1' && n <= '9':
				return "", errors.New("back-references (\\" + string(n) + ") are not supported by chainrun's built-in grep; put GNU grep on PATH")
			default:
				b.WriteByte('\\')
				b.WriteByte(n)
			}
		case strings.IndexByte("(){}|+?", c) >= 0:
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '*' && (i == 0 || p[i-1] == '^' && i == 1):
			b.WriteString(`\*`)
		case c == '[':
			j := bracketEnd(p, i)
			b.WriteString(p[i:j])
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// bracketEnd is the index after the bracket expression starting at i.
func bracketEnd(p string, i int) int {
	j := i + 1
	if j < len(p) && p[j] == '^' {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++
	}
	for j < len(p) && p[j] != ']' {
		if p[j] == '[' && j+1 < len(p) && p[j+1] == ':' {
			if e := strings.Index(p[j+2:], ":]"); e >= 0 {
				j += e + 4
				continue
			}
		}
		j++
	}
	return min(j+1, len(p))
}

// context reads -A, -B and -C.
func (g *grepper) context() (before, after int, err error) {
	for _, o := range g.opts {
		if o.key != "A" && o.key != "B" && o.key != "C" {
			continue
		}
		n, e := strconv.Atoi(o.val)
		if e != nil || n < 0 {
			return 0, 0, errors.New(o.val + ": invalid context length argument")
		}
		switch o.key {
		case "A":
			after = n
		case "B":
			before = n
		default:
			before, after = n, n
		}
	}
	return before, after, nil
}

// operand greps one operand: stdin, a file, or under -r a tree.
func (g *grepper) operand(o string, recursive bool) {
	if o == "-" {
		g.file("(standard input)", g.Stdin)
		return
	}
	p := g.path(o)
	if o == "" {
		p = g.path(".")
	}
	fi, err := os.Stat(p)
	if err != nil {
		g.fail(o, err)
		return
	}
	if fi.IsDir() {
		if !recursive {
			g.fail(o, errIsDir)
			if has(g.opts, "c") { // GNU counts no lines in it
				g.out.WriteString(g.prefix(o, 0, ':', false) + "0\n")
			} else if has(g.opts, "L") {
				g.out.WriteString(o + "\n")
			}
			return
		}
		g.tree(o, p)
		return
	}
	if base := filepath.Base(o); g.excluded("exclude", base) || !g.included(base) {
		return // GNU's --include and --exclude judge command-line files too
	}
	g.openFile(o, p)
}

// tree greps the files below dir, in directory order as GNU's does.
func (g *grepper) tree(name, p string) {
	f, err := os.Open(p)
	if err != nil {
		g.fail(name, err)
		return
	}
	des, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		g.fail(name, err)
	}
	for _, d := range des {
		if g.done() {
			return
		}
		child := d.Name()
		if name != "" {
			child = joinShown(name, d.Name())
		}
		isDir := d.IsDir()
		if d.Type()&os.ModeSymlink != 0 {
			if !has(g.opts, "R") {
				continue // -r skips links below the operands
			}
			fi, err := os.Stat(filepath.Join(p, d.Name()))
			isDir = err == nil && fi.IsDir()
		}
		if isDir {
			if !g.excluded("exclude-dir", d.Name()) {
				g.tree(child, filepath.Join(p, d.Name()))
			}
			continue
		}
		if !g.excluded("exclude", d.Name()) && g.included(d.Name()) {
			g.openFile(child, filepath.Join(p, d.Name()))
		}
	}
}

// excluded reports a name that --exclude (or --exclude-dir) matches.
func (g *grepper) excluded(key, name string) bool {
	for _, o := range g.opts {
		if ok, _ := filepath.Match(o.val, name); o.key == key && ok {
			return true
		}
	}
	return false
}

// included reports a name --include lets through (all, without one).
func (g *grepper) included(name string) bool {
	any := false
	for _, o := range g.opts {
		if o.key == "include" {
			any = true
			if ok, _ := filepath.Match(o.val, name); ok {
				return true
			}
		}
	}
	return !any
}

func (g *grepper) openFile(name, p string) {
	f, err := os.Open(p)
	if err != nil {
		g.fail(name, err)
		return
	}
	defer f.Close()
	g.file(name, f)
}

// fail reports an operand grep cannot read; -s keeps it quiet.
func (g *grepper) fail(name string, err error) {
	g.failed = true
	if !has(g.opts, "s") {
		g.errorf("%s: %s", name, describe(err)) // grep names files as they are, unquoted
	}
}

// file greps one input.
func (g *grepper) file(name string, r io.Reader) {
	data, err := io.ReadAll(r)
	if err != nil {
		g.fail(name, err)
		return
	}
	binary := bytes.IndexByte(data, 0) >= 0
	if binary {
		// GNU's grep reads a binary file's NULs as line ends
		data = bytes.ReplaceAll(data, []byte{0}, []byte("\n"))
	}
	lines := splitLines(data)
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	selected := g.selectLines(lines)
	count := 0
	for _, s := range selected {
		if s {
			count++
		}
	}
	if count > 0 {
		g.matched = true
	}
	switch {
	case has(g.opts, "q"):
	case lastIndex(g.opts, "l") > lastIndex(g.opts, "L"): // the later of -l and -L wins
		if count > 0 {
			g.out.WriteString(name + "\n")
		}
	case has(g.opts, "L"):
		if count == 0 {
			g.out.WriteString(name + "\n")
		}
	case has(g.opts, "c"):
		g.out.WriteString(g.prefix(name, 0, ':', false) + strconv.Itoa(count) + "\n")
	case binary:
		if count > 0 {
			g.out.flush()
			io.WriteString(g.Stderr, "grep: "+name+": binary file matches\n")
		}
	default:
		g.print(name, lines, selected)
	}
}

// selectLines marks the lines grep selects (-v inverts).
func (g *grepper) selectLines(lines [][]byte) []bool {
	sel := make([]bool, len(lines))
	for i, l := range lines {
		sel[i] = len(g.matches(bytes.TrimSuffix(l, []byte("\n")))) > 0 != has(g.opts, "v")
	}
	return sel
}

// matches are the matches in line, whole words only under -w.
func (g *grepper) matches(line []byte) [][]int {
	all := g.re.FindAllIndex(line, -1)
	if !has(g.opts, "w") {
		return all
	}
	var words [][]int
	for _, m := range all {
		if (m[0] == 0 || !isWordByte(line[m[0]-1])) && (m[1] == len(line) || !isWordByte(line[m[1]])) && m[1] > m[0] {
			words = append(words, m)
		}
	}
	return words
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// print writes the selected lines with their context, "--" between
// groups that are not adjacent, or under -o each match alone.
func (g *grepper) print(name string, lines [][]byte, sel []bool) {
	show := make([]bool, len(lines))
	for i, s := range sel {
		if s {
			for j := max(0, i-g.before); j <= min(len(lines)-1, i+g.after); j++ {
				show[j] = true
			}
		}
	}
	prev := -2
	for i, l := range lines {
		if !show[i] || g.out.err != nil {
			continue
		}
		if (g.before > 0 || g.after > 0) && prev != i-1 && g.printedSomething {
			g.out.WriteString("--\n")
		}
		prev, g.printedSomething = i, true
		sep := byte('-')
		if sel[i] {
			sep = ':'
		}
		if has(g.opts, "o") {
			{ // every shown line's matches: under -v, its context lines'
				for _, m := range g.matches(bytes.TrimSuffix(l, []byte("\n"))) {
					if m[1] > m[0] {
						g.out.WriteString(g.prefix(name, i+1, sep, true) + string(l[m[0]:m[1]]) + "\n")
					}
				}
			}
			continue
		}
		g.out.WriteString(g.prefix(name, i+1, sep, true))
		g.out.Write(l)
		if !bytes.HasSuffix(l, []byte("\n")) {
			g.out.WriteString("\n")
		}
	}
}

// prefix is "NAME:" and "N:" (or "-" for context lines) as asked for.
func (g *grepper) prefix(name string, n int, sep byte, withNumber bool) string {
	var b strings.Builder
	if g.names {
		b.WriteString(name)
		b.WriteByte(sep)
	}
	if withNumber && has(g.opts, "n") {
		b.WriteString(strconv.Itoa(n))
		b.WriteByte(sep)
	}
	return b.String()
}
