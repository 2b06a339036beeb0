package chain

import (
	"errors"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// MaxSourceLen is the longest command line Parse accepts, in bytes. Agents'
// chains are far shorter; a longer input is refused rather than judged.
const MaxSourceLen = 64 << 10

// Parser turns command lines into chains. The zero value parses in the
// host's dialect with the default size limit.
type Parser struct {
	// Dialect chooses how backslashes read; "" means HostDialect().
	Dialect Dialect
	// MaxLen overrides MaxSourceLen when positive.
	MaxLen int
}

// Parse parses src in the host's dialect.
func Parse(src string) (*Chain, error) { return (&Parser{}).Parse(src) }

// ParseDialect parses src in the given dialect.
func ParseDialect(src string, d Dialect) (*Chain, error) {
	return (&Parser{Dialect: d}).Parse(src)
}

// shParsers keeps a few mvdan parsers for reuse. A sync.Pool would be
// emptied by garbage collections, and building a parser costs more than
// parsing a short chain; a locked stack is cheaper than a channel.
var shParsers struct {
	sync.Mutex
	free []*syntax.Parser
}

func getShParser() *syntax.Parser {
	shParsers.Lock()
	if n := len(shParsers.free); n > 0 {
		p := shParsers.free[n-1]
		shParsers.free = shParsers.free[:n-1]
		shParsers.Unlock()
		return p
	}
	shParsers.Unlock()
	return syntax.NewParser(syntax.Variant(syntax.LangBash))
}

func putShParser(p *syntax.Parser) {
	shParsers.Lock()
	if len(shParsers.free) < 8 {
		shParsers.free = append(shParsers.free, p)
	}
	shParsers.Unlock()
}

// Parse turns one command line into a chain, or refuses it with a
// *ParseError naming the construct and its byte offset. Nothing outside
// the supported subset is ever passed through literally.
func (p *Parser) Parse(src string) (*Chain, error) {
	d := p.Dialect
	if d == "" {
		d = HostDialect()
	}
	if d != POSIX && d != Windows {
		return nil, &ParseError{Kind: KindSyntax, Construct: "dialect", Source: src,
			Message: "unknown dialect " + string(d) + " (want posix or windows)"}
	}
	limit := p.MaxLen
	if limit <= 0 {
		limit = MaxSourceLen
	}
	if len(src) > limit {
		return nil, refuse(src, limit, KindUnsupported, "input size",
			"command line is %d bytes, over the limit of %d", len(src), limit)
	}
	facts, err := screen(src)
	if err != nil {
		return nil, err
	}
	sp := getShParser()
	text := src
	if facts.hash && facts.continued {
		text = endComments(src)
	}
	f, err := sp.Parse(strings.NewReader(text), "")
	putShParser(sp)
	if err != nil {
		return nil, fromSyntaxError(src, err)
	}
	if len(f.Stmts) == 0 {
		return nil, refuse(src, 0, KindSyntax, "empty command", "empty command line: there is nothing to run")
	}
	l := newLowerer(src, d, facts)
	if err := l.file(f); err != nil {
		var pe *ParseError
		if facts.crlf >= 0 && errors.As(err, &pe) && facts.crlf < pe.Offset {
			return nil, crRefusal(src, facts.crlf) // the first problem in the text
		}
		return nil, err
	}
	if facts.crlf >= 0 {
		if err := crOutsideBodies(src, l.chain, facts.crlf); err != nil {
			return nil, err
		}
	}
	return l.chain, nil
}

// fromSyntaxError converts mvdan's errors into ours, naming empty segments
// and unterminated quotes in our own words.
func fromSyntaxError(src string, err error) error {
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		msg, construct := pe.Text, "syntax"
		if c := deferredExpansion(src, int(pe.Pos.Offset())); c != "" && !strings.Contains(msg, "reached EOF") {
			return refuse(src, int(pe.Pos.Offset()), KindUnsupported, c,
				"%s is not supported (bash reads its inside only when it runs the command, where %s)", c, msg)
		}
		switch {
		case strings.Contains(msg, "must be followed by `=`"):
			// mvdan reads name[x] in command position as an array
			// assignment; bash would glob it.
			off := int(pe.Pos.Offset())
			if i := strings.IndexByte(src[off:], '['); i >= 0 {
				off += i
			}
			return refuse(src, off, KindUnsupported, "glob",
				"name[…] in command position is read as an array assignment by the parser chainrun uses, while bash would glob it; quote the [ to pass it literally, or put the glob after the command")
		case strings.Contains(msg, "can only be used") && closingWord(quotedWord(msg)):
			// a closing reserved word such as fi or done where a command
			// should start.
			off := int(pe.Pos.Offset())
			if reservedAfterWord(src, off) {
				return refuse(src, off, KindUnsupported, "reserved word",
					"%s; bash would run a program of this name here, chainrun refuses it (quote the word)", msg)
			}
			return refuse(src, off, KindSyntax, "reserved word", "%s", msg)
		case strings.Contains(msg, "must be followed by"),
			strings.Contains(msg, "can only immediately follow"):
			construct = "empty segment"
			msg = "empty segment: " + msg
		case strings.Contains(msg, "heredoc words"):
			// bash would take such a delimiter literally.
			return refuse(src, int(pe.Pos.Offset()), KindUnsupported, "heredoc",
				"a heredoc delimiter with $ or ` is not supported; use a plain delimiter such as 'EOF'")
		case strings.Contains(msg, "here-document"):
			return refuse(src, int(pe.Pos.Offset()), KindUnsupported, "heredoc",
				"this heredoc has no line holding only its delimiter (bash would read to the end of the input); end the body with the delimiter line")
		case strings.Contains(msg, "without closing quote"),
			strings.Contains(msg, "reached EOF without"):
			construct = "unterminated quote"
		}
		return refuse(src, int(pe.Pos.Offset()), KindSyntax, construct, "%s", msg)
	}
	var le syntax.LangError
	if errors.As(err, &le) {
		return refuse(src, int(le.Pos.Offset()), KindUnsupported, le.Feature, "%s is not supported", le.Feature)
	}
	return refuse(src, 0, KindSyntax, "syntax", "%v", err)
}
