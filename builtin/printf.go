package builtin

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/chainrun/chainrun/builtin/spec"
	"mvdan.cc/sh/v3/expand"
)

// printf is bash's printf built-in. The format is reused while arguments
// remain; a missing argument reads as "" or 0. Directives mvdan.cc/sh's
// expand.Format renders as bash does (%s, %c and the integer conversions
// with plain flags and a width, on ASCII text) go to it; the rest of bash's
// printf is here: precision, # and the other flags, %X, the floating-point
// conversions with bash's long double, %b, %q and %Q with bash's quoting,
// %(fmt)T, * widths, 'c character values and bash's messages for numbers
// that are not. With -v VAR the output is assigned to the chain variable
// VAR instead of written (set, when given, receives it).
func printf(io *IO, args, env []string, set func(name, value string)) int {
	if len(args) > 0 && args[0] == "--help" {
		return help(io, "printf [-v var] format [arguments]", "Write the ARGUMENTS formatted by FORMAT, or with -v assign them to the variable VAR.")
	}
	var capture *bytes.Buffer
	if len(args) > 0 && strings.HasPrefix(args[0], "-v") {
		name, rest, code := printfVar(io, args)
		if code != 0 {
			return code
		}
		args, capture = rest, &bytes.Buffer{}
		defer func() { set(name, capture.String()) }()
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	} else if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		io.fail(2, "printf: "+args[0][:2]+": invalid option")
		return io.fail(2, "printf: usage: printf [-v var] format [arguments]")
	}
	if len(args) == 0 {
		return io.fail(2, "printf: usage: printf [-v var] format [arguments]")
	}
	p := &printer{io: io, env: env, utf8: localeIsUTF8(env), capture: capture}
	format, rest := args[0], args[1:]
	for {
		n, ok := p.format(format, rest)
		rest = rest[n:]
		if !ok || p.stop || n == 0 || len(rest) == 0 {
			break
		}
	}
	p.flush(len(p.out))
	if p.werr != 0 {
		return p.werr
	}
	return p.status
}

// flush writes the first n bytes of the output. bash's stdout is line
// buffered, so its printf writes each completed line as it goes, and a
// message about a bad argument lands between lines, not after them all.
func (p *printer) flush(n int) {
	if n == 0 {
		return
	}
	if p.capture != nil {
		p.capture.Write(p.out[:n])
	} else if p.werr == 0 {
		p.werr = p.io.write(1, p.out[:n])
	}
	if p.io.sigpipe {
		p.stop = true // bash's printf would have died here: nothing more
	}
	p.out = append(p.out[:0], p.out[n:]...)
}

// flushLines writes the completed lines of the output.
func (p *printer) flushLines() {
	if i := bytes.LastIndexByte(p.out, '\n'); i >= 0 {
		p.flush(i + 1)
	}
}

// printer is one printf's state.
type printer struct {
	io     *IO
	env    []string
	utf8   bool
	out    []byte // written up to the last newline, as bash's line buffer
	werr   int    // the status of a failed write
	status int
	stop   bool // \c in a %b argument: no more output
	// capture receives the output instead of fd 1 (printf -v).
	capture *bytes.Buffer
}

// printfVar reads printf's -v VAR (or -vVAR) and returns the variable and
// the arguments after it.
func printfVar(io *IO, args []string) (name string, rest []string, code int) {
	name, rest = strings.TrimPrefix(args[0], "-v"), args[1:]
	if name == "" {
		if len(rest) == 0 {
			io.fail(2, "printf: -v: option requires an argument")
			return "", nil, io.fail(2, "printf: usage: printf [-v var] format [arguments]")
		}
		name, rest = rest[0], rest[1:]
	}
	if !spec.ValidName(name) {
		return "", nil, io.fail(2, "printf: `"+name+"': not a valid identifier")
	}
	return name, rest, 0
}

// warn reports a bad argument as bash does and makes the status 1.
func (p *printer) warn(msg string) {
	p.io.fail(1, "printf: "+msg)
	p.status = 1
}

// conv is one conversion: %[flags][width][.precision][length]verb.
type conv struct {
	flags     string
	width     int
	hasWidth  bool
	prec      int
	hasPrec   bool
	precForm  byte // '0' digits, '.' a bare dot, '*' from an argument
	verb      byte
	timeFmt   string // %(fmt)T
	directive string // as written, for messages
}

// format writes format once with args and returns how many arguments it
// used; ok is false after an invalid directive, which ends printf.
func (p *printer) format(format string, args []string) (used int, ok bool) {
	next := func() (string, bool) {
		if used < len(args) {
			used++
			return args[used-1], true
		}
		return "", false
	}
	for i := 0; i < len(format) && !p.stop; {
		c := format[i]
		switch {
		case c == '\\':
			i = p.formatEscape(format, i)
		case c == '%' && i+1 < len(format) && format[i+1] == '%':
			p.out = append(p.out, '%')
			i += 2
		case c == '%':
			sp, j, msg := parseSpec(format, i, next, p)
			if msg != "" {
				p.warn(msg)
				return used, false
			}
			i = j
			arg, _ := next()
			p.convert(sp, arg)
			p.flushLines()
		default:
			j := i + 1
			for j < len(format) && format[j] != '\\' && format[j] != '%' {
				j++
			}
			p.out = append(p.out, format[i:j]...)
			i = j
		}
		if c != '%' {
			p.flushLines()
		}
	}
	return used, true
}

