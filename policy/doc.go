// Package policy judges chains against permission rules (allow, ask, deny)
// before anything runs.
//
// A Policy reads rules in the shape of Claude Code's settings files
// ("Bash(git diff:*)", "Bash(npm run test*)", "Bash") and implements
// chain.Authorizer: given a parsed chain it returns an chain.Decision
// with a verdict for every segment, the reasons (the rule that matched, the
// guard that fired, the paths judged), chain-wide reasons and up to five
// suggested rules. Deny beats ask beats allow, whatever the rules' order or
// specificity; a segment no rule allows gets ask; the chain gets the
// strictest verdict.
//
// # Security
//
// The policy judges the argv, assignments and redirects the engine will
// spawn, never a re-joined string, so quoting tricks (empty quotes inside
// a name, a leading backslash) cannot hide a program. What it judges
// before the run is the plan (engine.Plan, expand.Plan): every word
// expanded as far as it can be known then; the engine judges each segment
// again on its real words just before it starts, and a stricter verdict
// stops the chain there. Input the parser refuses ($(…), control flow,
// invisible or bidirectional characters) never reaches it.
//
// Deny and ask rules are matched against every view of a segment: the
// argv as written, the argv with safe variables and simple wrappers
// stripped, and the broad view with every assignment dropped, exec wrappers
// (env, sudo, xargs, timeout, nice, …) unwrapped to a fixpoint, sh -c bodies
// parsed and scanned, program names canonicalised (basename, no .exe,
// NFKC, case-folded) and global options skipped (git -c x=y -C dir push is
// git push). The deny scan covers every segment; there is no cap.
//
// Allow rules are matched only against the narrow view: safe variables
// (LANG, TZ, …) and timeout, time, nice, nohup and stdbuf stripped, the
// program word as written. A variable that can make a program run code
// (PAGER, GIT_SSH_COMMAND, LD_PRELOAD, NODE_OPTIONS, PATH, …) asks. A shell
// wrapper is never allowed by a rule.
//
// Prefix and glob allow rules do not cover the flags that turn a reader into
// a writer or a launcher (find -exec, sed -i and s///e, rg --pre, awk
// system(), git -c and --upload-pack, sort -o, tar --to-command, go test
// -exec, npm exec, …): the dangerous-flag guard asks, naming the flag. Exact
// rules are taken as written.
//
// Paths are judged after resolving symlinks and "..": writes and redirects
// outside the roots, sensitive files (~/.ssh, shell start-up files,
// .git/hooks, agent settings folders, /proc/*/environ) and removals of /, the
// home directory or a root ask, whatever the rules say. cd is tracked, and
// combining it with git, writes or redirects asks.
//
// A word known only at run time (Word.Runtime: $? after a command, a
// variable set on a branch that may be skipped, a glob over files an
// earlier segment may create) is judged as anything it may turn out to be
// (unknown.go). An allow rule's literal never equals one, though a prefix
// rule's tail or a glob rule's trailing star covers it; a program word, or
// a wrapper's own word, known only at run time asks whatever would allow
// it (rules, built-ins, the read-only table, modes, the classifier). Deny
// and ask rules, flag sets and the guard read one as any run of words: an
// ask rule that may match asks; a deny rule that may match only through
// such a word asks too (hard: no mode lifts it), since the segment is
// judged again on its real words when it starts, where the rule denies if
// it matches. A path known only at run time may match every Read or Edit
// deny or ask rule, and otherwise asks in every mode (plan mode denies a
// write). Reasons show its source text ("$X"); no suggestion holds one.
//
// What the policy knows of programs is its registry (registry.go): one
// record per program family, in a prog_<family>.go file, holding the
// names, the options in one grammar (options.go), how it wraps another
// command, its guard, the roles of its operands and option values, its
// global options, whether the read-only mode allows it and whether it runs
// code. The tables above (wrappers, read-only commands, global options,
// the bare prefixes never suggested) are read off the records.
//
// What the policy cannot see is the inside of an interpreter (python3 -c,
// node -e), a build file or a repository's own configuration; rules that
// allow such programs allow whatever they do.
package policy
