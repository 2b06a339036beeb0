package chain

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// refuse builds a *ParseError.
func refuse(src string, off int, kind ErrorKind, construct, format string, args ...any) *ParseError {
	return &ParseError{Kind: kind, Construct: construct, Offset: off, Source: src,
		Message: fmt.Sprintf(format, args...)}
}

// sourceFacts are what the screen learns about a command line in its one
// pass, so later stages need not scan it again.
type sourceFacts struct {
	segments  int  // an over-count of segments: operator bytes, && and || once
	redirects int  // an over-count of redirects: < and > bytes
	hash      bool // a # occurs (a comment may)
	continued bool // a backslash-newline occurs
	crlf      int  // offset of the first CR before a newline, -1 when none
}

// Byte classes for the screen's one pass; most bytes have none.
const (
	scrBad byte = 1 << iota // refused ASCII control character
	scrNonASCII
	scrOp       // | ; & newline
	scrRedirect // < >
	scrHash
	scrBackslash
)

// screenClass is the class of each ASCII byte (every other byte is
// scrNonASCII), a literal the linker lays out: nothing is built at start.
var screenClass = [0x80]byte{
	0x00: scrBad, 0x01: scrBad, 0x02: scrBad, 0x03: scrBad, 0x04: scrBad, 0x05: scrBad, 0x06: scrBad,
	0x07: scrBad, 0x08: scrBad, 0x0b: scrBad, 0x0c: scrBad, 0x0d: scrBad, 0x0e: scrBad, 0x0f: scrBad,
	0x10: scrBad, 0x11: scrBad, 0x12: scrBad, 0x13: scrBad, 0x14: scrBad, 0x15: scrBad, 0x16: scrBad,
	0x17: scrBad, 0x18: scrBad, 0x19: scrBad, 0x1a: scrBad, 0x1b: scrBad, 0x1c: scrBad, 0x1d: scrBad,
	0x1e: scrBad, 0x1f: scrBad, 0x7f: scrBad,
	'\n': scrOp, '|': scrOp, ';': scrOp, '&': scrOp,
	'<': scrRedirect, '>': scrRedirect,
	'#': scrHash, '\\': scrBackslash,
}

// screen refuses characters that have no business in a command line
// before the parser sees them: invalid UTF-8, NUL and control characters
// other than tab and newline (a carriage return included: it hides text
// on a terminal; one before a newline is left for crOutsideBodies, since
// a heredoc body keeps it as written), the Unicode line separators, and bidi controls and
// invisible characters that make what a person reads differ from what
// runs. On the way it gathers the sourceFacts.
func screen(src string) (sourceFacts, error) {
	f := sourceFacts{segments: 1, crlf: -1}
	for i := 0; i < len(src); {
		c := src[i]
		k := scrNonASCII
		if c < 0x80 {
			k = screenClass[c]
		}
		if k == 0 {
			i++
			continue
		}
		switch k {
		case scrBad:
			if c == '\r' && i+1 < len(src) && src[i+1] == '\n' {
				// CRLF: kept as written inside a heredoc body, refused
				// anywhere else once the bodies are known (crOutsideBodies).
				if f.crlf < 0 {
					f.crlf = i
				}
				i++
				continue
			}
			return f, refuse(src, i, KindUnsupported, "control character",
				"control character %s is not allowed; only tab and newline are", controlName(rune(c)))
		case scrOp:
			// && and || count once; the & of >&, <& and &> is a redirect.
			prev := byte(0)
			if i > 0 {
				prev = src[i-1]
			}
			if prev != c && !(c == '&' && (prev == '>' || prev == '<' || i+1 < len(src) && src[i+1] == '>')) {
				f.segments++
			}
		case scrRedirect:
			f.redirects++
		case scrHash:
			f.hash = true
		case scrBackslash:
			if i+1 < len(src) && src[i+1] == '\n' {
				f.continued = true
			}
		case scrNonASCII:
			r, size := utf8.DecodeRuneInString(src[i:])
			if r == utf8.RuneError && size == 1 {
				return f, refuse(src, i, KindSyntax, "invalid UTF-8", "invalid UTF-8 byte 0x%02x", c)
			}
			if name, bad := invisibleRune(r); bad {
				return f, refuse(src, i, KindUnsupported, "invisible character",
					"%s (U+%04X) is not allowed: it makes the text read differently from what runs", name, r)
			}
			i += size
			continue
		}
		i++
	}
	return f, nil
}

func controlName(r rune) string {
	switch r {
	case 0:
		return "NUL"
	case '\r':
		return "carriage return (CR; use LF line endings)"
	case 0x7f:
		return "DEL"
	}
	return fmt.Sprintf("U+%04X", r)
}

// invisibleRune reports the characters refused anywhere in the input.
func invisibleRune(r rune) (string, bool) {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return "a C1 control character", true
	case r == 0x00ad:
		return "a soft hyphen", true
	case r >= 0x200b && r <= 0x200f:
		return "a zero-width or direction mark", true
	case r == 0x2028 || r == 0x2029:
		return "a Unicode line or paragraph separator", true
	case r >= 0x202a && r <= 0x202e:
		return "a bidirectional control", true
	case r >= 0x2060 && r <= 0x2064:
		return "an invisible operator", true
	case r >= 0x2066 && r <= 0x2069:
		return "a bidirectional isolate", true
	case r == 0xfeff:
		return "a zero-width no-break space (BOM)", true
	}
	return "", false
}

// crOutsideBodies refuses the first CR of a CRLF that is not inside a
// heredoc body: there bash keeps it as written (a file written with
// cat > f.bat <<'EOF' keeps its CRLF lines), anywhere else it would be
// part of a word, invisible on a terminal.
func crOutsideBodies(src string, c *Chain, first int) error {
	for i := first; i >= 0 && i < len(src); {
		if !inBody(c, i) {
			return crRefusal(src, i)
		}
		next := strings.Index(src[i+1:], "\r\n")
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return nil
}

func crRefusal(src string, off int) *ParseError {
	return refuse(src, off, KindUnsupported, "control character",
		"control character %s is not allowed outside a heredoc body; only tab and newline are", controlName('\r'))
}

func inBody(c *Chain, off int) bool {
	for _, p := range c.Pipelines {
		for _, s := range p.Segments {
			for _, r := range s.Redirects {
				if (r.Op == RedirHeredoc || r.Op == RedirHeredocTabs) && off >= r.BodySpan.Start && off < r.BodySpan.End {
					return true
				}
			}
		}
	}
	return false
}
