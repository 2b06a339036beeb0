package policy

import "strings"

// Programs that run other commands with what they find or read (xargs wc
// -l, find -exec grep -l x {} +): a prefix rule naming the program is
// written for what it reads, and the guard stops it from covering the
// commands it runs. When each of them is a read-only program (the
// read-only table, its arguments included) that an allow rule covers
// itself, the segment is judged like that program: the rule covers it.
// Deny and ask rules have seen every command already (each is a layer of
// the segment), and each command's own words are judged as its paths. The
// files the commands get are named only at run time (xargs's input, what
// find finds): where Read or Edit deny or ask rules exist, they cannot be
// checked, and the guard keeps its ask.

// runsReaders reports why the allow rule r (a prefix or glob rule, its
// guard fired) covers the segment: every command its program runs is a
// read-only program allowed by a rule of its own; "" when it does not.
func (p *Policy) runsReaders(narrow []word) string {
	prog := lookupWord(narrow[0])
	if prog == nil || prog.runs == nil || len(p.PathDeny)+len(p.PathAsk) > 0 {
		return ""
	}
	cmds, ok := prog.runs(prog, narrow)
	if !ok || len(cmds) == 0 {
		return ""
	}
	var why []string
	for _, c := range cmds {
		c = canonLayer(c)
		if ro, _ := readOnlyReason(c); !ro {
			return ""
		}
		r, _ := p.matchAllow(c)
		if r == nil {
			return ""
		}
		why = append(why, c[0].show()+" (read-only, allowed by "+r.String()+")")
	}
	return "runs only " + strings.Join(why, ", ")
}
