package chain

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// endComments returns src with the body of every comment that ends in a
// backslash blanked out, so that mvdan's parser sees the comment end at
// its line break as bash does. mvdan reads a backslash-newline inside a
// comment as a line continuation and would swallow the next line into
// the comment; bash ends a comment at the newline whatever precedes it.
// Blanking keeps every offset, and a comment's text has no meaning.
//
// mvdan finds where comments start correctly, but after the first bad one
// the rest of its reading is off, so one comment is mended per parse.
func endComments(src string) string {
	p := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true))
	for range strings.Count(src, "#") {
		f, err := p.Parse(strings.NewReader(src), "")
		if err != nil {
			return src
		}
		hash := -1
		syntax.Walk(f, func(n syntax.Node) bool {
			if c, ok := n.(*syntax.Comment); ok && hash < 0 {
				at := int(c.Hash.Offset())
				if nl := strings.IndexByte(src[at:], '\n'); nl > 0 && src[at+nl-1] == '\\' {
					hash = at
				}
			}
			return hash < 0
		})
		if hash < 0 {
			return src
		}
		nl := hash + strings.IndexByte(src[hash:], '\n')
		src = src[:hash+1] + strings.Repeat(" ", nl-hash-1) + src[nl:]
	}
	return src
}
