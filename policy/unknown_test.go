package policy

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
)

// Words known only at run time (unknown.go). The cases are parsed with
// placeholders, each replaced by a word known only at run time, as the
// plan leaves one: "@@NAME" is the word written "$NAME", "@@STATUS" the
// one written "$?", "@@GLOB" the one written "out/*.o".

// unknownFor returns the text a placeholder stands for, and whether w is
// one.
func unknownFor(w string) (string, bool) {
	name, ok := strings.CutPrefix(w, "@@")
	switch {
	case !ok:
		return w, false
	case name == "GLOB":
		return "out/*.o", true
	case name == "STATUS":
		return "$?", true
	}
	return "$" + name, true
}

// unknownChain parses src and makes each placeholder among every
// segment's arguments, assignment values and redirect targets a word
// known only at run time. A parsed segment's words are its arguments,
// one each.
func unknownChain(t testing.TB, src string) *chain.Chain {
	t.Helper()
	c := parse(t, src)
	for _, s := range c.Segments() {
		for i := range s.Words {
			w := &s.Words[i]
			text, ok := unknownFor(s.Args[i])
			s.Args[i], w.Fields, w.Runtime = text, []string{text}, w.Runtime || ok
		}
		for i := range s.Assigns {
			a := &s.Assigns[i]
			text, ok := unknownFor(a.Value)
			a.Value, a.Runtime = text, a.Runtime || ok
		}
		for i := range s.Redirects {
			r := &s.Redirects[i]
			text, ok := unknownFor(r.Target)
			r.Target, r.Runtime = text, r.Runtime || ok
		}
	}
	return c
}

// unknownCase is one row of TestUnknownWords: the command (with
// placeholders), the rules (Bash and Read/Edit rules in one list), and
// what the decision must hold. suggest nil leaves the suggestions
// unchecked; an empty slice wants none.
type unknownCase struct {
	name             string
	cmd              string
	allow, ask, deny []string
	mode             Mode
	readOnly         bool
	builtin          chain.Builtin // set on the first segment after parsing
	verdict          chain.Verdict
	reason           string // held by some reason of the decision
	notReason        string // held by none
	rule             string // the first segment's rule
	suggest          []string
	// hard says the ask holds in every mode: bypassPermissions keeps it,
	// dontAsk denies it (the case is judged in both too).
	hard bool
	// known is a gap in the policy's code against the semantics the case
	// states: while the decision misses the case, it is skipped with
	// this text.
	known string
}

