//go:build unix

package differential

import (
	"errors"
	"regexp"
	"strings"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/expand"
	"mvdan.cc/sh/v3/syntax"
)

// How the expansion suite classifies what chainrun did with a case beside
// matching bash: the refusals chainrun makes by design (counted apart,
// never failing), the known bugs and departures (listed in known_test.go,
// printed, never failing), and the cases whose data is not ASCII (run in
// a UTF-8 locale on both sides).

// runTimeRefusal labels a refusal made while the chain ran: a word
// expanded to something chainrun does not run or expand (an
// *expand.Error of kind unsupported), where a parse-time refusal
// names its construct.
const runTimeRefusal = "run-time refusal"

// refusal is what chainrun refused in a case.
type refusal struct {
	// Construct is the *chain.ParseError's construct, or runTimeRefusal.
	Construct string
	// Message is the refusal's one line, without position.
	Message string
	// At is the source from the refused text on ("" at run time).
	At string
}

func (r *refusal) String() string { return r.Construct + ": " + r.Message }

// refusalOf returns what chainrun refused in err, nil when err is no
// refusal (the chain could not run for another reason).
func refusalOf(err error) *refusal {
	var pe *chain.ParseError
	if errors.As(err, &pe) {
		r := &refusal{Construct: pe.Construct, Message: pe.Message}
		if r.Construct == "" {
			r.Construct = string(pe.Kind)
		}
		if pe.Offset >= 0 && pe.Offset <= len(pe.Source) {
			r.At = pe.Source[pe.Offset:]
		}
		return r
	}
	var ee *expand.Error
	if errors.As(err, &ee) && ee.Kind == chain.KindUnsupported {
		return &refusal{Construct: runTimeRefusal, Message: ee.Error()}
	}
	return nil
}

// designRefusal is a refusal chainrun makes on purpose: bash's meaning
// is clear, but mvdan.cc/sh's expansion library, which chainrun expands
// with, gives another, so chainrun says so rather than run it. A case
// refused so counts apart, by Reason, and does not fail; a refusal of
// any other kind does.
type designRefusal struct {
	Reason string
	// Construct the refusal must name; Message and At, when set, must
	// match its message and the source from the refused text on.
	Construct   string
	Message, At *regexp.Regexp
	// TableOnly: the refusal is by design, but the generator must not
	// produce it (nothing about it is left to compare with bash).
	TableOnly bool
}

// designRefusals are the refusals by design. The first eight refuse what
// the expansion library gets wrong; the generator keeps their forms at a
// low rate so that they stay exercised. The rest refuse constructs
// chainrun does not run at all.
var designRefusals = []designRefusal{
	{Reason: "IFS with characters other than blanks splitting an expansion", Construct: runTimeRefusal,
		Message: regexp.MustCompile(`(^|: )IFS=.* splits unquoted expansions by rules chainrun does not follow`)},
	{Reason: "quotes inside ${X:-word}", Construct: "parameter expansion",
		Message: regexp.MustCompile(`^quotes inside \$\{[A-Za-z_][A-Za-z0-9_]*:?[-+].* are read by rules chainrun does not follow`)},
	{Reason: `\c in $'…'`, Construct: "ANSI-C quoting", Message: regexp.MustCompile(`\\c`), At: regexp.MustCompile(`^\$'`)},
	{Reason: "$NAME ending a brace alternative before name characters", Construct: "brace expansion",
		Message: regexp.MustCompile(`bash expands the braces first`), At: regexp.MustCompile(`^\$[A-Za-z_]`)},
	// The refusal's offset may be the start of the word that holds the
	// brace, not the brace itself.
	{Reason: "letter sequence across cases", Construct: "brace expansion",
		At: regexp.MustCompile(`^\s*\S*?\{([A-Z]\.\.[a-z]|[a-z]\.\.[A-Z])(\.\.-?[0-9]+)?\}`)},
	{Reason: "arithmetic on a value that is not a number", Construct: runTimeRefusal,
		Message: regexp.MustCompile(`\$\(\(…\)\) reads .*, which is not a number`)},
	// mvdan's expansion expands a leading ~ of ${X:-~/x} inside double
	// quotes too, where bash keeps it; the word alone does not say which.
	{Reason: "~ at the start of a ${X:-word}", Construct: "parameter expansion",
		Message: regexp.MustCompile(`^a ~ at the start of the word in `)},
	// mvdan's parser reads the # and % of ${X/#p/r} as pattern text.
	{Reason: "anchored ${X/#p/r}", Construct: "parameter expansion",
		Message: regexp.MustCompile(`anchors its pattern with # or %`)},
	{Reason: "command substitution", Construct: "command substitution", TableOnly: true},
	{Reason: "process substitution", Construct: "process substitution", TableOnly: true},
	{Reason: "special parameter", Construct: "special parameter", TableOnly: true},
	{Reason: "${X:?w}, ${PATH:=w}", Construct: "parameter expansion", TableOnly: true,
		Message: regexp.MustCompile(`a side effect chainrun does not perform`)},
	{Reason: "arithmetic assignment", Construct: "arithmetic assignment", TableOnly: true},
}

