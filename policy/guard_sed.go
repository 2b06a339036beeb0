package policy

import "strings"

// sedGuard refuses sed's options that edit files or read a script from a
// file, and reads every script (-e, or the first operand) for the commands
// that run programs or write files.
func sedGuard(args []string) string {
	spec := &flagSpec{shortVal: "efl", longVal: []string{"expression", "file", "line-length"},
		known:  []string{"quiet", "silent", "debug", "posix", "regexp-extended", "separate", "sandbox", "unbuffered", "null-data", "zero-terminated", "follow-symlinks", "help", "version"},
		abbrev: true,
		danger: map[string]string{"-i": "sed -i edits files in place", "--in-place": "sed --in-place edits files in place",
			"-f": "sed -f reads a script that cannot be checked", "--file": "sed --file reads a script that cannot be checked"}}
	var scripts []string
	spec.check = func(flag, val string) string {
		if flag == "-e" || flag == "--expression" {
			scripts = append(scripts, val)
		}
		return ""
	}
	operands, r := scanFlags(args, spec)
	if r != "" {
		return r
	}
	if len(scripts) == 0 && len(operands) > 0 {
		scripts = operands[:1]
	}
	for _, s := range scripts {
		if r := sedScriptDanger(s); r != "" {
			return r
		}
	}
	return ""
}

// sedUnreadable is the reason for a script sedScriptDanger cannot read to
// the end: what it cannot read, it cannot clear.
const sedUnreadable = "sed script cannot be checked"

// sedScriptDanger reads a sed script far enough to find the commands and
// s/// flags that run programs (e) or write files (w, W). What it cannot
// read is reported too.
func sedScriptDanger(s string) string {
	p := &sedScript{s: s}
	for {
		p.skipWhile(" \t\n;")
		if !p.more() {
			return ""
		}
		if !p.addresses() {
			return sedUnreadable
		}
		p.skipWhile(" !")
		if !p.more() {
			return sedUnreadable
		}
		if r := p.command(); r != "" {
			return r
		}
	}
}

// sedScript is a cursor over a sed script.
type sedScript struct {
	s string
	i int
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

// delimited reads up to the next unescaped delimiter d; a newline ends
// the text early unless it is the delimiter.
func (p *sedScript) delimited(d byte) bool {
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '\\' {
			p.i += 2
			continue
		}
		if c == '\n' && d != '\n' {
			return false
		}
		p.i++
		if c == d {
			return true
		}
	}
	return false
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
		if !p.delimited(d) {
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
	case '#', ':', 'a', 'i', 'c', 'r', 'R':
		p.skipTo("\n")
	case 'b', 't', 'T', 'v':
		p.skipTo(";\n}")
	case 'q', 'Q', 'l', 'L':
		p.skipWhile(" 0123456789")
	case 'e':
		return "sed e command runs a program"
	case 'w', 'W':
		return "sed " + string(c) + " command writes a file"
	case 's', 'y':
		return p.substitution(c == 's')
	default:
		return sedUnreadable
	}
	return ""
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
	for range 2 {
		if !p.delimited(d) {
			return sedUnreadable
		}
	}
	if !withFlags {
		return ""
	}
	for p.more() && strings.IndexByte(";\n}", p.s[p.i]) < 0 {
		switch f := p.s[p.i]; {
		case f == 'e':
			return "sed s///e runs the pattern space as a command"
		case f == 'w':
			return "sed s///w writes a file"
		case strings.IndexByte("gpiImM 0123456789", f) >= 0:
			p.i++
		default:
			return sedUnreadable
		}
	}
	return ""
}