var unknownCases = []unknownCase{
	// 1. Deny rules read an unknown word as any run of words. A rule that
	// matches only if the unknown words turn out to be what it names does
	// not deny before the run: the segment asks (hard) naming the rule,
	// and the engine judges it again on its real words when it starts.
	{name: "deny/prefix rule, program unknown", cmd: "@@X -rf /", deny: []string{"Bash(rm:*)"}, allow: []string{"Bash"},
		verdict: chain.Ask, hard: true, rule: "Bash(rm:*)",
		reason: "may match deny rule Bash(rm:*): $X is known only at run time; it is judged again on its real value when it starts"},
	{name: "deny/prefix rule, last word unknown", cmd: "git push @@X", deny: []string{"Bash(git push --force:*)"}, allow: []string{"Bash"},
		verdict: chain.Ask, hard: true, rule: "Bash(git push --force:*)",
		reason: "may match deny rule Bash(git push --force:*): $X is known only at run time", notReason: "matches deny rule"},
	{name: "deny/prefix rule, subcommand unknown", cmd: "git @@SUB", deny: []string{"Bash(git push --force:*)"}, allow: []string{"git:*"},
		verdict: chain.Ask, hard: true, rule: "Bash(git push --force:*)", reason: "may match deny rule"},
	{name: "deny/certain match keeps its reason", cmd: "rm -rf / @@X", deny: []string{"Bash(rm -rf:*)"},
		verdict: chain.Deny, rule: "Bash(rm -rf:*)", reason: "matches deny rule Bash(rm -rf:*)", notReason: "may match"},
	{name: "deny/certain match with an unknown word after the verb", cmd: "git push --force @@X", deny: []string{"Bash(git push --force:*)"},
		allow: []string{"Bash"}, verdict: chain.Deny, reason: "matches deny rule Bash(git push --force:*)", notReason: "may match"},
	{name: "deny/an empty unknown word before the program", cmd: "@@E git push --force", deny: []string{"Bash(git push --force)"},
		verdict: chain.Ask, hard: true, rule: "Bash(git push --force)", reason: "may match deny rule Bash(git push --force): $E is known only at run time",
		known: "the reading in which $E expands to nothing is taken as a certain match (matchBroad without pessimism reads the layers runtimeProgram and possibleStarts add), so it denies before the run"},
	{name: "deny/exact rule", cmd: "rm @@X", deny: []string{"Bash(rm -rf /)"}, allow: []string{"Bash"},
		verdict: chain.Ask, hard: true, rule: "Bash(rm -rf /)", reason: "may match deny rule Bash(rm -rf /): $X is known only at run time"},
	{name: "deny/exact rule, a known word differs", cmd: "rm @@X x", deny: []string{"Bash(rm -rf /)"}, allow: []string{"Bash"},
		verdict: chain.Ask, notReason: "deny rule"},
	{name: "deny/flag set, unknown word may carry the flags", cmd: "rm @@X x", deny: []string{"Bash(rm -rf:*)"},
		verdict: chain.Ask, hard: true, rule: "Bash(rm -rf:*)", reason: "may match deny rule Bash(rm -rf:*)"},
	{name: "deny/flag set, unknown word completes the verb", cmd: "git @@X origin", deny: []string{"Bash(git push --force:*)"},
		verdict: chain.Ask, hard: true, rule: "Bash(git push --force:*)", reason: "may match deny rule Bash(git push --force:*)"},
	{name: "deny/flag set, unknown word after -- is an operand", cmd: "rm -r -- @@X", deny: []string{"Bash(rm -rf:*)"}, allow: []string{"Bash"},
		verdict: chain.Ask, notReason: "deny rule"},
	{name: "deny/glob rule", cmd: "git @@X --force", deny: []string{"Bash(git * --force)"},
		verdict: chain.Ask, hard: true, rule: "Bash(git * --force)", reason: "may match deny rule Bash(git * --force)"},
	{name: "deny/glob rule, unknown word may end with its literal", cmd: "git push @@X", deny: []string{"Bash(git * --force)"},
		verdict: chain.Ask, hard: true, rule: "Bash(git * --force)", reason: "may match deny rule Bash(git * --force)"},
	{name: "deny/glob rule, known last word differs", cmd: "git @@X main", deny: []string{"Bash(git * --force)"}, allow: []string{"Bash"},
		verdict: chain.Allow, notReason: "deny rule"},
	{name: "deny/glob rule, wildcard program", cmd: "@@X a", deny: []string{"Bash(ls*)"},
		verdict: chain.Ask, hard: true, rule: "Bash(ls*)", reason: "may match deny rule Bash(ls*)"},
	{name: "deny/glob rule, an unknown word is a word of its own", cmd: "git @@X --force", deny: []string{"Bash(gitk*)"}, allow: []string{"Bash"},
		verdict: chain.Allow, notReason: "deny rule"},
	{name: "deny/the first deny rule that may match is named", cmd: "@@CMD x", deny: []string{"Bash(curl:*)", "Bash(wget:*)"},
		verdict: chain.Ask, hard: true, rule: "Bash(curl:*)", reason: "may match deny rule Bash(curl:*)", notReason: "wget"},
	{name: "deny/a certain match beats one that may match", cmd: "curl @@X", deny: []string{"Bash(wget:*)", "Bash(curl:*)"},
		verdict: chain.Deny, rule: "Bash(curl:*)", reason: "matches deny rule Bash(curl:*)", notReason: "may match"},
	{name: "deny/may match asks over the catch-all", cmd: "@@CMD x", allow: []string{"Bash"}, deny: []string{"Bash(curl:*)"},
		verdict: chain.Ask, hard: true, rule: "Bash(curl:*)", notReason: "allow rule"},
	{name: "deny/may match asks over an ask rule that may match too", cmd: "@@CMD x", ask: []string{"Bash(wget:*)"}, deny: []string{"Bash(curl:*)"},
		verdict: chain.Ask, hard: true, rule: "Bash(curl:*)", notReason: "ask rule"},
	{name: "deny/may match is not lifted by bypassPermissions", cmd: "@@CMD x", mode: ModeBypass, deny: []string{"Bash(curl:*)"},
		verdict: chain.Ask, rule: "Bash(curl:*)", reason: "may match deny rule Bash(curl:*)"},
	{name: "deny/may match is denied by dontAsk", cmd: "@@CMD x", mode: ModeDontAsk, allow: []string{"Bash"}, deny: []string{"Bash(curl:*)"},
		verdict: chain.Deny, rule: "Bash(curl:*)", reason: "may match deny rule Bash(curl:*)"},
	{name: "deny/behind sudo", cmd: "sudo @@X", allow: []string{"Bash"}, deny: []string{"Bash(rm:*)"},
		verdict: chain.Ask, hard: true, rule: "Bash(rm:*)", reason: "may match deny rule Bash(rm:*): $X is known only at run time"},
	{name: "deny/behind env", cmd: "env X=1 @@CMD", allow: []string{"Bash"}, deny: []string{"Bash(curl:*)"},
		verdict: chain.Ask, hard: true, rule: "Bash(curl:*)", reason: "may match deny rule Bash(curl:*): $CMD is known only at run time"},
	{name: "deny/wrapper option may hold the command", cmd: "timeout @@T ls", allow: []string{"Bash"}, deny: []string{"Bash(rm:*)"},
		verdict: chain.Ask, hard: true, rule: "Bash(rm:*)", reason: "may match deny rule Bash(rm:*): $T is known only at run time"},
	{name: "deny/after an unknown program, a later word may start the command", cmd: "@@X sudo rm -rf /", deny: []string{"Bash(rm -rf /)"},
		verdict: chain.Ask, hard: true, rule: "Bash(rm -rf /)", reason: "may match deny rule Bash(rm -rf /): $X is known only at run time",
		known: "the readings in which $X expands to nothing or to a wrapper are taken as certain matches (possibleStarts layers), so it denies before the run"},
	{name: "deny/known words unchanged", cmd: "ls && rm -rf x", deny: []string{"Bash(rm -rf:*)"}, allow: []string{"ls"},
		verdict: chain.Deny, reason: "matches deny rule Bash(rm -rf:*)", notReason: "run time"},

	// 2. Ask rules, the same way; an ask rule is never lifted by a mode.
	{name: "ask/prefix rule, subcommand unknown", cmd: "git @@X", allow: []string{"Bash"}, ask: []string{"Bash(git push:*)"}, mode: ModeBypass,
		verdict: chain.Ask, rule: "Bash(git push:*)", reason: "may match ask rule Bash(git push:*): $X is known only at run time"},
	{name: "ask/certain match keeps its reason", cmd: "git push @@X", allow: []string{"Bash"}, ask: []string{"Bash(git push:*)"},
		verdict: chain.Ask, reason: "matches ask rule Bash(git push:*)", notReason: "may match"},

	// 3. Allow rules: an unknown word equals no literal; a prefix rule's
	// tail and a glob rule's trailing star cover it.
	{name: "allow/prefix tail covers an unknown word", cmd: "gradle @@T", allow: []string{"Bash(gradle:*)"},
		verdict: chain.Allow, reason: "matches prefix allow rule Bash(gradle:*)"},
	{name: "allow/prefix literal never equals an unknown word", cmd: "make @@T", allow: []string{"Bash(make build:*)"},
		verdict: chain.Ask, reason: "no allow rule matches `make $T`", suggest: []string{}},
	{name: "allow/exact rule never matches", cmd: "make @@T", allow: []string{"Bash(make build)"}, verdict: chain.Ask},
	{name: "allow/exact rule with an unknown assignment value", cmd: "FOO=@@V make", allow: []string{"FOO=1 make"}, verdict: chain.Ask,
		notReason: "matches exact allow rule"},
	{name: "allow/exact rule, unknown value of a safe variable", cmd: "LANG=@@L make", allow: []string{"make"}, verdict: chain.Allow},
	{name: "allow/glob trailing star covers", cmd: "gradle check @@X", allow: []string{"Bash(gradle check*)"},
		verdict: chain.Allow, reason: "matches glob allow rule Bash(gradle check*)"},
	{name: "allow/glob literal never equals an unknown word", cmd: "make @@X", allow: []string{"Bash(make check*)"}, verdict: chain.Ask},
	{name: "allow/glob middle star does not cover", cmd: "make @@X all", allow: []string{"Bash(make * all)"}, verdict: chain.Ask},
	{name: "allow/catch-all covers unknown arguments", cmd: "git log @@X", allow: []string{"Bash"}, verdict: chain.Allow},
	{name: "allow/engine built-in with an unknown argument", cmd: "false; echo @@STATUS", verdict: chain.Allow,
		reason: "engine built-in echo", notReason: "run time"},

	// An unknown program word: nothing allows it.
	{name: "program/catch-all", cmd: "@@CMD x", allow: []string{"Bash"}, verdict: chain.Ask,
		reason: "the program ($CMD) is known only at run time", notReason: "allow rule", suggest: []string{}},
	{name: "program/catch-all with star", cmd: "@@CMD", allow: []string{"Bash(*)"}, verdict: chain.Ask, reason: "the program ($CMD) is known only at run time"},
	{name: "program/glob rule with wildcard program", cmd: "@@CMD", allow: []string{"Bash(*)", "*"}, verdict: chain.Ask},
	{name: "program/read-only table", cmd: "@@CMD", readOnly: true, verdict: chain.Ask},
	{name: "program/engine built-in", cmd: "@@CMD hi", builtin: chain.BuiltinEcho, verdict: chain.Ask, notReason: "engine built-in"},
	{name: "program/bypassPermissions", cmd: "@@CMD", mode: ModeBypass, verdict: chain.Ask},
	{name: "program/acceptEdits", cmd: "@@CMD x", mode: ModeAcceptEdits, allow: []string{"Bash"}, verdict: chain.Ask},
	{name: "program/dontAsk denies", cmd: "@@CMD", mode: ModeDontAsk, allow: []string{"Bash"}, verdict: chain.Deny},
	{name: "program/a glob", cmd: "@@GLOB", allow: []string{"Bash"}, verdict: chain.Ask, reason: "the program (out/*.o) is known only at run time"},

	// Wrappers unwrap to the program word: still command position.
	{name: "wrapper/env", cmd: "env X=1 @@CMD", allow: []string{"Bash"}, verdict: chain.Ask, reason: "the program ($CMD) is known only at run time"},
	{name: "wrapper/sudo", cmd: "sudo @@CMD", allow: []string{"Bash"}, verdict: chain.Ask, reason: "the program ($CMD) is known only at run time"},
	{name: "wrapper/xargs", cmd: "xargs @@CMD", allow: []string{"Bash"}, verdict: chain.Ask, reason: "the program ($CMD) is known only at run time"},
	{name: "wrapper/nice", cmd: "nice @@CMD", allow: []string{"Bash"}, mode: ModeBypass, verdict: chain.Ask},
	{name: "wrapper/timeout", cmd: "timeout 5 @@CMD", allow: []string{"Bash"}, verdict: chain.Ask},
	{name: "wrapper/nested", cmd: "timeout 5 sudo -u bob env @@CMD", allow: []string{"Bash"}, verdict: chain.Ask},
	{name: "wrapper/an option value may move the command", cmd: "nice -n @@N make", allow: []string{"Bash"}, verdict: chain.Ask,
		reason: "nice argument $N is known only at run time, so the command it runs is not known"},
	{name: "wrapper/env -S", cmd: "env -S @@S", allow: []string{"Bash"}, verdict: chain.Ask, reason: "known only at run time"},
	{name: "wrapper/watch body", cmd: "watch ls @@X", allow: []string{"Bash"}, verdict: chain.Ask,
		reason: "watch argument $X is known only at run time, so the command it runs is not known"},
	{name: "wrapper/watch body is any code for deny rules", cmd: "watch ls @@X", deny: []string{"Bash(curl:*)"},
		verdict: chain.Ask, hard: true, rule: "Bash(curl:*)", reason: "may match deny rule Bash(curl:*): $X is known only at run time"},
	{name: "wrapper/find -exec", cmd: "find . -exec @@X {} ;", allow: []string{"Bash"}, verdict: chain.Ask, reason: "the program ($X)"},

	// bash -c: a known body is judged as before; an unknown word after it
	// is a positional parameter. An unknown body is unknown code.
	{name: "shell/known body, unknown $0", cmd: "bash -c 'rm -rf x' @@A", deny: []string{"Bash(rm -rf:*)"},
		verdict: chain.Deny, reason: "matches deny rule Bash(rm -rf:*)", notReason: "may match"},
	{name: "shell/known body, unknown argument, asks as before", cmd: "bash -c ls @@A", allow: []string{"Bash"},
		verdict: chain.Ask, reason: "bash is a shell wrapper, never allowed by a rule", notReason: "run time"},
	{name: "shell/unknown body", cmd: "bash -c @@S", allow: []string{"Bash"}, verdict: chain.Ask,
		reason: "bash argument $S is known only at run time, so the command line it runs is not known"},
	{name: "shell/unknown body is any code for deny rules", cmd: "sh -c @@S", deny: []string{"Bash(curl:*)"},
		verdict: chain.Ask, hard: true, rule: "Bash(curl:*)", reason: "may match deny rule Bash(curl:*): $S is known only at run time"},
	{name: "shell/unknown option may be -c", cmd: "sh @@O 'curl x'", deny: []string{"Bash(curl:*)"},
		verdict: chain.Ask, hard: true, rule: "Bash(curl:*)", reason: "may match deny rule Bash(curl:*): $O is known only at run time"},
	{name: "shell/unknown option, a rule on the body may match", cmd: "sh @@O 'curl x'", deny: []string{"Bash(curl x)"},
		verdict: chain.Ask, hard: true, reason: "may match deny rule Bash(curl x)"},

	// The guard: a guarded program's unknown word may be the option it stops.
	{name: "guard/prefix rule", cmd: "git log @@X", allow: []string{"git log:*"}, verdict: chain.Ask,
		reason: "guard: git argument $X is known only at run time and may be an option or script", suggest: []string{}},
	{name: "guard/glob rule", cmd: "git log @@X", allow: []string{"Bash(git log*)"}, verdict: chain.Ask, reason: "guard: git argument $X"},
	{name: "guard/unguarded program", cmd: "gradle @@X", allow: []string{"gradle:*"}, verdict: chain.Allow},
	{name: "guard/read-only table", cmd: "sort -k @@K", readOnly: true, verdict: chain.Ask, reason: "guard: sort argument $K"},
	{name: "guard/old-style tar", cmd: "tar @@F", allow: []string{"tar:*"}, verdict: chain.Ask, reason: "guard: tar argument $F"},
	{name: "guard/no suggestion it would stop", cmd: "git log @@X", verdict: chain.Ask, suggest: []string{}},

	// Paths: an unknown path is no allowed path, may match any deny or ask
	// rule, and asks in every mode. A Read or Edit deny rule that may match
	// asks (hard) and names the rule in the reason; the path is judged again
	// when the segment starts.
	{name: "path/prefix rule allows the command, the path asks", cmd: "ls @@D", allow: []string{"Bash(ls:*)"}, mode: ModeBypass,
		verdict: chain.Ask, reason: "path $D is known only at run time, so it cannot be shown to be inside the roots and not sensitive"},
	{name: "path/the allow rule still matches", cmd: "ls @@D", allow: []string{"Bash(ls:*)"}, verdict: chain.Ask,
		reason: "matches prefix allow rule Bash(ls:*)", rule: "Bash(ls:*)", suggest: []string{}},
	{name: "path/Read allow rule", cmd: "cat @@F", allow: []string{"cat:*", "Read", "Read(//**)"}, verdict: chain.Ask},
	{name: "path/Edit allow rule", cmd: "touch @@F", allow: []string{"touch:*", "Edit", "Edit(//**)"}, verdict: chain.Ask, suggest: []string{}},
	{name: "path/acceptEdits", cmd: "touch @@F", mode: ModeAcceptEdits, verdict: chain.Ask},
	{name: "path/Read deny rule", cmd: "cat @@F", allow: []string{"cat:*"}, deny: []string{"Read(./.env)"}, verdict: chain.Ask, hard: true,
		reason: "path $F is known only at run time and may match deny rule Read(./.env); it is judged again on its real value when it starts"},
	{name: "path/Edit deny rule judges writes only", cmd: "cat @@F", allow: []string{"cat:*"}, deny: []string{"Edit(./.env)"}, verdict: chain.Ask},
	{name: "path/Read ask rule", cmd: "cat @@F", allow: []string{"cat:*"}, ask: []string{"Read(./secret)"}, mode: ModeBypass,
		verdict: chain.Ask, reason: "path $F is known only at run time and may match ask rule Read(./secret)"},
	{name: "path/Edit deny rule", cmd: "touch @@F", allow: []string{"touch:*"}, deny: []string{"Edit(./src/**)"}, verdict: chain.Ask, hard: true,
		reason: "path $F is known only at run time and may match deny rule Edit(./src/**); it is judged again on its real value when it starts"},
	{name: "path/a known path a deny rule matches still denies", cmd: "cat .env @@F", allow: []string{"cat:*"}, deny: []string{"Read(./.env)"},
		verdict: chain.Deny, rule: "Read(./.env)", reason: "matches deny rule Read(./.env)"},
	{name: "path/plan mode denies an unknown write", cmd: "touch @@F", allow: []string{"touch:*"}, mode: ModePlan, verdict: chain.Deny,
		reason: "path $F is known only at run time and is a write, and plan mode modifies no file"},
	{name: "path/plan mode denies an unknown write a deny rule may match", cmd: "touch @@F", allow: []string{"touch:*"},
		deny: []string{"Edit(./src/**)"}, mode: ModePlan, verdict: chain.Deny},
	{name: "path/plan mode, an unknown read asks", cmd: "cat @@F", allow: []string{"cat:*"}, mode: ModePlan, verdict: chain.Ask},
	{name: "path/dd operand may be of=", cmd: "dd if=a @@X", allow: []string{"dd:*"}, deny: []string{"Edit(//etc/**)"}, verdict: chain.Ask, hard: true,
		reason: "dd operand $X is known only at run time and may match deny rule Edit(//etc/**)"},
	{name: "path/recursive read of an unknown tree", cmd: "grep -r x @@D", allow: []string{"grep:*"}, ask: []string{"Read(./secret)"},
		verdict: chain.Ask, reason: "grep reads the tree $D recursively, which may hold a path of rule Read(./secret)"},
	{name: "path/a word of a program without a table is not guessed to be a path", cmd: "gradle -C @@X", allow: []string{"gradle:*"},
		verdict: chain.Allow},
	{name: "path/cd", cmd: "cd @@D", mode: ModeBypass, verdict: chain.Ask, reason: "cd $D goes to a directory known only at run time"},

	// Redirects.
	{name: "redirect/output", cmd: "echo hi > @@F", allow: []string{"echo:*"}, verdict: chain.Ask,
		reason: "output redirect $F is known only at run time", suggest: []string{}},
	{name: "redirect/output, Edit deny rule", cmd: "echo hi > @@F", allow: []string{"echo:*"}, deny: []string{"Edit(./src/**)"},
		verdict: chain.Ask, hard: true, reason: "output redirect $F is known only at run time and may match deny rule Edit(./src/**); it is judged again"},
	{name: "redirect/input", cmd: "cat < @@F", allow: []string{"cat:*"}, verdict: chain.Ask, reason: "input redirect $F is known only at run time"},
	{name: "redirect/known target unchanged", cmd: "echo hi > /dev/null", allow: []string{"echo:*"}, verdict: chain.Allow},

	// Segments that set the chain's variables (variables.go): allowed as
	// the engine's built-ins, unless a variable can make later programs
	// run other code or an exported name is known only at run time.
	{name: "variables/assignment alone", cmd: "X=1", verdict: chain.Allow, reason: "sets chain variables (an engine built-in)"},
	{name: "variables/assignments alone, one unknown value", cmd: "X=1 Y=@@V", verdict: chain.Allow, reason: "sets chain variables"},
	{name: "variables/assignment of an exported variable", cmd: "PATH=x", allow: []string{"Bash"}, verdict: chain.Ask,
		reason: "the assignment PATH= changes an exported variable", notReason: "sets chain variables"},
	{name: "variables/assignment of PATH, unknown value", cmd: "X=1 PATH=@@P", verdict: chain.Ask, reason: "the assignment PATH= changes an exported variable"},
	{name: "variables/assignment of PATH, dontAsk", cmd: "PATH=x.so", mode: ModeDontAsk, verdict: chain.Deny},
	{name: "variables/assignments alone are not matched by Bash rules", cmd: "X=1", deny: []string{"Bash"}, verdict: chain.Allow},
	{name: "variables/export", cmd: "export LANG=C", builtin: chain.BuiltinExport, verdict: chain.Allow, reason: "engine built-in export"},
	{name: "variables/export of a variable not on the safe-list", cmd: "export GIT_SSH_COMMAND=x", builtin: chain.BuiltinExport, allow: []string{"Bash"},
		verdict: chain.Ask, reason: "export puts GIT_SSH_COMMAND into the environment of programs; GIT_SSH_COMMAND is not on the safe-list"},
	{name: "variables/export without a value", cmd: "export LANG PAGER", builtin: chain.BuiltinExport,
		verdict: chain.Ask, reason: "export puts PAGER into the environment of programs"},
	{name: "variables/export of a name known only at run time", cmd: "export @@N", builtin: chain.BuiltinExport, allow: []string{"Bash"},
		verdict: chain.Ask, reason: "export $N names a variable known only at run time"},
	{name: "variables/export is judged by deny rules", cmd: "export X=1", builtin: chain.BuiltinExport, deny: []string{"Bash(export:*)"},
		verdict: chain.Deny, reason: "matches deny rule Bash(export:*)"},
	{name: "variables/unset", cmd: "unset PATH X", builtin: chain.BuiltinUnset, verdict: chain.Allow, reason: "engine built-in unset"},

	// Suggestions never spell an unknown word.
	{name: "suggest/prefix up to the unknown word", cmd: "gradle build @@T", verdict: chain.Ask, suggest: []string{"Bash(gradle build:*)"}},
	{name: "suggest/none where the verb needs the unknown word", cmd: "make @@T", verdict: chain.Ask, suggest: []string{}},
	{name: "suggest/none for an unknown subcommand", cmd: "git @@X", verdict: chain.Ask, suggest: []string{}},
	{name: "suggest/none for an exact rule", cmd: "python3 @@SCRIPT", verdict: chain.Ask, suggest: []string{}},
	{name: "suggest/none for an unknown program", cmd: "@@CMD x && make a", verdict: chain.Ask, suggest: []string{"Bash(make a:*)"}},
	{name: "suggest/glob word of its own", cmd: "pytest @@GLOB", verdict: chain.Ask, suggest: []string{"Bash(pytest:*)"}},
}

