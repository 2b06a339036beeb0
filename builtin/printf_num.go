package builtin

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// cSpace is C's isspace, which strtoimax and strtold skip.
const cSpace = " \t\n\v\f\r"

// charValue reads bash's 'c and "c arguments: the character's code.
func (p *printer) charValue(a string) (int64, bool) {
	if a == "" || a[0] != '\'' && a[0] != '"' {
		return 0, false
	}
	rest := a[1:]
	if rest == "" {
		return 0, true
	}
	if p.utf8 {
		if r, n := utf8.DecodeRuneInString(rest); r != utf8.RuneError || n > 1 {
			return int64(r), true
		}
	}
	return int64(rest[0]), true
}

// intArg reads a signed argument as bash's getintmax does: strtoimax with
// base 0 (0x hex, 0 octal), 'c, and a message for what is not a number.
func (p *printer) intArg(a string) int64 {
	if v, ok := p.charValue(a); ok {
		return v
	}
	u, neg, n, overflow := scanCInt(a)
	var v int64
	switch {
	case !neg && u > math.MaxInt64:
		v, overflow = math.MaxInt64, true
	case neg && u > 1<<63:
		v, overflow = math.MinInt64, true
	case neg:
		v = -int64(u)
	default:
		v = int64(u)
	}
	p.checkNumber(a, n, overflow)
	return v
}

// uintArg reads an unsigned argument as getuintmax does (strtoumax: a
// minus sign negates modulo 2^64).
func (p *printer) uintArg(a string) uint64 {
	if v, ok := p.charValue(a); ok {
		return uint64(v)
	}
	u, neg, n, overflow := scanCInt(a)
	if overflow {
		u = math.MaxUint64
	} else if neg {
		u = -u
	}
	p.checkNumber(a, n, overflow)
	return u
}

// checkNumber reports an argument only partly (n bytes) a number, or out
// of range, with bash's messages.
func (p *printer) checkNumber(a string, n int, overflow bool) {
	switch {
	case a == "":
	case n < len(a) && strings.HasPrefix(a, "0x"):
		p.warn(a + ": invalid hex number")
	case n < len(a) && len(a) > 1 && a[0] == '0' && a[1] >= '0' && a[1] <= '9':
		p.warn(a + ": invalid octal number")
	case n < len(a):
		p.warn(a + ": invalid number")
	case overflow:
		// Only a warning: the status stays 0.
		p.io.fail(1, "printf: warning: "+a+": Numerical result out of range")
	}
}

// scanCInt scans an integer as strtoumax with base 0: its magnitude, its
// sign, how many bytes it used (0 when none) and whether it overflowed.
func scanCInt(a string) (u uint64, neg bool, n int, overflow bool) {
	i := len(a) - len(strings.TrimLeft(a, cSpace))
	if i < len(a) && (a[i] == '+' || a[i] == '-') {
		neg = a[i] == '-'
		i++
	}
	base := uint64(10)
	switch {
	case i+2 < len(a)+1 && strings.HasPrefix(strings.ToLower(a[i:]), "0x") && i+2 < len(a) && digitVal(a[i+2]) < 16:
		base, i = 16, i+2
	case i < len(a) && a[i] == '0':
		base = 8
	}
	start := i
	for ; i < len(a); i++ {
		d := digitVal(a[i])
		if d >= base {
			break
		}
		if overflow || u > (math.MaxUint64-d)/base {
			overflow, u = true, math.MaxUint64
			continue
		}
		u = u*base + d
	}
	if i == start {
		return 0, false, 0, false
	}
	return u, neg, i, overflow
}

