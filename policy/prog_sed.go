package policy

import (
	"slices"
	"strings"
)

// sed reads its script (-e, or the first operand) and the files it names;
// -i edits them in place, and the script's r, w, e and s///w commands read
// and write other files or run programs. The read-only mode allows only
// its print form (sed -n 'Np').

func registerSed() {
	register(&program{names: []string{"sed", "gsed"}, operands: roleRead, first: roleCode, firstGiven: []string{"-e", "--expression", "-f", "--file"},
		operandFiles: sedOperands, guard: sedGuard, readOnly: true, readOnlyUnless: sedReadOnly, acceptEdits: true, editsInPlace: sedInPlace,
		opts: optSpec{shortVal: "efl", longVal: []string{"expression", "file", "line-length"},
			longFlag: []string{"quiet", "silent", "debug", "posix", "regexp-extended", "separate", "sandbox", "unbuffered", "null-data",
				"zero-terminated", "follow-symlinks", "help", "version"},
			abbrev: true,
			danger: map[string]string{"-i": sedInPlace, "--in-place": sedInPlace,
				"-f": "sed -f reads a script that cannot be checked", "--file": "sed --file reads a script that cannot be checked"},
			roles: map[string]fileRole{"-e": roleCode, "--expression": roleCode, "-f": roleRead, "--file": roleRead}}})
}

// sedGuard refuses sed's options that edit files or read a script from a
// file, and reads every script (-e, or the first operand) for the commands
// that run programs or write files.
func sedGuard(p *program, _ string, args []word) string {
	spec := &p.opts
	operands, opts := walkFlags(args, spec)
	inPlace := ""
	for _, o := range opts {
		if r, ok := spec.danger[o.flag]; ok {
			if r != sedInPlace {
				return r + " (" + o.word + ")"
			}
			if inPlace == "" {
				inPlace = r + " (" + o.word + ")"
			}
		}
	}
	scripts := sedScripts(spec, operands, opts)
	for _, w := range scripts {
		s, ok := w.known()
		if !ok {
			return sedUnreadable // a script known only at run time cannot be read
		}
		if r := sedScriptDanger(s); r != "" {
			return r
		}
	}
	if inPlace != "" {
		if r := sedInPlaceDanger(opts, operands, scripts); r != "" {
			return r
		}
	}
	// In-place editing comes last, so that what permits it as an Edit of
	// the operands (mode.go) sees it only when nothing else is wrong.
	return inPlace
}

// sedInPlaceDanger is why an in-place edit writes or reads more than its
// file operands: a backup suffix (a file beside each, or elsewhere), a
// script reading other files (r, R), or, for BSD sed, whose -i takes the
// next word as the suffix, a second operand that is then a script with
// such commands.
func sedInPlaceDanger(opts []flagUse, operands, scripts []word) string {
	short := false
	for _, o := range opts {
		if o.flag != "-i" && o.flag != "--in-place" {
			continue
		}
		suffix, given := sedSuffix(o)
		if given && !plainSuffix(suffix) {
			return "sed -i with a suffix naming another directory or the file's name writes backup files elsewhere (" + o.word + ")"
		}
		short = short || !strings.HasPrefix(o.word, "--") && !given
	}
	for _, w := range scripts {
		if s, _ := w.known(); len(sedScriptFiles(s)) > 0 {
			return "sed -i with a script that reads or writes other files"
		}
	}
	if short && len(operands) >= 2 && len(scripts) == 1 && sameWord(scripts[0], operands[0]) {
		if s, ok := operands[1].known(); ok {
			if r := sedScriptDanger(s); r != "" && r != sedUnreadable || len(sedScriptFiles(s)) > 0 {
				return "sed -i: BSD sed reads " + operands[1].show() + " as its script, which writes or reads other files"
			}
		}
	}
	return ""
}

// sedInPlace is the guard's reason for -i and --in-place: an edit of the
// file operands, which the path step judges as writes (editsInPlace).
const sedInPlace = "sed -i edits files in place"

// sedUnreadable is the reason for a script sedScriptDanger cannot read to
// the end: what it cannot read, it cannot clear.
const sedUnreadable = "sed script cannot be checked"