func TestUnknownWords(t *testing.T) {
	root, home := fixture(t)
	for _, c := range unknownCases {
		t.Run(c.name, func(t *testing.T) {
			judge := func(mode Mode) *chain.Decision {
				ch := unknownChain(t, c.cmd)
				if c.builtin != "" {
					ch.Segments()[0].Builtin = c.builtin
				}
				p := &Policy{Home: home, Mode: mode, ReadOnlyAutoAllow: c.readOnly}
				p.Allow, p.PathAllow = mustRulesAndPaths(t, c.allow)
				p.Ask, p.PathAsk = mustRulesAndPaths(t, c.ask)
				p.Deny, p.PathDeny = mustRulesAndPaths(t, c.deny)
				d, err := p.Authorize(context.Background(), ch, root)
				if err != nil {
					t.Fatal(err)
				}
				return d
			}
			problems := unknownProblems(c, judge(c.mode))
			if c.hard {
				// The ask is hard: no mode lifts it, dontAsk denies it.
				for mode, want := range map[Mode]chain.Verdict{ModeBypass: chain.Ask, ModeDontAsk: chain.Deny} {
					hc := c
					hc.verdict, hc.suggest = want, nil
					for _, p := range unknownProblems(hc, judge(mode)) {
						problems = append(problems, string(mode)+": "+p)
					}
				}
			}
			if len(problems) > 0 && c.known != "" {
				t.Skip("known gap: " + c.known)
			}
			for _, p := range problems {
				t.Error(p)
			}
			if len(problems) == 0 && c.known != "" {
				t.Logf("the known gap is closed, drop it: %s", c.known)
			}
		})
	}
}

