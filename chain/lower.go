package chain

import (
	"fmt"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/chainrun/chainrun/builtin/spec"
	"github.com/chainrun/chainrun/internal/expr"
)

// lowerer turns mvdan's AST into the chain model, refusing everything
// outside the supported subset at the offset where it starts.
type lowerer struct {
	src     string
	dialect Dialect
	chain   *Chain
	nseg    int         // segments lowered so far
	scratch wordScanner // buffers reused from word to word

	// Slabs: a chain's small objects come from a few allocations sized by
	// estimate, since parsing cost is mostly allocation.
	estimate int // an over-count of the chain's segments
	nredirs  int // an over-count of its redirects
	segs     []Segment
	pipes    []Pipeline
	strs     []string
	ptrs     []*Segment
	redirs   []Redirect
	stage    []*Segment // the pipeline being lowered
	substs   []*Subst   // command substitutions of the segment being lowered
	inSubst  bool       // lowering a command substitution's inner chain
	inPart   bool       // lowering a compound command's part (a body, a condition)
	// params is set once a segment that sets the positional parameters
	// (set -- a b) has been lowered: $1, $#, $@ after it mean them.
	params bool
	// globstar is set once a shopt -s globstar has been lowered: ** is
	// then written for it.
	globstar bool
	// inRedirect is set while a redirect's target or text is lowered.
	inRedirect bool
}

// oneSegment holds, in one allocation, everything a chain of a single
// segment needs: the commonest chain is one command.
type oneSegment struct {
	chain   Chain
	pipePtr [1]*Pipeline
	pipe    [1]Pipeline
	seg     [1]Segment
	segPtr  [1]*Segment
	args    [4]string
}

// newLowerer prepares the lowering of src, with slabs sized by estimate.
func newLowerer(src string, d Dialect, facts sourceFacts) lowerer {
	est := facts.segments
	l := lowerer{src: src, dialect: d, estimate: est, nredirs: facts.redirects}
	if est == 1 {
		a := &oneSegment{}
		a.chain = Chain{Source: src, Dialect: d, Pipelines: a.pipePtr[:0]}
		l.chain, l.pipes, l.segs, l.ptrs, l.strs = &a.chain, a.pipe[:0], a.seg[:0], a.segPtr[:0], a.args[:0]
		return l
	}
	l.chain = &Chain{Source: src, Dialect: d, Pipelines: make([]*Pipeline, 0, est), Ops: make([]Op, 0, est-1)}
	return l
}

func (l *lowerer) newPipeline() *Pipeline {
	if len(l.pipes) == cap(l.pipes) {
		l.pipes = make([]Pipeline, 0, l.estimate)
	}
	l.pipes = l.pipes[:len(l.pipes)+1]
	return &l.pipes[len(l.pipes)-1]
}

func (l *lowerer) newSegment() *Segment {
	if len(l.segs) == cap(l.segs) {
		l.segs = make([]Segment, 0, l.estimate)
	}
	l.segs = l.segs[:len(l.segs)+1]
	return &l.segs[len(l.segs)-1]
}

// carve returns an empty slice with room for n elements, cut from slab;
// a new slab of at least size elements replaces one without room.
func carve[T any](slab *[]T, n, size int) []T {
	if n == 0 {
		return nil
	}
	if cap(*slab)-len(*slab) < n {
		*slab = make([]T, 0, max(n, size))
	}
	s := *slab
	*slab = s[:len(s)+n]
	return s[len(s) : len(s) : len(s)+n]
}

func (l *lowerer) off(p syntax.Pos) int { return int(p.Offset()) }

func (l *lowerer) file(f *syntax.File) error {
	for i, st := range f.Stmts {
		if i > 0 {
			l.chain.Ops = append(l.chain.Ops, OpSeq)
		}
		if err := l.andOr(st); err != nil {
			return err
		}
	}
	return nil
}

// andOr lowers a statement that may be a left-associative tree of && and
// || over pipelines.
func (l *lowerer) andOr(st *syntax.Stmt) error {
	if err := l.stmtFlags(st); err != nil {
		return err
	}
	if st.Background || st.Disown {
		if err := l.background(st); err != nil {
			return err
		}
	}
	b, ok := st.Cmd.(*syntax.BinaryCmd)
	if !ok || (b.Op != syntax.AndStmt && b.Op != syntax.OrStmt) {
		return l.pipeline(st)
	}
	if len(st.Redirs) > 0 {
		return refuse(l.src, l.off(st.Redirs[0].Pos()), KindUnsupported, "group",
			"a redirect of a whole && or || list needs a group, which is not supported")
	}
	if err := l.andOr(b.X); err != nil {
		return err
	}
	op := OpAnd
	if b.Op == syntax.OrStmt {
		op = OpOr
	}
	l.chain.Ops = append(l.chain.Ops, op)
	return l.andOr(b.Y)
}