// parseSpec reads the directive at format[i] ('%'); * widths take their
// value from next. It returns the index after it, or bash's message.
func parseSpec(format string, i int, next func() (string, bool), p *printer) (sp conv, j int, msg string) {
	j = i + 1
	for j < len(format) && strings.IndexByte("-+ #0'", format[j]) >= 0 {
		sp.flags += format[j : j+1]
		j++
	}
	sp.width, sp.hasWidth, j = p.number(format, j, next)
	if j < len(format) && format[j] == '.' {
		j++
		sp.hasPrec, sp.precForm = true, '.'
		if j < len(format) && (format[j] == '*' || format[j] >= '0' && format[j] <= '9') {
			sp.precForm = '0'
			if format[j] == '*' {
				sp.precForm = '*'
			}
		}
		sp.prec, _, j = p.number(format, j, next)
	}
	for j < len(format) && strings.IndexByte("hjlLtz", format[j]) >= 0 {
		j++
	}
	if j < len(format) && format[j] == '(' {
		end := strings.IndexByte(format[j:], ')')
		if end < 0 || j+end+1 >= len(format) || format[j+end+1] != 'T' {
			return sp, j, "`" + format[i:] + "': missing format character"
		}
		sp.timeFmt, sp.verb = format[j+1:j+end], 'T'
		j += end + 2
		sp.directive = format[i:j]
		return sp, j, ""
	}
	if j >= len(format) {
		return sp, j, "`" + format[i:] + "': missing format character"
	}
	sp.verb = format[j]
	sp.directive = format[i : j+1]
	if strings.IndexByte("diouxXeEfFgGaAcsbqQ", sp.verb) < 0 {
		return sp, j, "`" + string(sp.verb) + "': invalid format character"
	}
	return sp, j + 1, ""
}

// number reads a width or precision: digits, or * for the next argument.
func (p *printer) number(format string, j int, next func() (string, bool)) (n int, set bool, end int) {
	if j < len(format) && format[j] == '*' {
		a, _ := next()
		v := p.intArg(a)
		return int(max(min(v, 1<<20), -(1 << 20))), true, j + 1
	}
	k := j
	for k < len(format) && format[k] >= '0' && format[k] <= '9' {
		k++
	}
	if k == j {
		return 0, false, j
	}
	v, _ := strconv.Atoi(format[j:k])
	return v, true, k
}

// convert renders one directive with its argument.
func (p *printer) convert(sp conv, arg string) {
	if sp.hasWidth && sp.width < 0 {
		sp.flags += "-"
		sp.width = -sp.width
	}
	if sp.hasPrec && sp.prec < 0 {
		sp.hasPrec = false
	}
	switch sp.verb {
	case 's':
		p.str(sp, arg)
	case 'b':
		p.str(sp, string(p.expandB(arg)))
	case 'q':
		p.str(sp, shellQuote(arg, p.utf8))
	case 'Q':
		// bash cuts the argument to a precision written in digits
		// before quoting it; a bare "." still cuts the quoted text, and
		// a "*" precision is read and left unused.
		if sp.precForm == '0' {
			arg = arg[:min(sp.prec, len(arg))]
		}
		sp.hasPrec = sp.precForm == '.'
		p.str(sp, shellQuote(arg, p.utf8))
	case 'c':
		p.char(sp, arg)
	case 'd', 'i', 'o', 'u', 'x', 'X':
		p.integer(sp, arg)
	case 'T':
		p.str(sp, p.strftime(sp.timeFmt, arg))
	default:
		p.float(sp, arg)
	}
}

// str writes s with the width and precision counted in bytes, as C's
// printf does; plain ASCII directives go to expand.Format.
func (p *printer) str(sp conv, s string) {
	if !sp.hasPrec && strings.Trim(sp.flags, "-") == "" && isASCII(s) {
		if out, err := simpleFormat(simpleSpec(sp, 's'), s); err == nil {
			p.out = append(p.out, out...)
			return
		}
	}
	if sp.hasPrec && sp.prec < len(s) {
		s = s[:sp.prec]
	}
	p.pad(sp, s, false)
}

// pad writes s within the width: spaces before it, after it with -, or
// zeros after its sign with 0 when zeros is set (numbers).
func (p *printer) pad(sp conv, s string, zeros bool) {
	fill := sp.width - len(s)
	switch {
	case fill <= 0:
		p.out = append(p.out, s...)
	case strings.Contains(sp.flags, "-"):
		p.out = append(p.out, s...)
		p.out = append(p.out, strings.Repeat(" ", fill)...)
	case zeros && strings.Contains(sp.flags, "0"):
		lead := 0
		if lead < len(s) && strings.IndexByte("+- ", s[lead]) >= 0 {
			lead++
		}
		if len(s) > lead+1 && s[lead] == '0' && (s[lead+1] == 'x' || s[lead+1] == 'X') {
			lead += 2
		}
		p.out = append(p.out, s[:lead]...)
		p.out = append(p.out, strings.Repeat("0", fill)...)
		p.out = append(p.out, s[lead:]...)
	default:
		p.out = append(p.out, strings.Repeat(" ", fill)...)
		p.out = append(p.out, s...)
	}
}

// char writes the first byte of arg, as bash 5.2 does in every locale
// (C's %c of "" writes a NUL byte).
func (p *printer) char(sp conv, arg string) {
	c := "\x00"
	if arg != "" {
		c = arg[:1]
	}
	sp.hasPrec = false
	p.pad(sp, c, false)
}

// simpleFormat is expand.Format of one argument, with a config of its own:
// given nil, Format prepares and writes into one config (and buffer)
// shared by the whole process, which concurrent chains would race on.
func simpleFormat(format, arg string) (string, error) {
	out, _, err := expand.Format(&expand.Config{}, format, []string{arg})
	return out, err
}

// simpleSpec renders sp for expand.Format: its one flag and width.
func simpleSpec(sp conv, verb byte) string {
	s := "%" + sp.flags
	if sp.hasWidth {
		s += strconv.Itoa(sp.width)
	}
	return s + string(verb)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
