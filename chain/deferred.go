package chain

import "strings"

// deferredExpansion names the expansion whose inside holds offset off of
// src, when bash's parser only finds that expansion's end and reads the
// inside when it runs the command: ${…} (parameter expansion), $((…)) and
// $[…] (arithmetic) and `…` (command substitution). mvdan parses those
// insides at once, so an error it reports there is not one bash's parser
// (bash -n) would report: `echo "${df["price"]:.2f}"` is a valid line that
// fails only when run. Such a line is unsupported, not a syntax error.
// It returns "" when off is in none of them; $(…), which bash does parse
// up front, does not count. The scan is approximate (it knows quotes,
// backslashes and nesting, not every corner of bash's lexer) and only
// decides the kind of a refusal, never whether to refuse.
func deferredExpansion(src string, off int) string {
	var stack []string
	// mvdan reports an empty $(( )) at its opener, so an opener at off
	// counts as holding it.
	for i := 0; i <= off && i < len(src); i++ {
		top := ""
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		n := openerAt(src, i, top)
		switch {
		case i == off:
			if n != "" {
				stack = append(stack, n)
			}
		case n != "":
			stack = append(stack, n)
			i += len(n) - 1
		case closes(src, i, top):
			stack = stack[:len(stack)-1]
			if top == "$((" {
				i++
			}
		case src[i] == '\\' && top != "'":
			i++
		}
	}
	for _, s := range stack {
		switch s {
		case "${":
			return "parameter expansion"
		case "$((", "$[":
			return "arithmetic expansion"
		case "`":
			return "command substitution"
		}
	}
	return ""
}

// openerAt returns the quote or expansion that starts at src[i], given
// the innermost open one, top.
func openerAt(src string, i int, top string) string {
	if top == "'" {
		return ""
	}
	rest := src[i:]
	switch {
	case rest[0] == '"' && top != `"`:
		return `"`
	case rest[0] == '\'' && top != `"`:
		return "'"
	case rest[0] == '`' && top != "`":
		return "`"
	}
	for _, o := range []string{"$((", "${", "$[", "$("} {
		if strings.HasPrefix(rest, o) {
			return o
		}
	}
	if rest[0] == '(' && (top == "$(" || top == "$((" || top == "(") {
		return "("
	}
	return ""
}

// closes reports whether src[i] ends the innermost open quote or
// expansion, top.
func closes(src string, i int, top string) bool {
	c := src[i]
	switch top {
	case `"`, "'", "`":
		return c == top[0]
	case "${":
		return c == '}'
	case "$[":
		return c == ']'
	case "$(", "(":
		return c == ')'
	case "$((":
		return strings.HasPrefix(src[i:], "))")
	}
	return false
}