// stmtFlags refuses what a statement's own flags ask for.
func (l *lowerer) stmtFlags(st *syntax.Stmt) error {
	switch {
	case st.Coprocess:
		return refuse(l.src, l.off(st.Pos()), KindUnsupported, "coprocess", "coprocesses are not supported")
	}
	return nil
}

func (l *lowerer) pipeline(st *syntax.Stmt) error {
	// The stages are appended straight to the pointer slab; if it grows
	// midway, this pipeline's stages move along and earlier pipelines
	// keep the old backing array.
	if cap(l.ptrs)-len(l.ptrs) < 2 {
		l.ptrs = make([]*Segment, 0, max(l.estimate, 4))
	}
	l.stage = l.ptrs[len(l.ptrs):]
	tc, err := l.timeClause(st)
	if err != nil {
		return err
	}
	if tc != nil {
		st = tc.Stmt
	}
	negated := st.Negated
	if negated {
		bare := *st
		bare.Negated = false
		st = &bare
	}
	if err := l.stages(st); err != nil {
		return err
	}
	if cap(l.stage) == cap(l.ptrs)-len(l.ptrs) {
		l.ptrs = l.ptrs[:len(l.ptrs)+len(l.stage)] // the stages are in the slab
	} else {
		l.ptrs = l.stage[len(l.stage):] // they outgrew it: go on after them
	}
	p := l.newPipeline()
	p.Segments = l.stage[:len(l.stage):len(l.stage)]
	p.Span = Span{p.Segments[0].Span.Start, p.Segments[len(p.Segments)-1].Span.End}
	p.Negated = negated
	if tc != nil {
		p.Span.Start, p.Timed, p.TimePOSIX = l.off(tc.Time), true, tc.PosixFormat
	}
	p.Background = st.Background
	if p.Background {
		if err := l.backgroundProcSubst(p); err != nil {
			return err
		}
	}
	l.chain.Pipelines = append(l.chain.Pipelines, p)
	return nil
}

// stages collects the segments of a | or |& pipeline in source order.
func (l *lowerer) stages(st *syntax.Stmt) error {
	if err := l.stmtFlags(st); err != nil {
		return err
	}
	if st.Negated {
		return refuse(l.src, l.off(st.Pos()), KindUnsupported, "negation",
			"! negates a whole pipeline; write it before the pipeline's first command")
	}
	if tc, ok := st.Cmd.(*syntax.TimeClause); ok {
		return l.timeCommand(tc)
	}
	b, ok := st.Cmd.(*syntax.BinaryCmd)
	if !ok || (b.Op != syntax.Pipe && b.Op != syntax.PipeAll) {
		seg, err := l.segment(st)
		if err != nil {
			return err
		}
		l.stage = append(l.stage, seg)
		return nil
	}
	if len(st.Redirs) > 0 {
		return refuse(l.src, l.off(st.Redirs[0].Pos()), KindUnsupported, "group",
			"a redirect of a whole pipeline needs a group, which is not supported")
	}
	if err := l.stages(b.X); err != nil {
		return err
	}
	if b.Op == syntax.PipeAll {
		// |& is 2>&1 | with the dup applied after the stage's own redirects.
		last := l.stage[len(l.stage)-1]
		at := l.off(b.OpPos)
		last.Redirects = append(last.Redirects, Redirect{Fd: 2, Op: RedirDupOut, Target: "1",
			Span: Span{at, at + 2}, Implicit: true})
	}
	return l.stages(b.Y)
}

