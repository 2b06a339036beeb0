package policy

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/chain"
)

// RuleKind says how a rule's command text is compared with a segment.
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

func (k RuleKind) String() string {
	switch k {
	case Any:
		return "any"
	case Exact:
		return "exact"
	case Prefix:
		return "prefix"
	case Glob:
		return "glob"
	}
	return "unknown"
}

// Rule is one permission rule. Build rules with ParseRule (or Load), which
// tokenise the text with chainrun's parser.
type Rule struct {
	// Text is the entry as written ("Bash(git diff:*)", "git status").
	Text string
	// Source names the settings file the rule came from ("" for rules
	// built in code).
	Source string
	Kind   RuleKind
	// Assigns are NAME=value words the rule spells out before the command
	// (exact rules only): "FOO=1 make" matches only that full segment.
	Assigns []chain.Assign
	// Tokens is the tokenised command text, for Exact and Prefix rules;
	// for Glob rules the first token when it contains no wildcard.
	Tokens []string
	// Parts are the literal pieces of a Glob pattern between its stars.
	Parts []string

	// canon0 is Tokens[0] canonicalised (basename, no .exe, case-folded),
	// used when matching the broad view for deny and ask rules.
	canon0 string
	// verb and flags split a prefix rule for flag-set matching: "rm -rf:*"
	// has verb [rm] and flags {-r, -f}.
	verb  []string
	flags []string
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

// RuleDialect is the dialect rule text is tokenised in: the host's, the
// same one chains are parsed in by default, so a rule naming
// C:\Tools\x.exe on Windows reads as written.
var RuleDialect = chain.HostDialect()

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
	if isTool {
		if tool != "Bash" {
			return r, false, nil
		}
		if body == "" || body == "*" {
			r.Kind = Any
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
	if knownTools()[t] {
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

var knownTools = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"Read": true, "Edit": true, "Write": true, "MultiEdit": true, "NotebookEdit": true,
		"NotebookRead": true, "WebFetch": true, "WebSearch": true, "Glob": true, "Grep": true,
		"LS": true, "Task": true, "TodoWrite": true, "Agent": true, "Skill": true, "KillShell": true,
		"BashOutput": true, "SlashCommand": true, "ExitPlanMode": true,
	}
})

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
	c, err := chain.ParseDialect(body, RuleDialect)
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
	if len(s.Assigns) > 0 && kind != Exact {
		return ruleErr("only exact rules may spell out NAME=value assignments")
	}
	r.Kind = kind
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
	if len(r.Tokens) > 0 {
		r.canon0 = canonicalName(r.Tokens[0])
		r.verb, r.flags = splitVerbFlags(r.Tokens)
	}
	return nil
}

func unplaceholder(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.ReplaceAll(a, litStarWord, "*")
	}
	return out
}

// splitVerbFlags splits a prefix rule into its leading non-flag words and
// the flags after them, short clusters expanded, when every token after
// the verb is a flag. Otherwise flags is nil and flag-set matching is off.
func splitVerbFlags(tokens []string) (verb, flags []string) {
	i := 0
	for i < len(tokens) && !strings.HasPrefix(tokens[i], "-") {
		i++
	}
	if i == len(tokens) || i == 0 {
		return tokens, nil
	}
	for _, t := range tokens[i:] {
		if !strings.HasPrefix(t, "-") || t == "-" || t == "--" {
			return tokens, nil
		}
		flags = append(flags, expandFlag(t)...)
	}
	return tokens[:i], flags
}

// expandFlag turns "-rf" into "-r", "-f"; long flags lose any "=value".
func expandFlag(t string) []string {
	if strings.HasPrefix(t, "--") {
		if i := strings.IndexByte(t, '='); i > 0 {
			t = t[:i]
		}
		return []string{t}
	}
	if len(t) <= 2 {
		return []string{t}
	}
	out := make([]string, 0, len(t)-1)
	for _, c := range t[1:] {
		out = append(out, "-"+string(c))
	}
	return out
}

// matchArgs reports whether the rule matches argv (already in the view's
// form). canon says argv[0] is canonicalised, so the rule's first token is
// compared in canonical form too.
func (r *Rule) matchArgs(argv []string, canon bool) bool {
	if len(argv) == 0 {
		return false
	}
	switch r.Kind {
	case Any:
		return true
	case Exact:
		return len(argv) == len(r.Tokens) && r.first(argv[0], canon) && slices.Equal(argv[1:], r.Tokens[1:])
	case Prefix:
		return len(argv) >= len(r.Tokens) && r.first(argv[0], canon) && slices.Equal(argv[1:len(r.Tokens)], r.Tokens[1:])
	case Glob:
		if len(r.Tokens) > 0 && !r.first(argv[0], canon) {
			return false
		}
		a0 := argv[0]
		if canon && len(r.Tokens) > 0 {
			a0 = r.Tokens[0]
		}
		return globMatch(r.Parts, a0, argv[1:])
	}
	return false
}

func (r *Rule) first(a0 string, canon bool) bool {
	if canon {
		c := r.canon0
		if c == "" {
			// A Rule built by hand rather than by ParseRule.
			c = canonicalName(r.Tokens[0])
		}
		return a0 == c
	}
	return a0 == r.Tokens[0]
}

// matchFlagSet is the deny/ask hardening: a prefix rule whose tail is all
// flags matches a segment that starts with the rule's verb and carries all
// of its flags, in any order and clustering ("rm -rf:*" matches "rm -fr x").
func (r *Rule) matchFlagSet(argv []string, canon bool) bool {
	if r.Kind != Prefix || r.flags == nil || len(argv) < len(r.verb) {
		return false
	}
	if !r.first(argv[0], canon) || !slices.Equal(argv[1:len(r.verb)], r.verb[1:]) {
		return false
	}
	have := map[string]bool{}
	for _, a := range argv[len(r.verb):] {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			for _, f := range expandFlag(a) {
				have[f] = true
			}
		}
	}
	for _, f := range r.flags {
		if !have[f] && !have[flagAlias(argv[0], f)] {
			return false
		}
	}
	return true
}

// flagAlias gives the other spelling of a few flags that deny rules name
// often, so "rm -rf:*" also denies "rm --recursive --force".
func flagAlias(prog, f string) string {
	switch canonicalName(prog) + " " + f {
	case "rm -r", "rm -R":
		return "--recursive"
	case "rm -f":
		return "--force"
	case "git -f":
		return "--force"
	case "git --force":
		return "-f"
	}
	return ""
}

// globMatch matches "a0 args..." joined by spaces against the parts of a
// pattern split at its stars.
func globMatch(parts []string, a0 string, rest []string) bool {
	n := len(a0)
	for _, a := range rest {
		n += 1 + len(a)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(a0)
	for _, a := range rest {
		b.WriteByte(' ')
		b.WriteString(a)
	}
	return globParts(parts, b.String())
}

func globParts(parts []string, s string) bool {
	if len(parts) == 1 {
		return s == parts[0]
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	if len(last) > len(s) {
		return false
	}
	if !strings.HasSuffix(s, last) {
		return false
	}
	// A trailing " *" keeps its word boundary but also matches the bare
	// command: "npm run *" matches "npm run".
	return true
}
