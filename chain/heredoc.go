package chain

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/chainrun/chainrun/internal/expr"
)

// heredoc lowers n<<WORD and n<<-WORD. The body is cut from the source
// text, not taken from mvdan's word, so it holds exactly the bytes bash
// feeds: with a quoted delimiter bash expands nothing; with an unquoted
// one it expands $, backticks and backslashes, so such a body is accepted
// only without them, where expansion changes nothing.
func (l *lowerer) heredoc(r *syntax.Redirect, rd Redirect) (Redirect, *ParseError) {
	rd.Op = RedirHeredoc
	if r.Op == syntax.DashHdoc {
		rd.Op = RedirHeredocTabs
	}
	wstart, wend := l.off(r.Word.Pos()), l.off(r.Word.End())
	rd.Span.End = wend
	rd.Delimiter = l.src[wstart:wend]
	delim, err := l.delimiter(r.Word)
	if err != nil {
		return rd, err
	}
	if r.Hdoc == nil {
		return rd, nil // the delimiter line follows at once: an empty body
	}
	// The body starts at a line start; mvdan's position may be past <<-'s tabs.
	start := strings.LastIndexByte(l.src[:l.off(r.Hdoc.Pos())], '\n') + 1
	body, span, lineEnd, ok := heredocBody(l.src, start, delim, rd.Op == RedirHeredocTabs)
	if !ok || lineEnd != l.off(r.Hdoc.End()) {
		return rd, refuse(l.src, start, KindUnsupported, "heredoc",
			"chainrun cannot tell exactly where this heredoc ends; end it with a line holding only %s", delim)
	}
	rd.Body, rd.BodySpan = body, span
	quoted := strings.ContainsAny(rd.Delimiter, `'"\`)
	if !quoted && strings.ContainsAny(l.src[span.Start:span.End], "$`\\") {
		return l.heredocExpands(r, rd, span)
	}
	return rd, nil
}

// heredocExpands lowers a body bash expands (an unquoted delimiter, and $
// or a backslash in it): parameters, arithmetic and \ escapes, expanded
// when the segment starts; a command substitution runs then too (one
// inside ${…} or $((…)) is refused).
func (l *lowerer) heredocExpands(r *syntax.Redirect, rd Redirect, span Span) (Redirect, *ParseError) {
	if i := strings.IndexByte(l.src[span.Start:span.End], '\r'); i >= 0 {
		// mvdan's word of the body drops the CR of CRLF lines.
		return rd, refuse(l.src, span.Start+i, KindUnsupported, "control character",
			"a carriage return in a body whose delimiter is unquoted is not supported; quote the delimiter (<<'%s') to keep CRLF lines as written, or use LF line endings", strings.Trim(rd.Delimiter, `'"\`))
	}
	for _, p := range r.Hdoc.Parts {
		if _, err := l.part(p); err != nil {
			if err.Construct == "command substitution" {
				err.Message += "; or quote the heredoc's delimiter (<<'EOF') to pass its body literally"
			}
			return rd, err
		}
	}
	body := r.Hdoc
	if rd.Op == RedirHeredocTabs {
		body = stripLeadingTabs(r.Hdoc)
	}
	rd.Body, rd.Expr, rd.Runtime = "", expr.New(body, expr.Document, false), true
	return rd, nil
}

// stripLeadingTabs returns a heredoc body word without the tabs that
// start its lines (<<-); mvdan's word keeps them. A line starts a body
// or follows a newline, which only a literal holds.
func stripLeadingTabs(w *syntax.Word) *syntax.Word {
	out := &syntax.Word{Parts: make([]syntax.WordPart, len(w.Parts))}
	lineStart := true
	for i, p := range w.Parts {
		lit, ok := p.(*syntax.Lit)
		if !ok {
			out.Parts[i], lineStart = p, false
			continue
		}
		var b strings.Builder
		for k := 0; k < len(lit.Value); k++ {
			c := lit.Value[k]
			if lineStart && c == '\t' {
				continue
			}
			lineStart = c == '\n'
			b.WriteByte(c)
		}
		out.Parts[i] = &syntax.Lit{ValuePos: lit.ValuePos, ValueEnd: lit.ValueEnd, Value: b.String()}
	}
	return out
}

// delimiter returns a heredoc delimiter's quote-removed value. Bash
// expands nothing in it, but a $ or backtick there reads as expansion to
// anyone else, so only literal and quoted text is accepted.
func (l *lowerer) delimiter(w *syntax.Word) (string, *ParseError) {
	for _, p := range w.Parts {
		ok := false
		switch p := p.(type) {
		case *syntax.Lit:
			ok = true
		case *syntax.SglQuoted:
			ok = !p.Dollar
		case *syntax.DblQuoted:
			ok = !p.Dollar && len(p.Parts) <= 1
			if ok && len(p.Parts) == 1 {
				_, ok = p.Parts[0].(*syntax.Lit)
			}
		}
		if !ok || strings.ContainsAny(l.src[l.off(p.Pos()):l.off(p.End())], "$`") {
			return "", refuse(l.src, l.off(p.Pos()), KindUnsupported, "heredoc",
				"a heredoc delimiter with $ or ` is not supported; use a plain delimiter such as 'EOF'")
		}
	}
	// The delimiter is always read as bash reads it, whatever the dialect.
	sc, err := wordValue(l.src, l.off(w.Pos()), l.off(w.End()), POSIX, false, &l.scratch)
	return sc.value, err
}

// heredocBody reads the body lines from start up to the line that is
// delim (after its leading tabs with tabs set). body is what the command
// reads: the lines with their newlines, tabs stripped with tabs set. span
// covers the body lines in src and lineEnd is where the delimiter line's
// text ends; ok is false when no line is delim.
func heredocBody(src string, start int, delim string, tabs bool) (body string, span Span, lineEnd int, ok bool) {
	var b strings.Builder
	for i := start; i <= len(src); {
		end := strings.IndexByte(src[i:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += i
		}
		line := src[i:end]
		if tabs {
			line = strings.TrimLeft(line, "\t")
		}
		if line == delim {
			if !tabs {
				return src[start:i], Span{start, i}, end, true
			}
			return b.String(), Span{start, i}, end, true
		}
		if end == len(src) {
			break
		}
		if tabs {
			b.WriteString(line)
			b.WriteByte('\n')
		}
		i = end + 1
	}
	return "", Span{start, len(src)}, 0, false
}

// hereString lowers n<<<word: the word's value and a newline, as bash
// feeds it. The word expands as an assignment's value does: parameters,
// a leading tilde, no splitting, no globbing.
func (l *lowerer) hereString(r *syntax.Redirect, rd Redirect) (Redirect, *ParseError) {
	rd.Op = RedirHereString
	lw, err := l.word(r.Word, false)
	if err != nil {
		return rd, err
	}
	rd.BodySpan = Span{l.off(r.Word.Pos()), l.off(r.Word.End())}
	rd.Body = lw.value + "\n"
	if lw.syn != nil {
		rd.Body, rd.Expr, rd.Runtime = "", expr.New(lw.syn, expr.Literal, false), true
	}
	return rd, nil
}