// segment lowers one simple command.
func (l *lowerer) segment(st *syntax.Stmt) (*Segment, error) {
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok {
		if dc, isDecl := st.Cmd.(*syntax.DeclClause); isDecl && dc.Variant.Value == "export" {
			return l.export(st, dc)
		}
		if st.Cmd == nil {
			return nil, refuse(l.src, l.off(st.Pos()), KindUnsupported, "redirect without a command",
				"a redirect needs a command; chainrun does not create or truncate files on its own")
		}
		if seg, err, ok := l.compoundCommand(st); ok {
			return seg, err.orNil()
		}
		return nil, l.compound(st.Cmd)
	}
	if len(call.Args) == 0 && len(st.Redirs) > 0 {
		return nil, refuse(l.src, l.off(st.Redirs[0].Pos()), KindUnsupported, "redirect without a command",
			"a redirect needs a command; chainrun does not create or truncate files on its own")
	}
	if err := l.reservedCommand(st, call); err != nil {
		return nil, err
	}
	seg := l.startSegment(len(call.Args), len(st.Redirs))
	// Refusals are collected, not returned at once, so that the first in
	// source order is reported whatever kind of node it is in.
	var errs []*ParseError
	for _, a := range call.Assigns {
		as, err := l.assign(a)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		seg.Assigns = append(seg.Assigns, as)
	}
	for _, w := range call.Args {
		if err := l.addWord(seg, w, expr.Fields, ""); err != nil {
			errs = append(errs, err)
		}
	}
	errs = l.redirects(seg, st.Redirs, errs)
	if first := firstError(errs); first != nil {
		return nil, first
	}
	l.takeSubsts(seg)
	if len(call.Args) > 0 {
		if err := l.commandName(seg, call.Args[0]); err != nil {
			return nil, err
		}
	}
	l.endSegment(seg, call, st.Redirs)
	return seg, nil
}

// startSegment allocates the next segment with room for its words.
func (l *lowerer) startSegment(nargs, nredirs int) *Segment {
	seg := l.newSegment()
	seg.Index = l.nseg
	seg.dialect = l.dialect
	l.nseg++
	seg.Args = carve(&l.strs, nargs, 3*l.estimate)
	seg.Redirects = carve(&l.redirs, nredirs, l.nredirs)
	if nargs > 0 {
		seg.Words = make([]Word, 0, nargs)
	}
	return seg
}

func (l *lowerer) endSegment(seg *Segment, n syntax.Node, redirs []*syntax.Redirect) {
	seg.Span = l.segmentSpan(n, redirs)
	seg.Text = l.src[seg.Span.Start:seg.Span.End]
}

// addWord appends one argument word to seg: its value, or, when it
// expands, the word as written, known only at run time, and the syntax to
// expand.
func (l *lowerer) addWord(seg *Segment, w *syntax.Word, m expr.Mode, prefix string) *ParseError {
	lw, err := l.word(w, m == expr.Literal)
	if err != nil {
		return err
	}
	word := Word{Span: Span{l.off(w.Pos()), l.off(w.End())}, Expands: lw.syn != nil}
	if lw.syn != nil {
		word.Expr = expr.New(lw.syn, m, lw.tildeAfter)
	}
	if prefix != "" {
		word.Span.Start -= len(prefix)
	}
	v := prefix + lw.value
	if lw.syn != nil {
		v, word.Runtime = l.src[word.Span.Start:word.Span.End], true
	}
	word.Fields = []string{v}
	seg.Words = append(seg.Words, word)
	seg.Args = append(seg.Args, v)
	return nil
}

func firstError(errs []*ParseError) *ParseError {
	var first *ParseError
	for _, e := range errs {
		if first == nil || e.Offset < first.Offset {
			first = e
		}
	}
	return first
}

func (l *lowerer) segmentSpan(call syntax.Node, redirs []*syntax.Redirect) Span {
	s := Span{l.off(call.Pos()), l.off(call.End())}
	for _, r := range redirs {
		s.Start = min(s.Start, l.off(r.Pos()))
		end := r.End()
		if r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc {
			end = r.Word.End() // the body lines are not the segment's text
		}
		s.End = max(s.End, l.off(end))
	}
	return s
}

// commandName marks engine built-ins and refuses shell built-ins that only
// make sense inside a shell.
func (l *lowerer) commandName(seg *Segment, w *syntax.Word) *ParseError {
	if seg.Words[0].Expands {
		return nil // known when it runs: package expand settles it
	}
	name := seg.Args[0]
	if b, ok := builtinOf(seg.Args, l.dialect); ok {
		seg.Builtin = b
		return l.builtinArgs(seg, b)
	}
	if IsCommandWrapper(seg.Args) {
		return l.commandArgs(seg)
	}
	if hint, ok := shellBuiltin(name, l.dialect); ok {
		return refuse(l.src, l.off(w.Pos()), KindUnsupported, "shell built-in",
			"%q is a shell built-in that needs a shell; %s", name, hint)
	}
	return nil
}

// builtinOf finds the engine built-in a segment's words run: args[0] by
// name, except command NAME (which runs NAME: IsCommandWrapper) and
// command in another case, and, in the Windows dialect, cmd.exe's type
// (which prints files) and set without a bash option (set NAME=value,
// cmd.exe's).
func builtinOf(args []string, d Dialect) (Builtin, bool) {
	b, ok := lookupBuiltinDialect(args[0], d)
	switch {
	case !ok:
		return "", false
	case d == Windows && b == BuiltinType, d == Windows && b == BuiltinSet && !bashSet(args), IsCommandWrapper(args):
		return "", false
	case b == BuiltinCommand && args[0] != string(BuiltinCommand):
		return "", false // bash's command, as written: COMMAND is a program
	}
	return b, true
}