// sedDialect is one way a sed reads a script. The seds that may run it
// differ: GNU sed ends a label at ";" or a blank, POSIX and busybox sed at
// the newline; busybox sed skips a delimiter inside a bracket expression
// ("s/[/]/x/"), GNU sed does not. A script is judged under every dialect
// and the strictest reading wins.
type sedDialect struct{ gnuLabels, brackets bool }

var sedDialects = [...]sedDialect{{true, false}, {true, true}, {false, false}, {false, true}}

// sedScriptDanger reads a sed script far enough to find the commands and
// s/// flags that run programs (e) or write files (w, W), under every
// dialect. What it cannot read is reported too.
func sedScriptDanger(s string) string {
	for _, d := range sedDialects {
		p := &sedScript{s: s, d: d}
		if r := p.run(); r != "" {
			return r
		}
	}
	return ""
}

// sedScriptFiles are the files a script reads (r, R) and writes (w, W,
// s///w) under any dialect; an empty name (r alone) reads nothing.
func sedScriptFiles(s string) []fileArg {
	var files []fileArg
	for _, d := range sedDialects {
		p := &sedScript{s: s, d: d}
		p.run()
		for _, f := range p.files {
			if !slices.ContainsFunc(files, func(g fileArg) bool { return g.role == f.role && g.what == f.what && sameWord(g.word, f.word) }) {
				files = append(files, f)
			}
		}
	}
	return files
}

// sedScript is a cursor over a sed script read in one dialect; files
// collects the file names its commands name.
type sedScript struct {
	s     string
	i     int
	d     sedDialect
	files []fileArg
}

// run reads the whole script; it returns the first danger found.
func (p *sedScript) run() string {
	danger := ""
	for {
		p.skipWhile(" \t\n;")
		if !p.more() {
			return danger
		}
		if !p.addresses() {
			return sedUnreadable
		}
		p.skipWhile(" !")
		if !p.more() {
			return sedUnreadable
		}
		r := p.command()
		if r == sedUnreadable {
			return r
		}
		if danger == "" {
			danger = r
		}
	}
}

func (p *sedScript) more() bool { return p.i < len(p.s) }

// skipWhile moves past the bytes in set.
func (p *sedScript) skipWhile(set string) {
	for p.i < len(p.s) && strings.IndexByte(set, p.s[p.i]) >= 0 {
		p.i++
	}
}

// skipTo moves up to the next byte in stop.
func (p *sedScript) skipTo(stop string) {
	for p.i < len(p.s) && strings.IndexByte(stop, p.s[p.i]) < 0 {
		p.i++
	}
}

// fileName reads a file name to the end of the line, as every sed does
// for r, R, w, W and s///w.
func (p *sedScript) fileName(role fileRole, what string) {
	p.skipWhile(" \t")
	start := p.i
	p.skipTo("\n")
	p.files = append(p.files, fileArg{word: lit(p.s[start:p.i]), role: role, what: what})
}

// delimited reads up to the next unescaped delimiter d; a newline ends
// the text early unless it is the delimiter. In a regex (re) of a dialect
// that reads brackets, a bracket expression is skipped whole.
func (p *sedScript) delimited(d byte, re bool) bool {
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '\\':
			p.i += 2
			continue
		case c == '\n' && d != '\n':
			return false
		case c == '[' && re && p.d.brackets && d != '[':
			p.bracket()
			continue
		}
		p.i++
		if c == d {
			return true
		}
	}
	return false
}

// bracket skips a bracket expression: "[]x]" and "[^]x]" hold a "]",
// "[:alpha:]" classes are skipped whole.
func (p *sedScript) bracket() {
	p.i++
	if p.more() && p.s[p.i] == '^' {
		p.i++
	}
	if p.more() && p.s[p.i] == ']' {
		p.i++
	}
	for p.more() && p.s[p.i] != ']' && p.s[p.i] != '\n' {
		if p.s[p.i] == '[' && p.i+1 < len(p.s) && strings.IndexByte(":.=", p.s[p.i+1]) >= 0 {
			if end := strings.Index(p.s[p.i+2:], string(p.s[p.i+1])+"]"); end >= 0 {
				p.i += end + 4
				continue
			}
		}
		p.i++
	}
	if p.more() && p.s[p.i] == ']' {
		p.i++
	}
}

