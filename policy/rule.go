package policy

import (
	"errors"
	"fmt"
	"strings"

	"github.com/chainrun/chainrun/chain"
)

// RuleKind says how a rule's command text is compared with a segment: the
// Match field of a Rule.
type RuleKind int

const (
	// Any matches every command: the rule was "Bash" alone.
	Any RuleKind = iota
	// Exact matches a segment whose argv equals the rule's tokens.
	Exact
	// Prefix matches a segment whose argv starts with the rule's tokens
	// ("git diff:*" or "git diff *"): a word boundary is kept, so
	// "git diff:*" does not match "git difftool".
	Prefix
	// Glob matches the space-joined argv against a pattern in which each
	// "*" stands for any run of characters ("npm run test*", "git * main").
	Glob
)

// String is the word reasons use for the kind ("matches prefix allow
// rule …").
func (k RuleKind) String() string {
	switch k {
	case Any:
		return "catch-all"
	case Exact:
		return "exact"
	case Prefix:
		return "prefix"
	case Glob:
		return "glob"
	}
	return "unknown"
}

// Rule is one permission rule. ParseRule (or Load) builds rules from their
// text with chainrun's parser; a Rule may also be written as a literal.
// A Rule holds nothing but its exported fields, and everything matching
// needs (the canonical program name, the flag set of "rm -rf:*") is derived
// from them when the rule is matched, so a literal matches exactly like the
// rule parsed from the same text. Authorize refuses a policy holding a rule
// whose fields contradict each other (see the field comments).
type Rule struct {
	// Text is the entry as written ("Bash(git diff:*)", "git status").
	Text string
	// Source names the settings file the rule came from ("" for rules
	// built in code).
	Source string
	// Match says how the rule is compared: Any (the zero value, so a
	// literal must set it), Exact, Prefix or Glob.
	Match RuleKind
	// Assigns are NAME=value words the rule spells out before the command
	// (exact rules only): "FOO=1 make" matches only that full segment.
	Assigns []chain.Assign
	// Tokens is the tokenised command text, for Exact and Prefix rules
	// (at least one word); for Glob rules the first word when it contains
	// no wildcard, else empty. Any rules have none.
	Tokens []string
	// Parts are the literal pieces of a Glob pattern between its stars
	// ("git * main" has "git " and " main"); only Glob rules have them.
	Parts []string
}

// String renders the rule for reasons: its text and where it came from.
func (r *Rule) String() string {
	if r.Source != "" {
		return r.Text + " (" + r.Source + ")"
	}
	return r.Text
}

// While a rule is tokenised, an unescaped "*" is replaced by a plain word the
// parser reads as a literal (it would refuse a glob), and "\*" by another.
const (
	wildcardWord = "QzChainrunWildQz"
	litStarWord  = "QzChainrunStarQz"
)

// ErrRule is matched (errors.Is) by every rule-text error.
var ErrRule = errors.New("bad rule")

type ruleError struct{ msg string }

func (e *ruleError) Error() string        { return e.msg }
func (e *ruleError) Is(target error) bool { return target == ErrRule }

func ruleErr(format string, args ...any) error {
	return &ruleError{msg: fmt.Sprintf(format, args...)}
}

// ParseRule reads one rule entry: "Bash", "Bash(X)" or a bare X. It returns
// ok=false (and no error) for entries naming another tool ("Read(./x)",
// "WebFetch"), which a settings file may hold but this policy ignores.
func ParseRule(text string) (r Rule, ok bool, err error) {
	t := strings.TrimSpace(text)
	r.Text = t
	if t == "" {
		return r, false, ruleErr("empty rule")
	}
	body, tool, isTool := splitTool(t)
	if i := strings.IndexByte(t, '('); !isTool && i > 0 && isToolName(t[:i]) {
		return r, false, ruleErr("%s( is not closed: write %s)", t[:i], t)
	}
	if isTool {
		if tool != "Bash" {
			return r, false, nil
		}
		if body == "" || body == "*" {
			r.Match = Any
			return r, true, nil
		}
	} else {
		body = t
	}
	if err := parseCommandRule(&r, body); err != nil {
		return r, false, err
	}
	return r, true, nil
}

// splitTool recognises "Tool" and "Tool(body)". A capitalised word alone is
// a tool name only when it is a known tool, so bare commands such as
// "Rscript" stay commands.
func splitTool(t string) (body, tool string, ok bool) {
	if t == "Bash" {
		return "", "Bash", true
	}
	if strings.HasPrefix(t, "mcp__") {
		return "", t, true
	}
	if i := strings.IndexByte(t, '('); i > 0 && strings.HasSuffix(t, ")") && isToolName(t[:i]) {
		return strings.TrimSpace(t[i+1 : len(t)-1]), t[:i], true
	}
	if isKnownTool(t) {
		return "", t, true
	}
	return "", "", false
}