// bashSet reports set with an option (set -e, set +o pipefail): bash's set
// in any dialect.
func bashSet(args []string) bool {
	return len(args) > 1 && len(args[1]) > 1 && (args[1][0] == '-' || args[1][0] == '+')
}

// IsCommandWrapper reports a segment that runs command NAME … (see
// CommandWords).
func IsCommandWrapper(args []string) bool { return CommandWords(args) != nil }

// CommandWords returns the words command NAME … runs (NAME and its
// arguments), or nil when args are no such segment: bash runs NAME without
// its functions, and a chain has none, so the runner runs NAME as if
// command were not there, and the policy judges NAME through the command
// wrapper. command -v and -V (and command alone) are the engine built-in
// instead.
func CommandWords(args []string) []string {
	if len(args) < 2 || args[0] != string(BuiltinCommand) {
		return nil
	}
	q, at, bad := spec.Command(args[1:])
	if q != 0 || bad != "" || at >= len(args)-1 {
		return nil
	}
	return args[1+at:]
}

// lookupBuiltinDialect finds an engine built-in by name; the Windows
// dialect matches any case, as cmd.exe does.
func lookupBuiltinDialect(name string, d Dialect) (Builtin, bool) {
	if b, ok := LookupBuiltin(name); ok {
		return b, true
	}
	if d == Windows {
		for _, b := range spec.All {
			if strings.EqualFold(name, b.Name) {
				return Builtin(b.Name), true
			}
		}
	}
	return "", false
}

// shellBuiltin reports the bash built-ins chainrun refuses, with a hint.
func shellBuiltin(name string, d Dialect) (string, bool) {
	switch name {
	case "set", "declare", "typeset", "local", "readonly", "shift",
		"mapfile", "readarray", "getopts", "let":
		return "chainrun keeps only plain variables: set them with NAME=value or export NAME=value", true
	case "eval", "source", ".", "exec", "builtin", "alias", "unalias", "trap", "hash",
		"enable", "shopt", "ulimit", "umask", "jobs", "fg", "bg", "disown", "times",
		"history", "fc", "dirs", "pushd", "popd", "suspend", "logout", "return",
		"compgen", "complete", "compopt", "caller", "bind", "help":
		return "run the program directly instead", true
	}
	return "", false
}

// compound refuses a compound command with its construct's name.
func (l *lowerer) compound(c syntax.Command) *ParseError {
	at := l.off(c.Pos())
	name, msg := "", ""
	switch c := c.(type) {
	case *syntax.Subshell:
		name, msg = "subshell", "subshells ( … ) are not supported; use cd within the chain or the program's own directory option (git -C, make -C)"
	case *syntax.Block:
		name, msg = "group", "command groups { …; } are not supported; write the commands without the braces, each with the group's redirects"
	case *syntax.IfClause:
		name, msg = "control flow", "if is control flow, which is not supported; use && and ||"
	case *syntax.WhileClause:
		kw := "while"
		if c.Until {
			kw = "until"
		}
		name, msg = "control flow", kw+" loops are control flow, which is not supported; chainrun runs each command once: "+
			"call again to repeat, or use a program that waits or repeats (timeout, watch)"
	case *syntax.ForClause:
		name, msg = "control flow", "select menus wait for a choice typed at a terminal, which a chain does not have; run the command for the choice directly"
		if !c.Select {
			msg = "this for loop is not supported; write for NAME in WORDS; do …; done"
		}
	case *syntax.CaseClause:
		name, msg = "control flow", `case is control flow, which is not supported; use test with && and || ([ "$x" = a ] && echo A || echo other)`
	case *syntax.FuncDecl:
		name, msg = "control flow", "function definitions are not supported; write the function's commands out where it is called"
	case *syntax.ArithmCmd:
		name, msg = "control flow", "arithmetic commands (( … )) are not supported"
	case *syntax.TestClause:
		name, msg = "control flow", "[[ … ]] tests are not supported; use the test program ([ or test)"
	case *syntax.DeclClause:
		name, msg = "shell built-in", fmt.Sprintf("%q is a shell built-in that chainrun does not run; set variables with NAME=value, export NAME=value and unset NAME", c.Variant.Value)
	case *syntax.LetClause:
		name, msg = "shell built-in", "let is a shell built-in that needs a shell"
	case *syntax.TimeClause:
		name, msg = "time", "time inside time is not supported; time the pipeline once"
	case *syntax.CoprocClause:
		name, msg = "coprocess", "coprocesses are not supported"
	case *syntax.BinaryCmd:
		name, msg = "group", "this combination of operators needs a group, which is not supported"
	default:
		name, msg = "unsupported command", fmt.Sprintf("%T is not supported", c)
	}
	return refuse(l.src, at, KindUnsupported, name, "%s", msg)
}