// unknownProblems lists what d misses of the unknownCase c.
func unknownProblems(c unknownCase, d *chain.Decision) []string {
	var out []string
	all := strings.Join(d.Chain, "\n")
	for _, s := range d.Segments {
		all += "\n" + strings.Join(s.Reasons, "\n")
	}
	if d.Verdict != c.verdict {
		out = append(out, fmt.Sprintf("%q: verdict %s, want %s\n%s", c.cmd, d.Verdict, c.verdict, all))
	}
	if c.reason != "" && !strings.Contains(all, c.reason) {
		out = append(out, fmt.Sprintf("%q: no reason holds %q:\n%s", c.cmd, c.reason, all))
	}
	if c.notReason != "" && strings.Contains(all, c.notReason) {
		out = append(out, fmt.Sprintf("%q: a reason holds %q:\n%s", c.cmd, c.notReason, all))
	}
	if c.rule != "" && d.Segments[0].Rule != c.rule {
		out = append(out, fmt.Sprintf("%q: rule %q, want %q", c.cmd, d.Segments[0].Rule, c.rule))
	}
	if c.suggest != nil && !slices.Equal(d.Suggestions, c.suggest) {
		out = append(out, fmt.Sprintf("%q: suggestions %q, want %q", c.cmd, d.Suggestions, c.suggest))
	}
	if bad := nulInDecision(d); bad != "" {
		out = append(out, fmt.Sprintf("%q: %s holds a NUL byte", c.cmd, bad))
	}
	return out
}

