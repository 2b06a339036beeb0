package chain

import (
	"github.com/chainrun/chainrun/builtin/spec"
)

// shoptArgs refuses a shopt chainrun does not carry out (an option that
// does not change expansion, extglob, shopt alone), naming the option,
// and notes globstar turned on for the words after it. An option bash
// does not know is left to the run, which fails as bash's does. Its
// words must be written out: what it turns on changes how later words
// are read.
func (l *lowerer) shoptArgs(seg *Segment) *ParseError {
	if anyExpands(seg) {
		return refuse(l.src, seg.Words[0].Span.Start, KindUnsupported, "shopt option",
			"shopt's words must be written out: the options change how the words after it are read")
	}
	a, err := spec.Shopt(seg.Args[1:])
	if err != nil && !err.Invalid {
		return refuse(l.src, seg.Words[0].Span.Start, KindUnsupported, "shopt option", "shopt %s", err.Error())
	}
	if err != nil || a.Mode != 's' {
		return nil
	}
	for _, n := range a.Names {
		if n == "globstar" {
			l.globstar = true
		}
	}
	return nil
}