// assign lowers a leading NAME=value.
func (l *lowerer) assign(a *syntax.Assign) (Assign, *ParseError) {
	at := l.off(a.Pos())
	if a.Append || a.Index != nil || a.Array != nil || a.Naked {
		return Assign{}, refuse(l.src, at, KindUnsupported, "array assignment",
			"only plain NAME=value assignments are supported")
	}
	as := Assign{Name: a.Name.Value, Span: Span{at, l.off(a.End())}}
	if a.Value != nil {
		lw, err := l.word(a.Value, true)
		if err != nil {
			return Assign{}, err
		}
		as.Value = lw.value
		if lw.syn != nil {
			as.Expr = expr.New(lw.syn, expr.Literal, lw.tildeAfter)
			as.Value, as.Runtime = l.src[l.off(a.Value.Pos()):l.off(a.Value.End())], true
		}
	}
	return as, nil
}

// loweredWord is a word after lowering: its value, or the syntax to
// expand when it expands.
type loweredWord struct {
	value      string
	syn        *syntax.Word
	tildeAfter bool
}

// word lowers a word: refusals first, then its value or what to expand.
// assignValue marks an assignment's value (a tilde after ':' expands).
func (l *lowerer) word(w *syntax.Word, assignValue bool) (loweredWord, *ParseError) {
	// Most words are one plain literal: nothing to refuse, nothing to
	// unquote, no backslash for a dialect warning.
	if len(w.Parts) == 1 {
		if lit, ok := w.Parts[0].(*syntax.Lit); ok {
			raw := l.src[l.off(lit.ValuePos):l.off(lit.ValueEnd)]
			if classify(raw) == 0 && raw == lit.Value {
				return loweredWord{value: raw}, nil
			}
		}
	}
	expands, err := l.parts(w.Parts)
	if err != nil {
		return loweredWord{}, err
	}
	if err := l.powerShellHereString(w); err != nil {
		return loweredWord{}, err
	}
	if expands {
		// The scanner reads quoting, not expansions; mvdan's expansion
		// reads the whole word.
		if err := l.globStar(w); err != nil {
			return loweredWord{}, err
		}
		if err := l.braceParams(w); err != nil {
			return loweredWord{}, err
		}
		return loweredWord{syn: l.bashWord(w), tildeAfter: mayTildeAfter(w)}, nil
	}
	sc, err := l.value(w, assignValue)
	if err != nil {
		return loweredWord{}, err
	}
	lw := loweredWord{value: sc.value}
	if sc.expands {
		if err := l.globStar(w); err != nil {
			return loweredWord{}, err
		}
		if err := l.braceParams(w); err != nil {
			return loweredWord{}, err
		}
		lw.syn, lw.tildeAfter = l.bashWord(w), sc.tildeAfter
	}
	return lw, nil
}

// mayTildeAfter reports whether an unquoted literal of w holds a '~'
// that may follow '=' or ':'; assignTildes decides exactly when it
// expands.
func mayTildeAfter(w *syntax.Word) bool {
	for i, p := range w.Parts {
		if lit, ok := p.(*syntax.Lit); ok && strings.Contains(lit.Value, "~") && (i > 0 || !strings.HasPrefix(lit.Value, "~") || strings.Count(lit.Value, "~") > 1) {
			return true
		}
	}
	return false
}

// braceParams refuses a $NAME that ends a brace alternative right before
// more name characters ({$N,x}1): bash expands braces on the text first
// and then reads $N1, a different variable; mvdan's expansion reads $N.
func (l *lowerer) braceParams(w *syntax.Word) *ParseError {
	c := &syntax.Word{Parts: append([]syntax.WordPart(nil), w.Parts...)}
	if !syntax.SplitBraces(c) {
		return nil
	}
	if n := braceCount(c); n > maxBraceWords {
		return refuse(l.src, l.off(w.Pos()), KindUnsupported, "brace expansion",
			"this brace expansion makes %d words, more than the %d chainrun expands; use seq or a loop in a program", n, maxBraceWords)
	}
	for i, p := range c.Parts {
		b, ok := p.(*syntax.BraceExp)
		if ok && crossCase(b) {
			return refuse(l.src, l.off(w.Pos()), KindUnsupported, "brace expansion",
				"a letter sequence from upper to lower case runs through [ \\ ] ^ _ ` between them, which bash then reads as text to unquote; write the letters out")
		}
		if !ok || i+1 >= len(c.Parts) {
			continue
		}
		if !startsName(c.Parts[i+1]) {
			continue
		}
		for _, e := range b.Elems {
			if n := len(e.Parts); n > 0 {
				if pe, ok := e.Parts[n-1].(*syntax.ParamExp); ok && pe.Short {
					return refuse(l.src, l.off(pe.Pos()), KindUnsupported, "brace expansion",
						"bash expands the braces first and then reads $%s joined to the text after them as a longer name; write ${%s} to mean the variable", pe.Param.Value, pe.Param.Value)
				}
			}
		}
	}
	return nil
}