func isToolName(s string) bool {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// isKnownTool reports the Claude Code tools other than Bash whose bare
// name may stand alone in a settings file ("WebFetch", "Edit").
func isKnownTool(t string) bool {
	switch t {
	case "Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "NotebookRead", "WebFetch", "WebSearch",
		"Glob", "Grep", "LS", "Task", "TodoWrite", "Agent", "Skill", "KillShell", "BashOutput",
		"SlashCommand", "ExitPlanMode":
		return true
	}
	return false
}

// parseCommandRule classifies and tokenises the command text X of a rule.
func parseCommandRule(r *Rule, body string) error {
	kind := Exact
	switch {
	case strings.HasSuffix(body, ":*"):
		kind = Prefix
		body = strings.TrimSpace(strings.TrimSuffix(body, ":*"))
	case strings.HasSuffix(body, " *") && !strings.HasSuffix(body, `\ *`):
		kind = Prefix
		body = strings.TrimSpace(strings.TrimSuffix(body, " *"))
	}
	body = strings.ReplaceAll(body, `\*`, litStarWord)
	if strings.Contains(body, "*") {
		// Any remaining wildcard makes the whole rule a glob; a trailing
		// word-bounded star becomes " *" again.
		if kind == Prefix {
			body += " *"
		}
		kind = Glob
		body = strings.ReplaceAll(body, "*", wildcardWord)
	}
	if body == "" {
		return ruleErr("no command before the wildcard")
	}
	// Rule text is tokenised in the host's dialect, the one chains are
	// parsed in by default, so a rule naming C:\Tools\x.exe on Windows
	// reads as written.
	c, err := chain.ParseDialect(body, chain.HostDialect())
	if err != nil {
		var pe *chain.ParseError
		if errors.As(err, &pe) {
			return ruleErr("cannot read the command: %s", pe.Message)
		}
		return ruleErr("cannot read the command: %v", err)
	}
	segs := c.Segments()
	if len(segs) != 1 {
		return ruleErr("a rule names one command, not a chain of %d", len(segs))
	}
	s := segs[0]
	if len(s.Redirects) > 0 {
		return ruleErr("a rule cannot hold a redirect")
	}
	if len(s.Substs) > 0 {
		return ruleErr("a rule cannot hold a command substitution: it names words as they run")
	}
	r.Match = kind
	r.Assigns = s.Assigns
	switch kind {
	case Exact, Prefix:
		r.Tokens = unplaceholder(s.Args)
	case Glob:
		joined := strings.Join(s.Args, " ")
		parts := strings.Split(joined, wildcardWord)
		for i := range parts {
			parts[i] = strings.ReplaceAll(parts[i], litStarWord, "*")
		}
		r.Parts = parts
		if !strings.Contains(s.Args[0], wildcardWord) {
			r.Tokens = unplaceholder(s.Args[:1])
		}
	}
	return r.check()
}

func unplaceholder(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.ReplaceAll(a, litStarWord, "*")
	}
	return out
}

// holdsNUL reports a NUL byte in any of the rule's texts. Only a literal
// can hold one, and no real word can (a NUL cannot reach a program's
// argv); refusing it keeps every reason free of the byte.
func (r *Rule) holdsNUL() bool {
	if hasNUL(r.Text) || hasNUL(r.Source) {
		return true
	}
	for _, t := range r.Tokens {
		if hasNUL(t) {
			return true
		}
	}
	for _, t := range r.Parts {
		if hasNUL(t) {
			return true
		}
	}
	for _, a := range r.Assigns {
		if hasNUL(a.Name) || hasNUL(a.Value) {
			return true
		}
	}
	return false
}

// hasNUL reports a NUL byte in s.
func hasNUL(s string) bool { return strings.IndexByte(s, 0) >= 0 }

// check reports a rule whose fields contradict each other. ParseRule
// never builds one, but a literal can, and judging with it would not mean
// what its author meant: a prefix rule without words cannot match
// anything, a forgotten Match makes a catch-all, Assigns on a prefix rule
// would be ignored. ParseRule and Authorize both refuse such a rule, so
// this is the one place the shape of a rule is decided.
func (r *Rule) check() error {
	if r.holdsNUL() {
		return ruleErr("a rule cannot hold a NUL byte: no real word has one")
	}
	if len(r.Assigns) > 0 && r.Match != Exact {
		return ruleErr("only exact rules may spell out NAME=value assignments")
	}
	switch r.Match {
	case Any:
		if len(r.Tokens) > 0 || len(r.Parts) > 0 {
			return ruleErr("a catch-all rule has no Tokens or Parts (set Match to Exact, Prefix or Glob)")
		}
	case Exact, Prefix:
		if len(r.Tokens) == 0 {
			return ruleErr("a %s rule needs at least one word in Tokens", r.Match)
		}
		if len(r.Parts) > 0 {
			return ruleErr("only glob rules have Parts")
		}
	case Glob:
		if len(r.Parts) == 0 {
			return ruleErr("a glob rule needs Parts")
		}
		if len(r.Tokens) > 1 || len(r.Tokens) == 1 && !strings.HasPrefix(r.Parts[0], r.Tokens[0]) {
			return ruleErr("a glob rule's Tokens hold at most the program word its pattern starts with")
		}
	default:
		return ruleErr("unknown Match %d", int(r.Match))
	}
	return nil
}
