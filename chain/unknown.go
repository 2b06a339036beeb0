package chain

// Words known only at run time. An argument whose value is known only
// when its segment starts ($? after an earlier command, a variable an
// earlier segment may or may not set, a glob over files an earlier segment
// may create), and any word the parser leaves for expansion, is judged
// before the run by what is written: Word.Runtime, Assign.Runtime and
// Redirect.Runtime say so, and the text is the word as written. The value
// is computed (package expand) and judged again just before the segment
// starts. Nothing in a string marks such a word: code that needs to know
// reads the flags, or the typed view Argv.

// Arg is one argument of a segment in its typed view (Segment.Argv).
type Arg struct {
	// Text is the argument's value, or, when Runtime is set, the word as
	// written ("$X", "out/*.o").
	Text string
	// Runtime is set for a word whose value is known only when its
	// segment starts.
	Runtime bool
}

// Argv returns the segment's arguments in the typed view: Args, each with
// the Runtime flag of the word it came from. A segment built without
// Words (or with Words that do not add up to Args) has every argument
// known.
func (s *Segment) Argv() []Arg {
	out := make([]Arg, len(s.Args))
	for i, a := range s.Args {
		out[i].Text = a
	}
	if !s.wordsMatchArgs() {
		return out
	}
	i := 0
	for _, w := range s.Words {
		for range w.Fields {
			out[i].Runtime = w.Runtime
			i++
		}
	}
	return out
}

// ArgRuntime reports whether argument i is known only at run time.
func (s *Segment) ArgRuntime(i int) bool {
	if !s.hasRuntimeWord() || !s.wordsMatchArgs() {
		return false
	}
	for _, w := range s.Words {
		if i < len(w.Fields) {
			return w.Runtime
		}
		i -= len(w.Fields)
	}
	return false
}

// HasRuntime reports whether any argument, assignment value or redirect
// of the segment is known only at run time.
func (s *Segment) HasRuntime() bool {
	if s.hasRuntimeWord() && s.wordsMatchArgs() {
		return true
	}
	for _, a := range s.Assigns {
		if a.Runtime {
			return true
		}
	}
	for _, r := range s.Redirects {
		if r.Runtime {
			return true
		}
	}
	return false
}

func (s *Segment) hasRuntimeWord() bool {
	for _, w := range s.Words {
		if w.Runtime {
			return true
		}
	}
	return false
}

// wordsMatchArgs reports whether Args are the Words' fields in order, as
// the parser and the expansion leave them.
func (s *Segment) wordsMatchArgs() bool {
	n := 0
	for _, w := range s.Words {
		n += len(w.Fields)
	}
	return n == len(s.Args)
}