// maxBraceWords bounds the words one brace expansion may make: the plan
// expands it before anything is judged, so {1..1000000000} must not.
const maxBraceWords = 100000

// braceCount is how many words the brace expansions of c make, capped
// just above maxBraceWords.
func braceCount(c *syntax.Word) int {
	n := 1
	for _, p := range c.Parts {
		b, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		k := 0
		if b.Sequence {
			k = sequenceLen(b)
		} else {
			for _, e := range b.Elems {
				k += braceCount(e)
			}
		}
		n *= max(k, 1)
		if n > maxBraceWords {
			return maxBraceWords + 1
		}
	}
	return n
}

// sequenceLen is the length of {x..y[..incr]}, numbers or letters.
func sequenceLen(b *syntax.BraceExp) int {
	x, y := b.Elems[0].Lit(), b.Elems[1].Lit()
	from, err1 := strconv.Atoi(x)
	to, err2 := strconv.Atoi(y)
	if err1 != nil || err2 != nil {
		return 64 // letters: at most the ASCII range between them
	}
	step := 1
	if len(b.Elems) > 2 {
		if s, err := strconv.Atoi(b.Elems[2].Lit()); err == nil && s != 0 {
			step = max(s, -s)
		}
	}
	d := to - from
	if d < 0 {
		d = -d
	}
	if d/step >= maxBraceWords {
		return maxBraceWords + 1
	}
	return d/step + 1
}

// crossCase reports a letter sequence {Z..c} that passes the characters
// between the two cases.
func crossCase(b *syntax.BraceExp) bool {
	if !b.Sequence || len(b.Elems) < 2 {
		return false
	}
	x, y := b.Elems[0].Lit(), b.Elems[1].Lit()
	if len(x) != 1 || len(y) != 1 {
		return false
	}
	upper := func(c byte) bool { return c >= 'A' && c <= 'Z' }
	lower := func(c byte) bool { return c >= 'a' && c <= 'z' }
	return upper(x[0]) && lower(y[0]) || lower(x[0]) && upper(y[0])
}