// addresses reads an optional address or range: "5", "$", "/re/I",
// "\,re,", "1,+3", "0~4".
func (p *sedScript) addresses() bool {
	if !p.address() {
		return false
	}
	if !p.more() || p.s[p.i] != ',' {
		return true
	}
	p.i++
	if p.more() && (p.s[p.i] == '+' || p.s[p.i] == '~') {
		p.i++
	}
	return p.address()
}

// address reads one address, if there is one.
func (p *sedScript) address() bool {
	if !p.more() {
		return true
	}
	switch c := p.s[p.i]; {
	case c >= '0' && c <= '9':
		p.skipWhile("0123456789~")
	case c == '$':
		p.i++
	case c == '/' || c == '\\':
		d := byte('/')
		if c == '\\' {
			if p.i+1 >= len(p.s) {
				return false
			}
			d = p.s[p.i+1]
			p.i++
		}
		p.i++
		if !p.delimited(d, true) {
			return false
		}
		p.skipWhile("IM")
	}
	return true
}

// command reads one command and its arguments. It returns why the command
// runs a program or writes a file, sedUnreadable for a command it does not
// know, or "".
func (p *sedScript) command() string {
	c := p.s[p.i]
	p.i++
	switch c {
	case '{', '}', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', '=', 'F':
	case '#', 'a', 'i', 'c':
		p.skipTo("\n")
	case ':', 'b', 't', 'T', 'v':
		p.label(c)
	case 'r', 'R':
		p.fileName(roleRead, "sed "+string(c))
	case 'q', 'Q', 'l', 'L':
		p.skipWhile(" 0123456789")
	case 'e':
		return "sed e command runs a program"
	case 'w', 'W':
		p.fileName(roleWrite, "sed "+string(c))
		return "sed " + string(c) + " command writes a file"
	case 's', 'y':
		return p.substitution(c == 's')
	default:
		return sedUnreadable
	}
	return ""
}

// label reads the label of ":", "b", "t", "T" (and v's version): GNU sed
// ends it at ";" or a blank (":" only at ";" or a blank, branches also at
// "}"), the other seds at the end of the line.
func (p *sedScript) label(c byte) {
	if !p.d.gnuLabels {
		p.skipTo("\n")
		return
	}
	p.skipWhile(" \t")
	if c == ':' {
		p.skipTo("; \t\n")
		return
	}
	p.skipTo("; \t\n}")
}

// substitution reads the body of s/re/repl/flags (withFlags) or
// y/src/dst/: the e and w flags run a program and write a file.
func (p *sedScript) substitution(withFlags bool) string {
	if !p.more() || p.s[p.i] == '\n' || p.s[p.i] == '\\' {
		return sedUnreadable
	}
	d := p.s[p.i]
	p.i++
	// Two delimited texts: the pattern and the replacement, or y's two
	// character lists.
	if !p.delimited(d, withFlags) || !p.delimited(d, false) {
		return sedUnreadable
	}
	if !withFlags {
		return ""
	}
	for p.more() && strings.IndexByte(";\n}", p.s[p.i]) < 0 {
		switch f := p.s[p.i]; {
		case f == 'e':
			return "sed s///e runs the pattern space as a command"
		case f == 'w':
			p.i++
			p.fileName(roleWrite, "sed s///w")
			return "sed s///w writes a file"
		case strings.IndexByte("gpiImM 0123456789", f) >= 0:
			p.i++
		default:
			return sedUnreadable
		}
	}
	return ""
}

// sedOperands: sed -i writes the files it reads, and the script names
// files of its own.
func sedOperands(p *program, files []fileArg, operands []word, opts []flagUse) []fileArg {
	for _, w := range sedScripts(&p.opts, operands, opts) {
		script, ok := w.known()
		if !ok {
			continue // a script known only at run time is judged when it starts
		}
		for _, f := range sedScriptFiles(script) {
			if !f.word.is("") {
				files = append(files, f)
			}
		}
	}
	return sedBackups(p.plainOperands(files, operands, opts, sedRole(opts)), opts)
}

