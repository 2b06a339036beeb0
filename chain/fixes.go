package chain

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The next step a refusal of a command substitution shows.

// maxFixLen bounds a written-out substitution; a longer one would bury
// the message, and the example says the same.
const maxFixLen = 200

// substFix says how to keep a command substitution bash runs inside
// another expansion: assign it to a variable first and expand that.
func substFix(src string, c *syntax.CmdSubst) string {
	whole := src[c.Pos().Offset():c.End().Offset()]
	if len(whole) > maxFixLen || strings.Contains(whole, "\n") {
		return "; assign it to a variable first (v=$(…)) and use $v there"
	}
	return "; assign it to a variable first: v=" + whole + " then $v in its place"
}