// startsName reports whether a part may begin with a name character: a
// literal that does, or a brace expansion one of whose words does.
func startsName(p syntax.WordPart) bool {
	switch p := p.(type) {
	case *syntax.Lit:
		return p.Value != "" && isNameByte(p.Value[0])
	case *syntax.BraceExp:
		for _, e := range p.Elems {
			if len(e.Parts) > 0 && startsName(e.Parts[0]) {
				return true
			}
		}
	}
	return false
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// globStar refuses ** in an unquoted literal: without globstar bash reads
// it as *, never the recursion it is written for.
func (l *lowerer) globStar(w *syntax.Word) *ParseError {
	if l.globstar {
		return nil
	}
	for _, p := range w.Parts {
		if lit, ok := p.(*syntax.Lit); ok {
			if i := strings.Index(lit.Value, "**"); i >= 0 && (i == 0 || lit.Value[i-1] != '\\') {
				return refuse(l.src, l.off(lit.Pos())+i, KindUnsupported, "glob",
					"** matches like * in bash without globstar, not recursively; use find (find . -name '*.go') or quote it")
			}
		}
	}
	return nil
}

// value computes a word's value and warns where the other dialect would
// read it differently.
func (l *lowerer) value(w *syntax.Word, assignValue bool) (scanned, *ParseError) {
	start, end := l.off(w.Pos()), l.off(w.End())
	sc, err := wordValue(l.src, start, end, l.dialect, assignValue, &l.scratch)
	if err != nil {
		return scanned{}, err
	}
	v := sc.value
	if raw := l.src[start:end]; strings.IndexByte(raw, '\\') >= 0 {
		l.dialectWarning(start, end, v, assignValue)
		if l.dialect == Windows && (strings.Contains(raw, "\\ ") || strings.Contains(raw, "\\\t")) {
			l.chain.Warnings = append(l.chain.Warnings, Warning{Offset: start, Message: fmt.Sprintf(
				"%s reads as «%s»: a backslash before a space escapes the space; for a path ending in a backslash write it in single quotes ('C:\\')", raw, v)})
		}
	}
	return sc, nil
}

func (l *lowerer) dialectWarning(start, end int, v string, assignValue bool) {
	other := POSIX
	if l.dialect == POSIX {
		other = Windows
	}
	osc, err := wordValue(l.src, start, end, other, assignValue, &l.scratch)
	ov := osc.value
	switch {
	case err != nil:
		l.chain.Warnings = append(l.chain.Warnings, Warning{Offset: start, Message: fmt.Sprintf(
			"%s reads as «%s» here; the %s dialect would refuse it: %s", l.src[start:end], v, other, err.Message)})
	case ov != v:
		l.chain.Warnings = append(l.chain.Warnings, Warning{Offset: start, Message: fmt.Sprintf(
			"%s reads as «%s» in the %s dialect but as «%s» in the %s dialect", l.src[start:end], v, l.dialect, ov, other)})
	}
}

// parts refuses the word parts chainrun does not expand and reports
// whether any part expands (parameters, arithmetic, $'…').
func (l *lowerer) parts(parts []syntax.WordPart) (bool, *ParseError) {
	expands := false
	for _, p := range parts {
		e, err := l.part(p)
		if err != nil {
			return false, err
		}
		expands = expands || e
	}
	return expands, nil
}

func (l *lowerer) part(p syntax.WordPart) (bool, *ParseError) {
	at := l.off(p.Pos())
	switch p := p.(type) {
	case *syntax.Lit:
		return false, nil
	case *syntax.SglQuoted:
		if p.Dollar {
			return true, l.checkNode(p)
		}
		return false, nil
	case *syntax.DblQuoted:
		if p.Dollar {
			return false, refuse(l.src, at, KindUnsupported, "locale quoting",
				`locale quoting $"…" is not supported; use plain double quotes`)
		}
		return l.parts(p.Parts)
	case *syntax.ParamExp, *syntax.ArithmExp:
		return true, l.checkExpansions(p)
	case *syntax.CmdSubst:
		return true, l.substitution(p)
	case *syntax.ProcSubst:
		return true, l.procSubst(p)
	}
	return false, l.refusePart(p)
}

// refusePart refuses a part chainrun never expands.
func (l *lowerer) refusePart(p syntax.WordPart) *ParseError {
	at := l.off(p.Pos())
	switch p := p.(type) {
	case *syntax.CmdSubst:
		// Words run command substitutions (substitution); inside ${…} or
		// $((…)) bash runs them only when that part is reached.
		return refuse(l.src, at, KindUnsupported, "command substitution",
			"a command substitution inside ${…} or $((…)) is not supported%s", substFix(l.src, p))
	case *syntax.ProcSubst:
		return refuse(l.src, at, KindUnsupported, "process substitution",
			"a process substitution inside ${…} is not supported; write it as a word of its own")
	case *syntax.ExtGlob:
		return refuse(l.src, at, KindUnsupported, "glob",
			"extended globs are not supported; quote the pattern to pass it literally")
	case *syntax.DblQuoted:
		return refuse(l.src, at, KindUnsupported, "locale quoting",
			`locale quoting $"…" is not supported; use plain double quotes`)
	}
	return refuse(l.src, at, KindUnsupported, "unsupported word", "%T is not supported", p)
}

// powerShellHereString refuses @'…'@ and @"…"@, which bash would read as
// ordinary text but which a model writing PowerShell means as a string.
func (l *lowerer) powerShellHereString(w *syntax.Word) *ParseError {
	raw := l.src[l.off(w.Pos()):l.off(w.End())]
	if strings.HasPrefix(raw, `@'`) || strings.HasPrefix(raw, `@"`) {
		return refuse(l.src, l.off(w.Pos()), KindUnsupported, "PowerShell syntax",
			"@'…'@ and @\"…\"@ are PowerShell here-strings; use ordinary quotes")
	}
	return nil
}

// redirect lowers one redirection.
func (l *lowerer) redirect(r *syntax.Redirect) (Redirect, *ParseError) {
	l.inRedirect = true
	defer func() { l.inRedirect = false }()
	at := l.off(r.Pos())
	rd := Redirect{Span: Span{at, l.off(r.End())}}
	if r.Op == syntax.RdrInOut {
		return rd, refuse(l.src, at, KindUnsupported, "redirect", "<> (open for reading and writing) is not supported")
	}
	fd, explicit, err := l.redirectFd(r)
	if err != nil {
		return rd, err
	}
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		rd.Fd = or(fd, explicit, 0)
		return l.heredoc(r, rd)
	case syntax.WordHdoc:
		rd.Fd = or(fd, explicit, 0)
		return l.hereString(r, rd)
	}
	lw, err := l.word(r.Word, false)
	if err != nil {
		return rd, err
	}
	rd.Target = lw.value
	if lw.syn != nil {
		if r.Op == syntax.DplOut || r.Op == syntax.DplIn {
			return rd, refuse(l.src, l.off(r.Word.Pos()), KindUnsupported, "redirect",
				"the target of >& or <& must be written out, not expanded")
		}
		rd.Target, rd.Expr = l.src[l.off(r.Word.Pos()):l.off(r.Word.End())], expr.New(lw.syn, expr.Fields, false)
		rd.Runtime = true
	}
	switch r.Op {
	case syntax.RdrOut, syntax.RdrClob:
		rd.Fd, rd.Op = or(fd, explicit, 1), RedirOut
	case syntax.AppOut:
		rd.Fd, rd.Op = or(fd, explicit, 1), RedirAppend
	case syntax.RdrIn:
		rd.Fd, rd.Op = or(fd, explicit, 0), RedirIn
	case syntax.RdrAll:
		rd.Fd, rd.Op = 1, RedirBoth
	case syntax.AppAll:
		rd.Fd, rd.Op = 1, RedirBothAppend
	case syntax.DplOut, syntax.DplIn:
		return l.dup(r, rd, fd, explicit)
	default:
		return rd, refuse(l.src, at, KindUnsupported, "redirect", "redirect %s is not supported", r.Op)
	}
	return rd, nil
}