// byDesign returns the reason r is refused by design, "" when it is not
// (generated: a table-only refusal is the generator's mistake).
func byDesign(r *refusal, generated bool) string {
	for _, d := range designRefusals {
		if d.Construct != r.Construct || d.TableOnly && generated {
			continue
		}
		if d.Message != nil && !d.Message.MatchString(r.Message) || d.At != nil && !d.At.MatchString(r.At) {
			continue
		}
		return d.Reason
	}
	return ""
}

// Traits of expansion cases that show a known bug or departure (see
// knownBugs), found in the source.
const (
	traitQuotedTildeWord = "expand-quoted-tilde-word"
	traitHomeUnset       = "expand-home-unset"
)

// homeUnsetTilde matches an unset HOME that outlives its command (not a
// pipeline stage) followed by a tilde.
var homeUnsetTilde = regexp.MustCompile(`(?s)\bunset\b[^;&|\n]*\bHOME\b[^;&|\n]*(;|&&|\|\||\n).*~`)

// expandTraits returns the known-bug traits of src.
func expandTraits(src string) map[string]bool {
	t := map[string]bool{}
	if homeUnsetTilde.MatchString(src) {
		t[traitHomeUnset] = true
	}
	if quotedTildeWord(src) {
		t[traitQuotedTildeWord] = true
	}
	return t
}

// quotedTildeWord reports a ${X:-~…} (or -, :+, +) inside double quotes
// or a heredoc body: bash leaves the tilde as written there.
func quotedTildeWord(src string) bool {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return false
	}
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		var quoted syntax.Node
		switch n := n.(type) {
		case *syntax.DblQuoted:
			quoted = n
		case *syntax.Redirect:
			if n.Hdoc != nil {
				quoted = n.Hdoc
			}
		}
		if quoted != nil {
			syntax.Walk(quoted, func(n syntax.Node) bool {
				found = found || tildeWord(n)
				return !found
			})
		}
		return !found
	})
	return found
}

// tildeWord reports a ${X:-word} or kin whose word starts with a tilde.
func tildeWord(n syntax.Node) bool {
	pe, ok := n.(*syntax.ParamExp)
	if !ok || pe.Exp == nil || pe.Exp.Word == nil || len(pe.Exp.Word.Parts) == 0 {
		return false
	}
	switch pe.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
	default:
		return false
	}
	lit, ok := pe.Exp.Word.Parts[0].(*syntax.Lit)
	return ok && strings.HasPrefix(lit.Value, "~")
}

// utf8Locale is the locale a case with non-ASCII data runs in, on both
// sides. chainrun expands as bash does in a UTF-8 locale (it counts
// characters, not bytes: ${#X}, ${X:o:l}, ${X%?}, ? and [!a] against
// é.txt, $'\u00e9'); under LC_ALL=C bash counts bytes. C.UTF-8 keeps
// the byte order of C for sorting glob results.
const utf8Locale = "LC_ALL=C.UTF-8"

// utf8Data matches a source whose expansion may meet non-ASCII data: a
// non-ASCII byte, a \u or \U escape, or a pattern character that matches
// one character (? not after $, [! [^ [[:), which meets é.txt among the
// seed files.
var utf8Data = regexp.MustCompile(`[^\x00-\x7f]|\\[uU][0-9a-fA-F]|(^|[^$])\?|\[[!^]|\[\[:`)

// needsUTF8 reports whether c runs under utf8Locale.
func needsUTF8(c expandCase) bool {
	if utf8Data.MatchString(c.Src) {
		return true
	}
	for _, e := range c.Env {
		if strings.IndexFunc(e, func(r rune) bool { return r > 0x7f }) >= 0 {
			return true
		}
	}
	return false
}

// withLocale replaces the LC_ALL of env by locale.
func withLocale(env []string, locale string) []string {
	out := make([]string, 0, len(env))
	for _, e := range env {
		if !strings.HasPrefix(e, "LC_ALL=") {
			out = append(out, e)
		}
	}
	return append(out, locale)
}
