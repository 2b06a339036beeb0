package chain

import (
	"runtime"

	"github.com/chainrun/chainrun/builtin/spec"
	"github.com/chainrun/chainrun/internal/expr"
)

// Dialect chooses how backslashes read outside single quotes.
type Dialect string

const (
	// POSIX reads every input exactly as bash does.
	POSIX Dialect = "posix"
	// Windows keeps a backslash literal unless it precedes whitespace, a
	// quote, '$', a backtick or an operator character, so C:\Users\me and
	// \\server\share survive unquoted. Inside double quotes only \", \$ and
	// a backslash before a backtick escape.
	Windows Dialect = "windows"
)

// HostDialect is the dialect used when none is chosen: Windows on Windows,
// POSIX everywhere else.
func HostDialect() Dialect {
	if runtime.GOOS == "windows" {
		return Windows
	}
	return POSIX
}

// Span is a half-open byte range [Start, End) in the source command line.
type Span struct {
	Start int
	End   int
}

// Op joins two segments of a chain.
type Op string

const (
	OpPipe Op = "|"  // stdout of the left stage feeds stdin of the right
	OpAnd  Op = "&&" // run the right pipeline only if the left one exited 0
	OpOr   Op = "||" // run the right pipeline only if the left one failed
	OpSeq  Op = ";"  // run the right pipeline unconditionally (a newline reads as ;)
)

// Builtin names a command chainrun runs itself rather than spawning.
type Builtin string

// The engine built-ins. They behave the same on every OS and take
// precedence over programs and cmd.exe built-ins of the same name.
const (
	BuiltinCd    Builtin = "cd"
	BuiltinPwd   Builtin = "pwd"
	BuiltinEcho  Builtin = "echo"
	BuiltinTrue  Builtin = "true"
	BuiltinFalse Builtin = "false"
	BuiltinExit  Builtin = "exit"
	// bash's printf, test and [: agents use them constantly, and Windows
	// has no such programs.
	BuiltinPrintf  Builtin = "printf"
	BuiltinTest    Builtin = "test"
	BuiltinBracket Builtin = "["
	// export and unset change the chain's variables; a segment of
	// NAME=value words alone (no Args) sets them too.
	BuiltinExport Builtin = "export"
	BuiltinUnset  Builtin = "unset"
	// set changes the shell options chainrun runs (-e, -u, -o pipefail).
	BuiltinSet Builtin = "set"
	// command -v and -V, and type, say what a name is. command NAME is no
	// built-in: the runner runs NAME (CommandWrapper).
	BuiltinCommand Builtin = "command"
	BuiltinType    Builtin = "type"
	// read reads a line of the segment's stdin into variables.
	BuiltinRead Builtin = "read"
	// : does nothing; break and continue leave a loop or its iteration.
	BuiltinColon    Builtin = ":"
	BuiltinBreak    Builtin = "break"
	BuiltinContinue Builtin = "continue"
	// shift drops the first positional parameters, which set -- gives.
	BuiltinShift Builtin = "shift"
	// shopt sets the options that change how words expand (globstar …).
	BuiltinShopt Builtin = "shopt"
)

// LookupBuiltin reports whether name is an engine built-in: a name of
// spec.All, where each built-in's record (name and effects) lives.
func LookupBuiltin(name string) (Builtin, bool) {
	if _, ok := spec.Lookup(name); ok {
		return Builtin(name), true
	}
	return "", false
}

// Chain is a parsed command line: pipelines joined by &&, || and ;.
// It is exactly what the policy judges and what Run spawns.
type Chain struct {
	// Source is the command line the chain was parsed from.
	Source string
	// Dialect is the dialect it was parsed with.
	Dialect Dialect
	// Pipelines in source order.
	Pipelines []*Pipeline
	// Ops joins Pipelines[i] and Pipelines[i+1]; each is &&, || or ;.
	Ops []Op
	// Warnings say where another dialect would read the input differently.
	Warnings []Warning
}