// nulInDecision names the first text of d holding a NUL byte, which no
// real word has (the policy types words known only at run time; no text
// may stand for one), or "".
func nulInDecision(d *chain.Decision) string {
	has := func(s string) bool { return strings.IndexByte(s, 0) >= 0 }
	for _, s := range d.Segments {
		if has(s.Rule) || has(s.Text) {
			return fmt.Sprintf("segment rule or text %q", s.Rule+" "+s.Text)
		}
		for _, r := range s.Reasons {
			if has(r) {
				return fmt.Sprintf("reason %q", r)
			}
		}
	}
	for _, r := range append(slices.Clone(d.Chain), d.Suggestions...) {
		if has(r) {
			return fmt.Sprintf("chain reason or suggestion %q", r)
		}
	}
	return ""
}

// TestUnknownClassifierCannotAllow: the classifier may not lift the ask of
// a program known only at run time, but may deny it.
func TestUnknownClassifierCannotAllow(t *testing.T) {
	answer := chain.Allow
	p := &Policy{Classifier: ClassifierFunc(func(context.Context, *chain.Segment, *chain.SegmentDecision) (chain.Verdict, error) {
		return answer, nil
	})}
	judge := func(src string) *chain.Decision {
		d, err := p.Authorize(context.Background(), unknownChain(t, src), testprog.TempDir(t))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if d := judge("@@CMD x"); d.Verdict != chain.Ask || !slices.Contains(d.Segments[0].Reasons, "classifier: allow ignored, the program is known only at run time") {
		t.Errorf("classifier allow: %s %q", d.Verdict, d.Segments[0].Reasons)
	}
	if d := judge("gradle @@X"); d.Verdict != chain.Allow {
		t.Errorf("an unknown argument is the classifier's to judge: %s", d.Verdict)
	}
	answer = chain.Deny
	if d := judge("@@CMD x"); d.Verdict != chain.Deny {
		t.Errorf("classifier deny: %s", d.Verdict)
	}
}

// TestUnknownSuggest: Suggest itself never proposes a rule spelling an
// unknown word.
func TestUnknownSuggest(t *testing.T) {
	for cmd, want := range map[string]string{
		"make @@T":             "",
		"make build @@GLOB":    "", // make's guard stops make build:* on it
		"pytest @@X":           "Bash(pytest:*)",
		"npm run @@S":          "", // npm's guard stops npm run:* on it
		"git @@X":              "",
		"git log @@X":          "",
		"python3 @@X":          "",
		"@@CMD":                "",
		"timeout @@T make":     "",
		"timeout 5 pytest @@T": "Bash(pytest:*)",
		"cargo build @@X":      "",
		"docker compose @@X":   "Bash(docker compose:*)",
		"kubectl get pods @@P": "Bash(kubectl get:*)",
	} {
		seg := unknownChain(t, cmd).Segments()[0]
		if got := Suggest(seg); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", cmd, got, want)
		}
	}
}