// sedScripts are the scripts of a sed call: its -e values (the options
// whose role is code), else its first operand.
func sedScripts(spec *optSpec, operands []word, opts []flagUse) []word {
	scripts := spec.valuesOf(opts, roleCode)
	if len(scripts) == 0 && len(operands) > 0 {
		scripts = operands[:1]
	}
	return scripts
}

// sedSuffix is the backup suffix an -i or --in-place option gives
// (-i.bak, --in-place=.orig), if any: GNU sed writes FILE+SUFFIX beside
// each file it edits.
func sedSuffix(o flagUse) (string, bool) {
	if strings.HasPrefix(o.word, "--") {
		_, suffix, ok := strings.Cut(o.word, "=")
		return suffix, ok
	}
	i := strings.IndexByte(o.word, 'i')
	if i < 0 || i == len(o.word)-1 {
		return "", false
	}
	return o.word[i+1:], true
}

// plainSuffix reports a suffix that puts the backup beside the file under
// the file's name plus the suffix: no "/" (another directory) and no "*"
// (the file's name put elsewhere in it).
func plainSuffix(s string) bool { return s != "" && !strings.ContainsAny(s, `/\*`) }

// sedBackups are the backup files an in-place edit with a suffix writes:
// each file operand's name plus the suffix.
func sedBackups(files []fileArg, opts []flagUse) []fileArg {
	for _, o := range opts {
		if o.flag != "-i" && o.flag != "--in-place" {
			continue
		}
		suffix, given := sedSuffix(o)
		if !given || !plainSuffix(suffix) {
			continue
		}
		for _, f := range slices.Clone(files) {
			if name, ok := f.word.known(); ok && f.role == roleWrite && f.what == "path" {
				files = append(files, fileArg{word: lit(name + suffix), role: roleWrite, what: "sed -i backup"})
			}
		}
	}
	return files
}

// sedRole is the role of sed's file operands: written with -i.
func sedRole(opts []flagUse) fileRole {
	for _, o := range opts {
		if o.flag == "-i" || o.flag == "--in-place" || strings.HasPrefix(o.flag, "--in-place") {
			return roleWrite
		}
	}
	return roleRead
}

// sedReadOnly says why sed is not read-only here: only its print form is.
func sedReadOnly(rest []word) string {
	if !sedPrintOnly(rest) {
		return "sed is read-only only in its print form (sed -n 'Np')"
	}
	return ""
}

// sedPrintOnly accepts sed -n with a script of print commands: "5p",
// "1,10p", "$p", "/re/p", several joined by ";".
func sedPrintOnly(args []word) bool {
	quiet := false
	var script []word
	for _, a := range args {
		switch {
		case a.isOneOf("-n", "--quiet", "--silent"):
			quiet = true
		case a.hasPrefix("-"):
			return false
		default:
			script = append(script, a)
		}
	}
	if !quiet || len(script) == 0 {
		return false
	}
	first, ok := script[0].known()
	if !ok {
		return false
	}
	for _, cmd := range strings.Split(first, ";") {
		if !printCommand(strings.TrimSpace(cmd)) {
			return false
		}
	}
	return true
}

func printCommand(c string) bool {
	if !strings.HasSuffix(c, "p") {
		return false
	}
	addr := c[:len(c)-1]
	if addr == "" || addr == "$" {
		return true
	}
	one := func(a string) bool {
		if a == "$" {
			return true
		}
		if len(a) >= 2 && a[0] == '/' && a[len(a)-1] == '/' {
			return !strings.ContainsAny(a[1:len(a)-1], "/\\")
		}
		if a == "" {
			return false
		}
		for i := 0; i < len(a); i++ {
			if a[i] < '0' || a[i] > '9' {
				return false
			}
		}
		return true
	}
	if x, y, ok := strings.Cut(addr, ","); ok {
		return one(x) && one(y)
	}
	return one(addr)
}