// Pipeline is one or more segments joined by |. Its status is its last
// stage's (or, with pipefail, the rightmost non-zero one).
type Pipeline struct {
	Segments []*Segment
	// Span covers the pipeline in Source, a leading time keyword included.
	Span Span
	// Timed is set for a pipeline after bash's time keyword: it runs as
	// written, then the chain's stderr gets the report TIMEFORMAT shapes
	// (real, user and system time). time is no command: the policy judges
	// the pipeline alone.
	Timed bool
	// TimePOSIX is set by time -p: the report in POSIX's fixed format,
	// whatever TIMEFORMAT says.
	TimePOSIX bool
	// Negated is set after bash's ! keyword: the pipeline's status is
	// inverted (0 for non-zero, 1 for 0), and set -e ignores it.
	Negated bool
	// Background is set for a pipeline written with & after it: it
	// starts, with its stdin from the null device, and the chain goes on
	// at once with status 0, as bash's does; the Op after it is ;.
	Background bool
}

// Segment is one simple command: leading assignments, argv and redirects.
// A segment of assignments alone (no Args) sets shell variables for the
// rest of the chain, as NAME=value does in bash.
type Segment struct {
	// Index is the segment's position in the whole chain, from 0.
	Index int
	// Assigns are the leading NAME=value words, set for this segment only
	// (for the rest of the chain when there are no Args).
	Assigns []Assign
	// Args is the argv: the fields of Words in order. A word that expands
	// is known only at run time (Word.Runtime), its text as written, until
	// package expand computes its fields. Argv is the typed view.
	Args []string
	// Words are the argument words as written, with their fields.
	Words []Word
	// Redirects in source order; a |& adds an implicit 2>&1 at the end.
	Redirects []Redirect
	// Builtin is set when Args[0] names an engine built-in.
	Builtin Builtin
	// Span covers the segment's words and redirects in Source.
	Span Span
	// Text is Source[Span.Start:Span.End], for messages.
	Text string
	// Dir is, in a plan (expand.Plan), the directory the segment was
	// planned to start in, or "" when that is known only at run time.
	Dir string
	// Substs are the command substitutions in the segment's words,
	// assignment values, redirect targets and here-strings, in source
	// order; the words that hold them are known only at run time.
	Substs []*Subst
	// Compound is set for a compound command (if, a loop, case, a group,
	// a subshell): the segment has no words, only the compound's own
	// redirects.
	Compound *Compound

	dialect Dialect
}

// IsBuiltin reports whether the segment runs as an engine built-in.
func (s *Segment) IsBuiltin() bool { return s.Builtin != "" }

// Env returns the segment's assignments as a map, the later one winning.
func (s *Segment) Env() map[string]string {
	m := make(map[string]string, len(s.Assigns))
	for _, a := range s.Assigns {
		m[a.Name] = a.Value
	}
	return m
}

// Assign is a leading NAME=value word of a segment (or an argument of
// export). When the value expands, Runtime is set and Value is the value
// as written until package expand computes it.
type Assign struct {
	Name  string
	Value string
	Span  Span
	// Runtime is set when Value is known only at run time: Value is then
	// the text as written, not a value.
	Runtime bool

	// Expr is what the value expands from (package expand reads it);
	// zero when it does not expand.
	Expr expr.Expr
}

// Expands reports whether the value expands.
func (a Assign) Expands() bool { return expr.Syntax(a.Expr) != nil }

// Word is one argument word of a segment as written, and what it expanded
// to. A word without expansions is its own single field, known at parse
// time; a word with expansions (parameters, $?, tilde, globs, braces,
// $'…', $((…))) gets its fields from package expand.
type Word struct {
	// Span covers the word in Chain.Source.
	Span Span
	// Expands is set when bash would expand something in the word.
	Expands bool
	// Fields are the arguments the word became: Args[First:First+len(Fields)]
	// of the segment. Before expansion an expanding word has one field,
	// the word as written, and Runtime set.
	Fields []string
	// Globbed is set when the word had unquoted pattern characters and
	// was matched against the files: its fields are the matches, or the
	// word as written when nothing matched (bash's default).
	Globbed bool
	// Runtime is set for a word whose value is known only when its
	// segment starts (before expansion, every word that expands); its one
	// field is then the word as written, not a value.
	Runtime bool

	// Expr is what the word expands from (package expand reads it); zero
	// when it does not expand.
	Expr expr.Expr
}