func digitVal(c byte) uint64 {
	switch {
	case c >= '0' && c <= '9':
		return uint64(c - '0')
	case c >= 'a' && c <= 'f':
		return uint64(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return uint64(c-'A') + 10
	}
	return 99
}

// integer renders %d %i %o %u %x %X.
func (p *printer) integer(sp conv, arg string) {
	signed := sp.verb == 'd' || sp.verb == 'i'
	var v int64
	var u uint64
	if signed {
		v = p.intArg(arg)
	} else {
		u = p.uintArg(arg)
	}
	simple := !sp.hasPrec && (sp.flags == "" || sp.flags == "-" || sp.flags == "0" ||
		signed && (sp.flags == "+" || sp.flags == " "))
	if simple && sp.verb != 'X' {
		n := strconv.FormatInt(v, 10)
		if !signed {
			n = strconv.FormatInt(int64(u), 10)
		}
		if out, err := simpleFormat(simpleSpec(sp, sp.verb), n); err == nil {
			p.out = append(p.out, out...)
			return
		}
	}
	var digits, prefix string
	if signed {
		if v < 0 {
			prefix = "-"
		} else if strings.Contains(sp.flags, "+") {
			prefix = "+"
		} else if strings.Contains(sp.flags, " ") {
			prefix = " "
		}
		digits = strconv.FormatUint(absInt(v), 10)
	} else {
		base := map[byte]int{'o': 8, 'u': 10, 'x': 16, 'X': 16}[sp.verb]
		digits = strconv.FormatUint(u, base)
		if sp.verb == 'X' {
			digits = strings.ToUpper(digits)
		}
	}
	if sp.hasPrec && sp.prec == 0 && digits == "0" {
		digits = ""
	}
	if sp.hasPrec && len(digits) < sp.prec {
		digits = strings.Repeat("0", sp.prec-len(digits)) + digits
	}
	if strings.Contains(sp.flags, "#") {
		switch {
		case sp.verb == 'o' && !strings.HasPrefix(digits, "0"):
			digits = "0" + digits
		case sp.verb == 'x' && u != 0:
			prefix = "0x"
		case sp.verb == 'X' && u != 0:
			prefix = "0X"
		}
	}
	p.pad(sp, prefix+digits, !sp.hasPrec)
}

func absInt(v int64) uint64 {
	if v < 0 {
		return uint64(-(v + 1)) + 1
	}
	return uint64(v)
}

// floatArg reads a floating-point argument as strtold does, into a
// big.Float with the 64-bit mantissa of bash's long double.
func (p *printer) floatArg(a string) (f *big.Float, inf, nan bool) {
	if v, ok := p.charValue(a); ok {
		return new(big.Float).SetPrec(64).SetInt64(v), false, false
	}
	s := strings.TrimLeft(a, cSpace)
	lead := len(a) - len(s)
	neg := false
	body := s
	if body != "" && (body[0] == '+' || body[0] == '-') {
		neg = body[0] == '-'
		body = body[1:]
	}
	low := strings.ToLower(body)
	sign := 1
	if neg {
		sign = -1
	}
	for _, w := range []string{"infinity", "inf", "nan"} {
		if strings.HasPrefix(low, w) {
			p.checkNumber(a, len(a)-len(body)+len(w), false)
			if w == "nan" {
				return big.NewFloat(float64(sign)), false, true
			}
			return big.NewFloat(float64(sign)), true, false
		}
	}
	n := scanCFloat(body)
	if n == 0 {
		p.checkNumber(a, 0, false)
		return new(big.Float).SetPrec(64), false, false
	}
	f, _, err := big.ParseFloat(body[:n], 0, 64, big.ToNearestEven)
	if err != nil {
		f = new(big.Float).SetPrec(64)
	}
	if neg {
		f.Neg(f)
	}
	p.checkNumber(a, lead+len(s)-len(body)+n, false)
	return f, false, false
}

// scanCFloat returns the length of the decimal or hexadecimal float at
// the start of s, as strtold would read it (0 for none).
func scanCFloat(s string) int {
	hex := len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')
	i, base, exp := 0, uint64(10), byte('e')
	if hex {
		i, base, exp = 2, 16, 'p'
	}
	digits := 0
	for ; i < len(s) && digitVal(s[i]) < base; i++ {
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for ; i < len(s) && digitVal(s[i]) < base; i++ {
			digits++
		}
	}
	if digits == 0 {
		if hex {
			return 1 // strtold reads the 0 of 0x
		}
		return 0
	}
	if i < len(s) && (s[i]|0x20) == exp {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k > j {
			i = k
		}
	}
	return i
}

// float renders %e %E %f %F %g %G %a %A as glibc does for a long double.
func (p *printer) float(sp conv, arg string) {
	f, inf, nan := p.floatArg(arg)
	upper := sp.verb >= 'A' && sp.verb <= 'Z'
	neg := f.Signbit()
	var body string
	switch {
	case inf || nan:
		body = map[bool]string{true: "inf", false: "nan"}[inf]
		sp.flags = strings.ReplaceAll(sp.flags, "0", "")
	case sp.verb == 'a' || sp.verb == 'A':
		body = hexFloat(new(big.Float).Abs(f), sp)
	default:
		body = decFloat(new(big.Float).Abs(f), sp)
	}
	if upper {
		body = strings.ToUpper(body)
	}
	prefix := ""
	switch {
	case neg:
		prefix = "-"
	case strings.Contains(sp.flags, "+"):
		prefix = "+"
	case strings.Contains(sp.flags, " "):
		prefix = " "
	}
	p.pad(sp, prefix+body, true)
}

// decFloat renders |f| for %e, %f and %g.
func decFloat(f *big.Float, sp conv) string {
	prec := 6
	if sp.hasPrec {
		prec = sp.prec
	}
	alt := strings.Contains(sp.flags, "#")
	switch sp.verb | 0x20 {
	case 'e':
		return withPoint(f.Text('e', prec), alt)
	case 'f':
		return withPoint(f.Text('f', prec), alt)
	}
	if prec == 0 {
		prec = 1
	}
	e := f.Text('e', prec-1)
	x, _ := strconv.Atoi(e[strings.LastIndexByte(e, 'e')+1:])
	var s string
	if x < -4 || x >= prec {
		s = e
	} else {
		s = f.Text('f', prec-1-x)
	}
	if alt {
		return withPoint(s, true)
	}
	mant, exp, _ := strings.Cut(s, "e")
	if strings.Contains(mant, ".") {
		mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
	}
	if exp != "" {
		return mant + "e" + exp
	}
	return mant
}

// withPoint adds the decimal point # asks for when there is none.
func withPoint(s string, alt bool) string {
	if !alt || strings.Contains(s, ".") {
		return s
	}
	if i := strings.IndexByte(s, 'e'); i >= 0 {
		return s[:i] + "." + s[i:]
	}
	return s + "."
}

// hexFloat renders |f| for %a as glibc does for an x87 long double: the
// explicit integer bit makes the first hex digit 8-f (1.0 is 0x8p-3).
func hexFloat(f *big.Float, sp conv) string {
	if f.Sign() == 0 {
		s := "0x0"
		if sp.hasPrec && sp.prec > 0 {
			s += "." + strings.Repeat("0", sp.prec)
		} else if strings.Contains(sp.flags, "#") {
			s += "."
		}
		return s + "p+0"
	}
	mant := new(big.Float)
	exp := f.MantExp(mant) // f = mant × 2^exp, 0.5 <= mant < 1
	mi, _ := new(big.Float).SetMantExp(mant, 64).Int(nil)
	m := mi.Uint64()
	if sp.hasPrec && sp.prec < 15 {
		shift := uint(60 - 4*sp.prec)
		half, rest := uint64(1)<<(shift-1), m&(1<<shift-1)
		m &^= 1<<shift - 1
		if rest > half || rest == half && m>>shift&1 == 1 {
			if m += 1 << shift; m == 0 { // carried out of 64 bits
				m, exp = 1<<63, exp+1
			}
		}
	}
	frac := strconv.FormatUint(m&(1<<60-1)|1<<60, 16)[1:]
	if sp.hasPrec {
		frac = (frac + strings.Repeat("0", max(0, sp.prec-15)))[:sp.prec]
	} else {
		frac = strings.TrimRight(frac, "0")
	}
	s := "0x" + strconv.FormatUint(m>>60, 16)
	if frac != "" || strings.Contains(sp.flags, "#") {
		s += "." + frac
	}
	e := exp - 4
	if e >= 0 {
		return s + "p+" + strconv.Itoa(e)
	}
	return s + "p" + strconv.Itoa(e)
}
