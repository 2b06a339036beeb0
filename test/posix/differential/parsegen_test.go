//go:build unix

package differential

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// The parse suite's generated chains. Every program is named s<i> (the
// handler bash runs for it returns 0) or f<i> (returns 1), so that which
// segments bash runs reveals how it split the operators.

// assignNames are the only names generated assignments use; the bash
// handler reports each of them that is set.
var assignNames = []string{"A", "B1", "_u", "FOO_BAR", "lc"}

// pChain is a generated chain: its structure and its rendering.
type pChain struct {
	Pipes [][]*pSeg
	Ops   []string // between pipelines: && || ;
	// Inputs are the files its < redirects read; they are created first.
	Inputs []string
	Src    string
	// Traits name generated features that known bugs depend on.
	Traits map[string]bool
}

// pSeg is one generated simple command.
type pSeg struct {
	Assigns [][2]string
	Prog    string
	Args    []string
	Redirs  []pRedir
	// PipeAmp: this stage is followed by |& rather than |.
	PipeAmp bool
}

// pRedir is one generated redirect as chainrun's model spells it.
type pRedir struct {
	Fd       int    // -1: not written, the operator's default
	Op       string // as written: > >> >| < &> &>> >& <& << <<- <<<
	Target   string // a file name value, the fd for >& and <&, a here-string's value
	Implicit bool   // the 2>&1 of |&
	// Delim is a heredoc's delimiter as rendered ('EOF', \EOF, EOF) and
	// Body its lines as written, up to the delimiter line DelimLine.
	Delim, Body, DelimLine string
	// Where: the number of assignments and words rendered before it.
	Where int
}

// modelFd is the fd chainrun's model records for r.
func (r pRedir) modelFd() int {
	if r.Fd >= 0 {
		return r.Fd
	}
	switch r.Op {
	case "<", "<&", "<<", "<<-", "<<<":
		return 0
	}
	return 1
}

// modelOp is the operator chainrun's model records for r.
func (r pRedir) modelOp() string {
	if r.Op == ">|" {
		return ">"
	}
	return r.Op
}

// isOutputFile reports whether r creates or writes a file.
func (r pRedir) isOutputFile() bool {
	switch r.modelOp() {
	case ">", ">>", "&>", "&>>":
		return true
	}
	return false
}

// parseGen generates chains for the parse suite.
type parseGen struct {
	r      *rand.Rand
	q      *renderer
	files  int
	traits map[string]bool
	// bodies are the rendered heredocs' bodies and delimiter lines, in
	// source order, until render places them after the next newline.
	bodies []string
}

// newParseGen seeds a generator for case i of a suite run with seed:
// every case has its own stream, so one case replays alone.
func newParseGen(seed uint64, i int) *parseGen {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15^uint64(i)))
	return &parseGen{r: r, q: &renderer{r: r}}
}

// chain generates and renders one chain.
func (g *parseGen) chain() *pChain {
	c := &pChain{}
	g.files = 0
	g.traits = map[string]bool{}
	nPipes := 1 + g.r.IntN(4)
	idx := 0
	for p := range nPipes {
		if p > 0 {
			c.Ops = append(c.Ops, pick(g.r, "&&", "||", ";", ";"))
		}
		nStages := 1
		if g.r.IntN(3) == 0 {
			nStages = 2 + g.r.IntN(2)
		}
		var pipe []*pSeg
		for s := range nStages {
			seg := g.segment(c, idx, s < nStages-1)
			idx++
			pipe = append(pipe, seg)
		}
		c.Pipes = append(c.Pipes, pipe)
	}
	c.Src = g.render(c)
	c.Traits = g.traits
	return c
}