// TestRuleRefusesNUL: a rule literal holding a NUL byte matches no real
// word and would carry the byte into a decision; Authorize refuses it.
func TestRuleRefusesNUL(t *testing.T) {
	nul := string(rune(0))
	for _, r := range []Rule{
		{Text: "rm", Match: Prefix, Tokens: []string{"rm", nul + "$X"}},
		{Text: "g", Match: Glob, Parts: []string{"ls " + nul, ""}},
		{Text: "a" + nul, Match: Any},
		{Text: "FOO", Match: Exact, Tokens: []string{"make"}, Assigns: []chain.Assign{{Name: "FOO", Value: nul + "$V"}}},
	} {
		p := &Policy{Allow: []Rule{r}}
		if _, err := p.Authorize(context.Background(), parse(t, "ls"), testprog.TempDir(t)); err == nil {
			t.Errorf("rule %q with a NUL byte was accepted", r.Text)
		}
	}
}

// showWords joins words by blanks, each as written.
func showWords(ws []word) string {
	s := make([]string, len(ws))
	for i, w := range ws {
		s[i] = w.show()
	}
	return strings.Join(s, " ")
}

// testArgv types a test's argv: a word starting with "$" is known only at
// run time, written so.
func testArgv(ss []string) []word {
	out := make([]word, len(ss))
	for i, s := range ss {
		out[i] = lit(s)
		if strings.HasPrefix(s, "$") {
			out[i] = unknownWord(s)
		}
	}
	return out
}

