package policy

import (
	"slices"
	"strings"

	"github.com/chainrun/chainrun/chain"
)

// MaxSuggestions caps the rule suggestions made for one chain.
const MaxSuggestions = 5

// arity says how many words name the verb of the command that starts
// with words (its program as written, then at most one subcommand): "git
// tag v1" has the verb "git tag". It is read off the program's record
// (verb, longVerbs): a longer verb ("npm run") refines the shorter one; 0
// means the record gives none.
func arity(words []string) int {
	p := lookup(words[0])
	switch {
	case p == nil || p.verb == 0:
		return 0
	case len(words) == 1:
		return p.verb
	case len(words) == 2 && slices.Contains(p.longVerbs, words[1]):
		return p.verb + 1
	}
	return 0
}

// isBareBanned reports programs whose bare prefix would allow any code:
// shells, interpreters, wrappers and package runners (the registry's
// runsCode records). Only exact rules are suggested for them.
func isBareBanned(name string) bool {
	p := lookup(name)
	return p != nil && p.runsCode
}

// Suggest proposes the permissions.allow entry that would allow seg, as a
// user writes it in a settings file: "Bash(<verb chain>:*)" with the verb
// chain from the arity table (or the command plus a lowercase
// subcommand), trailing call-specific values trimmed; or the exact command
// for shells, interpreters and wrappers ("Bash(python3 x.py)"). It returns "" when no rule can be
// proposed (an unsafe assignment, a wildcard in a word, a program or
// wrapper word known only at run time). No rule it proposes holds a word
// known only at run time: the verb chain stops before one, an exact rule
// is not proposed, and neither is a prefix rule the guard would stop.
func Suggest(seg *chain.Segment) string {
	argv := segArgv(seg)
	args, why := narrowView(seg, argv)
	if why != "" || len(args) == 0 || hasUnknown(argv[:len(argv)-len(args)+1]) {
		return ""
	}
	for _, w := range args {
		if a, ok := w.known(); ok && strings.ContainsAny(a, "*\n\r") {
			return ""
		}
	}
	prog, _ := args[0].known() // known: checked above
	if !isASCII(prog) {
		return ""
	}
	name := canonicalName(prog)
	if isBareBanned(name) {
		return exactSuggestion(args)
	}
	verb := verbChain(args)
	if verb == nil || hasUnknown(args) && guard(args) != "" {
		return exactSuggestion(args)
	}
	return bashEntry(strings.Join(verb, " ") + ":*")
}

// bashEntry spells a command rule as a settings entry.
func bashEntry(rule string) string { return "Bash(" + rule + ")" }

// exactSuggestion is the entry of the exact rule for args; none when a
// word is known only at run time (the rule would have to spell it).
func exactSuggestion(args []word) string {
	if hasUnknown(args) {
		return ""
	}
	return bashEntry(joinArgs(args))
}

// verbChain picks the verb words of args and trims trailing values. It
// returns nil when the command has an arity entry wanting a subcommand
// that is not there (so "git -C x status" gets an exact suggestion rather
// than "git:*"). Its program word is known; a word known only at run
// time is no verb word.
func verbChain(args []word) []string {
	prog, _ := args[0].known() // known: Suggest checked it
	want, key := 0, []string{prog}
	for n := 1; n <= 2 && n < len(args); n++ {
		if n > 1 {
			w, ok := args[n-1].known()
			if !ok {
				break
			}
			key = append(key, w)
		}
		if a := arity(key); a > 0 {
			want = a
		}
	}
	var verb []string
	verb = append(verb, prog)
	if want > 0 {
		for _, w := range args[1:] {
			a, ok := w.known()
			if len(verb) >= want || !ok || !verbWord(a) {
				break
			}
			verb = append(verb, a)
			if a2 := arity(verb); a2 > want {
				want = a2
			}
		}
		if len(verb) == 1 {
			return nil
		}
	} else if len(args) > 1 {
		if a, ok := args[1].known(); ok && plainSubcommand(a) {
			verb = append(verb, a)
		}
	}
	for len(verb) > 1 && isValueToken(verb[len(verb)-1]) {
		verb = verb[:len(verb)-1]
	}
	return verb
}

// verbWord accepts a word into a verb chain: no flag, path, URL or
// anything that needs quoting.
func verbWord(a string) bool {
	if a == "" || a[0] == '-' || strings.ContainsAny(a, `/\~`) || strings.Contains(a, "://") {
		return false
	}
	return quoteArg(a) == a
}

// plainSubcommand is Claude-style: a lowercase plain word.
func plainSubcommand(a string) bool {
	if a == "" || a[0] < 'a' || a[0] > 'z' {
		return false
	}
	for i := 0; i < len(a); i++ {
		c := a[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// isValueToken reports a call-specific value: an integer, a version
// (v0.4.2, 1.0.0-beta.3, 1.0+build), a hex SHA of 7-40 characters with a
// digit, pkg@version or image:tag with a digit. Words that merely hold a
// digit (e2e, k8s, s3, py311) are not values.
func isValueToken(t string) bool {
	if t == "" {
		return false
	}
	if isVersion(t) || isHexSHA(t) {
		return true
	}
	if i := strings.LastIndexByte(t, '@'); i > 0 && i < len(t)-1 && isVersion(t[i+1:]) {
		return true
	}
	if i := strings.LastIndexByte(t, ':'); i > 0 && i < len(t)-1 && strings.ContainsAny(t[i+1:], "0123456789") {
		tag := t[i+1:]
		for j := 0; j < len(tag); j++ {
			c := tag[j]
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '-' || c == '_') {
				return false
			}
		}
		return true
	}
	return false
}

// isVersion matches v?\d+(\.\d+)*([-+].+)?
func isVersion(t string) bool {
	i := 0
	if t[0] == 'v' || t[0] == 'V' {
		i++
	}
	start := i
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == start {
		return false
	}
	for i < len(t) && t[i] == '.' {
		i++
		s := i
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		if i == s {
			return false
		}
	}
	if i == len(t) {
		return true
	}
	return (t[i] == '-' || t[i] == '+') && i+1 < len(t)
}

func isHexSHA(t string) bool {
	if len(t) < 7 || len(t) > 40 {
		return false
	}
	digit := false
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'f':
		default:
			return false
		}
	}
	return digit
}