func or(fd int, explicit bool, def int) int {
	if explicit {
		return fd
	}
	return def
}

// redirectFd reads the optional fd number before the operator.
func (l *lowerer) redirectFd(r *syntax.Redirect) (fd int, explicit bool, err *ParseError) {
	if r.N == nil {
		return 0, false, nil
	}
	at := l.off(r.N.Pos())
	n, convErr := strconv.Atoi(r.N.Value)
	if convErr != nil {
		return 0, false, refuse(l.src, at, KindUnsupported, "redirect",
			"{name}> (a redirect that allocates a variable fd) is not supported")
	}
	if n > MaxFd {
		return 0, false, refuse(l.src, at, KindUnsupported, "redirect",
			"file descriptor %d is above %d, which is not supported", n, MaxFd)
	}
	if (r.Op == syntax.RdrAll || r.Op == syntax.AppAll) && n != 1 {
		return 0, false, refuse(l.src, at, KindSyntax, "redirect", "%d&> is not a redirect", n)
	}
	return n, true, nil
}

// dup lowers n>&m and n<&m; >&word with no n and a non-number word means
// &>word, as in bash.
func (l *lowerer) dup(r *syntax.Redirect, rd Redirect, fd int, explicit bool) (Redirect, *ParseError) {
	at := l.off(r.Pos())
	out := r.Op == syntax.DplOut
	m, convErr := strconv.Atoi(rd.Target)
	switch {
	case rd.Target == "-" || strings.HasSuffix(rd.Target, "-") && convErr != nil && isDigits(strings.TrimSuffix(rd.Target, "-")):
		return rd, refuse(l.src, at, KindUnsupported, "redirect",
			"closing or moving a file descriptor (>&-, <&-, n>&m-) is not supported; redirect to /dev/null instead")
	case convErr == nil && isDigits(rd.Target):
		if m > MaxFd {
			return rd, refuse(l.src, at, KindUnsupported, "redirect",
				"file descriptor %d is above %d, which is not supported", m, MaxFd)
		}
		rd.Target = strconv.Itoa(m)
		if out {
			rd.Fd, rd.Op = or(fd, explicit, 1), RedirDupOut
		} else {
			rd.Fd, rd.Op = or(fd, explicit, 0), RedirDupIn
		}
		return rd, nil
	case out && (!explicit || fd == 1):
		rd.Fd, rd.Op = 1, RedirBoth
		return rd, nil
	}
	return rd, refuse(l.src, at, KindUnsupported, "redirect",
		"%s%s needs a file descriptor number (bash calls this an ambiguous redirect)", l.src[at:l.off(r.Word.Pos())], rd.Target)
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// redirects lowers a segment's redirects into it in source order,
// appending each refusal to errs.
func (l *lowerer) redirects(seg *Segment, rs []*syntax.Redirect, errs []*ParseError) []*ParseError {
	for _, r := range rs {
		rd, err := l.redirect(r)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		seg.Redirects = append(seg.Redirects, rd)
	}
	return errs
}