// TestMayEqualSeq pins the pessimistic reading of a run of words: each
// unknown word stands for any run of words, none included.
func TestMayEqualSeq(t *testing.T) {
	u := "$X"
	for _, c := range []struct {
		argv, toks    []string
		prefix, canon bool
		want          bool
	}{
		{[]string{u}, []string{"rm", "-rf", "/"}, false, false, true},
		{[]string{u, "x"}, []string{"rm", "-rf", "/"}, false, false, false},
		{[]string{u, "/"}, []string{"rm", "-rf", "/"}, false, false, true},
		{[]string{"rm", u}, []string{"rm"}, false, false, true},
		{[]string{"ls", u}, []string{"rm"}, true, false, false},
		{[]string{u, "ls"}, []string{"rm"}, true, false, true},
		{[]string{u, "/bin/RM", "x"}, []string{"rm", "x"}, false, true, true},
		{[]string{u, "/bin/RM", "x"}, []string{"rm", "x"}, false, false, false},
		{[]string{"git", u, "main"}, []string{"git", "push", "origin", "main"}, false, false, true},
		{[]string{"git", u, "main"}, []string{"git", "push", "origin", "dev"}, false, false, false},
		{[]string{"git", u, u, "x"}, []string{"git", "push", "--force"}, true, false, true},
	} {
		if got := mayEqualSeq(testArgv(c.argv), c.toks[0], c.toks, c.canon, c.prefix); got != c.want {
			t.Errorf("mayEqualSeq(%q, %q, prefix %v, canon %v) = %v, want %v",
				strings.Join(c.argv, " "), c.toks, c.prefix, c.canon, got, c.want)
		}
	}
}

