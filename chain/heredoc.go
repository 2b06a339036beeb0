package chain

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
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
	quoted := strings.ContainsAny(rd.Delimiter, `'"\`)
	if i := strings.IndexAny(l.src[span.Start:span.End], "$`\\"); !quoted && i >= 0 {
		return rd, refuse(l.src, span.Start+i, KindUnsupported, "heredoc expansion",
			"this heredoc's delimiter is unquoted, so bash would expand the %q in its body, and chainrun expands nothing; quote the delimiter (<<'%s') to pass the body literally",
			l.src[span.Start+i:span.Start+i+1], delim)
	}
	if !ok || lineEnd != l.off(r.Hdoc.End()) {
		return rd, refuse(l.src, start, KindUnsupported, "heredoc",
			"chainrun cannot tell exactly where this heredoc ends; end it with a line holding only %s", delim)
	}
	rd.Body, rd.BodySpan = body, span
	return rd, nil
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
	return wordValue(l.src, l.off(w.Pos()), l.off(w.End()), POSIX, false, &l.scratch)
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
// feeds it. The word's refusals are those of any argument, tilde and
// globs included (bash expands a leading ~ here; it would not glob, but
// refusing a glob character is the safe side).
func (l *lowerer) hereString(r *syntax.Redirect, rd Redirect) (Redirect, *ParseError) {
	rd.Op = RedirHereString
	if err := l.parts(r.Word.Parts); err != nil {
		return rd, err
	}
	v, err := l.value(r.Word, false)
	if err != nil {
		return rd, err
	}
	rd.Body = v + "\n"
	rd.BodySpan = Span{l.off(r.Word.Pos()), l.off(r.Word.End())}
	return rd, nil
}