// argValue is a generated argument: mostly random, sometimes one of the
// shapes that trip parsers.
func (g *parseGen) argValue() string {
	if g.r.IntN(6) == 0 {
		return pick(g.r, "2", "10", "-n", "--", "a#b", "=", "a=b", "A=1", "#", "&&", "|", ";", "2>&1", ">", "''", `"`, `\`, `\\n`, "{a,b}", "*.go", "~", "$HOME", "$(x)", "`x`", " ", "\t", "\n", "")
	}
	return value(g.r, 8, true)
}

// fileValue is a new file name: unique in the chain, any bytes but / and
// newline.
func (g *parseGen) fileValue(prefix string) string {
	g.files++
	v := value(g.r, 5, false)
	v = strings.NewReplacer("/", "", "\n", "").Replace(v)
	return prefix + strconv.Itoa(g.files) + v
}

func (g *parseGen) segment(c *pChain, idx int, piped bool) *pSeg {
	s := &pSeg{Prog: "s" + strconv.Itoa(idx)}
	if g.r.IntN(4) == 0 {
		s.Prog = "f" + strconv.Itoa(idx)
	}
	for range g.r.IntN(3) * g.r.IntN(2) {
		s.Assigns = append(s.Assigns, [2]string{pick(g.r, assignNames...), value(g.r, 5, true)})
	}
	for range g.r.IntN(5) {
		s.Args = append(s.Args, g.argValue())
	}
	items := len(s.Assigns) + 1 + len(s.Args)
	openOut := []int{1, 2}
	openIn := []int{0}
	for range g.r.IntN(4) * g.r.IntN(2) {
		rd := pRedir{Fd: -1, Where: g.r.IntN(items + 1)}
		// Assignments must stay before the program word to be
		// assignments; a redirect may go anywhere.
		switch k := g.r.IntN(10); {
		case k < 4:
			rd.Op = pick(g.r, ">", ">", ">>", ">|", "&>", "&>>")
			if rd.Op[0] != '&' && g.r.IntN(2) == 0 {
				rd.Fd = pick(g.r, 1, 2, 2, 3, 4, 9)
			}
			rd.Target = g.fileValue("o")
			if rd.Op[0] == '&' {
				openOut = append(openOut, 1, 2)
			} else {
				openOut = append(openOut, rd.modelFd())
			}
		case k < 6:
			rd.Op = "<"
			if g.r.IntN(3) == 0 {
				rd.Fd = pick(g.r, 0, 3, 5)
			}
			rd.Target = g.fileValue("i")
			c.Inputs = append(c.Inputs, rd.Target)
			openIn = append(openIn, rd.modelFd())
		case k < 9:
			rd.Op = ">&"
			if g.r.IntN(3) > 0 {
				rd.Fd = pick(g.r, 1, 2, 3, 7)
			}
			rd.Target = strconv.Itoa(pick(g.r, openOut...))
			openOut = append(openOut, rd.modelFd())
		default:
			rd.Op = "<&"
			if g.r.IntN(2) == 0 {
				rd.Fd = pick(g.r, 0, 4)
			}
			rd.Target = strconv.Itoa(pick(g.r, openIn...))
			openIn = append(openIn, rd.modelFd())
		}
		s.Redirs = append(s.Redirs, rd)
	}
	// Redirects are rendered in source order; sort them by position,
	// keeping the generated order among equals (later ones may dup fds
	// opened by earlier ones, so order matters).
	sortStable(s.Redirs)
	if piped && g.r.IntN(8) == 0 {
		s.PipeAmp = true
	}
	return s
}

// sortStable orders redirects by Where, keeping their relative order for
// equal positions; since dups may name fds opened by earlier redirects, a
// redirect never moves before one generated earlier.
func sortStable(rs []pRedir) {
	for i := 1; i < len(rs); i++ {
		if rs[i].Where < rs[i-1].Where {
			rs[i].Where = rs[i-1].Where
		}
	}
}

// render writes the chain as source text.
func (g *parseGen) render(c *pChain) string {
	var b strings.Builder
	if g.r.IntN(20) == 0 {
		b.WriteString(pick(g.r, " ", "\t", "\n", " \n "))
	}
	for p, pipe := range c.Pipes {
		if p > 0 {
			next := g.renderSeg(pipe[0])
			b.WriteString(g.opText(c.Ops[p-1], next))
			b.WriteString(next)
		} else {
			b.WriteString(g.renderSeg(pipe[0]))
		}
		for i := 1; i < len(pipe); i++ {
			op := "|"
			if pipe[i-1].PipeAmp {
				op = "|&"
			}
			next := g.renderSeg(pipe[i])
			b.WriteString(g.opText(op, next))
			b.WriteString(next)
		}
	}
	switch g.r.IntN(25) {
	case 0:
		b.WriteString(";")
	case 1:
		b.WriteString(nlToken)
	case 2:
		b.WriteString(" #" + g.comment())
	}
	return g.placeBodies(b.String())
}

// Markers in a rendering before placeBodies: a newline that ends a line
// (not one inside quotes or a line continuation), and a heredoc operator.
const nlToken, hdocToken = "\x00", "\x01"

// placeBodies puts each heredoc's body and delimiter line after the first
// newline that ends its line, as bash reads them, or at the end.
func (g *parseGen) placeBodies(src string) string {
	var b strings.Builder
	seen, placed := 0, 0
	place := func() {
		for ; placed < seen; placed++ {
			b.WriteString(g.bodies[placed])
		}
	}
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case nlToken[0]:
			b.WriteByte('\n')
			place()
		case hdocToken[0]:
			seen++
		default:
			b.WriteByte(src[i])
		}
	}
	if placed < seen {
		b.WriteByte('\n')
		place()
	}
	g.bodies = g.bodies[:0]
	return b.String()
}

// comment is the text of a comment: anything but a newline.
func (g *parseGen) comment() string {
	c := strings.ReplaceAll(value(g.r, 10, false), "\n", " ")
	if strings.HasSuffix(c, `\`) {
		g.traits[traitCommentBackslash] = true
	}
	return c
}

// Traits of generated chains.
const (
	// A comment ends in a backslash, which bash does not read as a line
	// continuation.
	traitCommentBackslash = "comment-backslash"
	// cd into a path through .. (sub/..), which bash refuses when the
	// directory before the .. does not exist.
	traitCdDotDot = "cd-dotdot"
	// echo's arguments hold a \u escape, which bash's echo -e prints as
	// is in the C locale.
	traitEchoU = "echo-u-escape"
	// A stage that may print a shell message (not found, a failed
	// redirect) is not the last of its pipeline.
	traitMessagePiped = "message-piped"
)

// opText renders an operator with spacing variants; next is the rendering
// that follows it, which decides whether a blank is needed after it.
func (g *parseGen) opText(op, next string) string {
	return strings.ReplaceAll(g.opSpelling(op, next), "\n", nlToken)
}

// opSpelling is opText with plain newlines.
func (g *parseGen) opSpelling(op, next string) string {
	pre := pick(g.r, "", " ", " ", "\t")
	post := pick(g.r, "", " ", " ", "  ")
	switch op {
	case "&&", "||", "|", "|&":
		switch g.r.IntN(16) {
		case 0, 1:
			post = pick(g.r, "\n", " \n", "\n\t", " \n\n ")
		case 2:
			// A comment may follow an operator that continues the line.
			post = " #" + g.comment() + "\n"
		}
	case ";":
		switch g.r.IntN(6) {
		case 0:
			return pre + "\n" + post
		case 1:
			return pre + ";\n" + post
		case 2:
			return " #" + g.comment() + "\n" + post
		}
	}
	if post == "" && strings.HasPrefix(next, "&") {
		post = " "
	}
	return pre + op + post
}

// renderSeg renders one simple command with its redirects in place.
func (g *parseGen) renderSeg(s *pSeg) string {
	var words []string
	for _, a := range s.Assigns {
		v := a[1]
		if v == "" && g.r.IntN(2) == 0 {
			words = append(words, a[0]+"=")
			continue
		}
		words = append(words, a[0]+"="+g.q.word(v, wordOpts{hashStart: true}))
	}
	words = append(words, g.q.word(s.Prog, wordOpts{command: true}))
	for _, a := range s.Args {
		words = append(words, g.q.word(a, wordOpts{}))
	}
	var b strings.Builder
	prev := "" // the last rendered item
	ri := 0
	emitRedirs := func(where int) {
		for ri < len(s.Redirs) && s.Redirs[ri].Where == where {
			// An explicit fd glued to a word would join the word, and
			// a word of digits glued to an operator reads as its fd.
			rd := s.Redirs[ri]
			t := g.redirText(rd)
			if prev != "" && (g.r.IntN(3) > 0 || rd.Fd >= 0 || endsWithDigit(prev)) {
				b.WriteString(g.q.space())
			}
			b.WriteString(t)
			prev = t
			ri++
		}
	}
	for i, w := range words {
		emitRedirs(i)
		if prev != "" {
			b.WriteString(g.q.space())
		}
		b.WriteString(w)
		prev = w
	}
	emitRedirs(len(words))
	for ri < len(s.Redirs) { // positions past the end
		emitRedirs(s.Redirs[ri].Where)
	}
	return b.String()
}

func endsWithDigit(s string) bool {
	return s != "" && s[len(s)-1] >= '0' && s[len(s)-1] <= '9'
}

// redirText renders one redirect.
func (g *parseGen) redirText(r pRedir) string {
	var b strings.Builder
	if r.Fd >= 0 {
		b.WriteString(strconv.Itoa(r.Fd))
	}
	b.WriteString(r.Op)
	if r.Op == "<<" || r.Op == "<<-" {
		g.bodies = append(g.bodies, r.Body+r.DelimLine+"\n")
		return b.String() + pick(g.r, "", " ") + r.Delim + hdocToken
	}
	if g.r.IntN(3) == 0 {
		b.WriteString(pick(g.r, " ", "\t", "  "))
	}
	if r.Op == ">&" || r.Op == "<&" {
		b.WriteString(r.Target)
	} else {
		b.WriteString(g.q.word(r.Target, wordOpts{}))
	}
	return b.String()
}