// TestMayGlobMatch pins the pessimistic glob reading, and checks it
// agrees with globMatch wherever no word is unknown.
func TestMayGlobMatch(t *testing.T) {
	u := "$X"
	for _, c := range []struct {
		parts []string
		argv  []string
		want  bool
	}{
		{[]string{"git ", " --force"}, []string{"git", u}, true},
		{[]string{"git ", " --force"}, []string{"git", u, "main"}, false},
		{[]string{"git push"}, []string{"git", u, "push"}, true},   // $X empty
		{[]string{"gitk", ""}, []string{"git", u}, false},          // a word of its own
		{[]string{"git pushx"}, []string{"git", u, "x"}, false},    // a blank before x
		{[]string{"npm run test", ""}, []string{"npm", u}, true},   // $X = "run test"
		{[]string{"ls"}, []string{u, "ls"}, true},                  // $X empty
		{[]string{"a ", " b ", " c"}, []string{u, "b", u}, true},   // both holes
		{[]string{"a ", " b ", " c"}, []string{u, "x", "c"}, true}, // "a b x c"
		{[]string{"a b"}, []string{u, "x"}, false},
	} {
		argv := testArgv(c.argv)
		if got := mayGlobMatch(c.parts, argv[0], argv[1:]); got != c.want {
			t.Errorf("mayGlobMatch(%q, %q) = %v, want %v", c.parts, strings.Join(c.argv, " "), got, c.want)
		}
	}
	rng := rand.New(rand.NewSource(1))
	alphabet := []string{"a", "b", " ", "ab", "a b", ""}
	rword := func() string {
		var b strings.Builder
		for i := rng.Intn(4); i > 0; i-- {
			b.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		return b.String()
	}
	for i := 0; i < 20000; i++ {
		parts := make([]string, 1+rng.Intn(4))
		for k := range parts {
			parts[k] = rword()
		}
		argv := make([]word, 1+rng.Intn(4))
		for k := range argv {
			argv[k] = lit(rword())
		}
		if got, want := mayGlobMatch(parts, argv[0], argv[1:]), globMatch(parts, argv[0], argv[1:]); got != want {
			t.Fatalf("parts %q argv %q: mayGlobMatch %v, globMatch %v", parts, showWords(argv), got, want)
		}
	}
}