// Redirect is one redirection of a segment.
type Redirect struct {
	// Fd is the descriptor redirected: 1 for > and >>, 0 for <, explicit n
	// for n>. For &> and &>> it is 1 (both 1 and 2 are redirected).
	Fd int
	// Op is the operator; >| is recorded as >, and >&word with a word that
	// is not a descriptor number as &> (bash's reading), so a RedirDupOut
	// or RedirDupIn target is always a number.
	Op RedirOp
	// Target is a path, or for >& and <& the source fd number ("1").
	Target string
	// Span covers the redirect in Source; the implicit 2>&1 of |& covers
	// the |& operator.
	Span Span
	// Implicit marks the 2>&1 that |& adds.
	Implicit bool
	// Body is, for a heredoc or here-string, the exact bytes fd Fd reads:
	// the heredoc's lines as written (<<- without their leading tabs), or
	// the here-string's value and a newline. It is text, never a path:
	// Target stays empty, so nothing judges or opens it as a file.
	Body string
	// BodySpan covers the heredoc's body lines in Source (without the
	// delimiter line), or the here-string's word.
	BodySpan Span
	// Delimiter is a heredoc's delimiter word as written ('EOF', EOF).
	Delimiter string
	// Ambiguous is set when the target expanded to no word or to several:
	// bash's "ambiguous redirect", which fails the command with status 1.
	Ambiguous bool
	// Runtime is set when the target or body is known only at run time:
	// Target is then the target as written (Body empty), not a path.
	Runtime bool

	// Expr is what the target, or the heredoc body or here-string,
	// expands from (package expand reads it); zero when nothing expands.
	Expr expr.Expr
}

// Expands reports whether the target or body expands: an unquoted
// heredoc body with $ or \ in it, a target or here-string with an
// expansion. Until package expand computes it, Runtime is set and
// Target is the text as written (Body empty).
func (r Redirect) Expands() bool { return expr.Syntax(r.Expr) != nil }

// RedirOp is a redirect operator as chainrun's model spells it.
type RedirOp string

// The supported redirect operators. ">|" is read as RedirOut; "n<&m" is
// RedirDupIn.
const (
	RedirOut        RedirOp = ">"   // n>file  (default n=1): truncate or create
	RedirAppend     RedirOp = ">>"  // n>>file (default n=1): append, O_APPEND
	RedirIn         RedirOp = "<"   // n<file  (default n=0)
	RedirDupOut     RedirOp = ">&"  // n>&m    (default n=1): fd n becomes a copy of fd m
	RedirDupIn      RedirOp = "<&"  // n<&m    (default n=0): fd n becomes a copy of fd m
	RedirBoth       RedirOp = "&>"  // &>file: stdout and stderr to file, truncating
	RedirBothAppend RedirOp = "&>>" // &>>file: stdout and stderr appended to file
	// Heredocs and here-strings feed Body to fd n (default 0); only those
	// whose text bash would not expand are accepted, so Body is exact.
	RedirHeredoc     RedirOp = "<<"  // n<<EOF: the lines up to EOF
	RedirHeredocTabs RedirOp = "<<-" // n<<-EOF: the same, leading tabs stripped
	RedirHereString  RedirOp = "<<<" // n<<<word: the word and a newline
)

// IsText reports whether op feeds text (Redirect.Body) rather than naming
// a file or an fd.
func (op RedirOp) IsText() bool {
	return op == RedirHeredoc || op == RedirHeredocTabs || op == RedirHereString
}

// MaxFd is the highest file descriptor a redirect may name, as in POSIX sh.
const MaxFd = 9

// Warning notes an input the two dialects would read differently.
type Warning struct {
	Offset  int
	Message string
}

// Segments returns every segment of the chain in source order.
func (c *Chain) Segments() []*Segment {
	n := 0
	for _, p := range c.Pipelines {
		n += len(p.Segments)
	}
	if n == 0 {
		return nil
	}
	out := make([]*Segment, 0, n)
	for _, p := range c.Pipelines {
		out = append(out, p.Segments...)
	}
	return out
}

// SegmentOps returns the operator between each pair of consecutive
// segments: | inside a pipeline, the chain's &&, || or ; between them (&
// after a background pipeline).
func (c *Chain) SegmentOps() []Op {
	var out []Op
	for i, p := range c.Pipelines {
		if i > 0 {
			op := c.Ops[i-1]
			if c.Pipelines[i-1].Background {
				op = OpBackground
			}
			out = append(out, op)
		}
		for j := 1; j < len(p.Segments); j++ {
			out = append(out, OpPipe)
		}
	}
	return out
}
