package policy

import (
	"testing"
)

// exportCases: export NAME=v is judged as NAME=v in front of every
// program it reaches (reach.go): a safe-listed name passes, any other asks
// with the inline assignment's reason and the first program that gets it,
// unless an unset takes it away before any program starts and the chain
// ends.
var exportCases = []bypassCase{
	{cmd: "export NODE_ENV=production && npm run build", verdict: "allow", reason: "engine built-in export",
		why: "NODE_ENV is on the safe-list"},
	{cmd: "export CI=true; go test ./...", verdict: "allow", why: "CI is on the safe-list"},
	{cmd: "export PYTHONPATH=. && python x.py", verdict: "ask", hard: true, allow: plusAllow("python:*"),
		reason: "export puts PYTHONPATH into the environment of programs; PYTHONPATH is not on the safe-list of variables: it changes the code Python loads or runs at start; `python x.py` gets it",
		why:    "python imports from PYTHONPATH"},
	{cmd: "export PATH=$PWD/bin:$PATH && tool", verdict: "ask", hard: true, allow: plusAllow("tool"), env: []string{"PATH=/usr/bin"},
		reason: "PATH is not on the safe-list of variables: it chooses the program every later command name runs; `tool` gets it",
		why:    "PATH chooses the program tool runs"},
	{cmd: "export LD_PRELOAD=x.so; ls", verdict: "ask", hard: true,
		reason: "LD_PRELOAD is not on the safe-list of variables: it loads a library into every program started; `ls` gets it",
		why:    "ls would load x.so"},
	{cmd: "export GIT_SSH_COMMAND='sh -c id' && git fetch", verdict: "ask", hard: true, reason: "`git fetch` gets it",
		why: "git fetch runs GIT_SSH_COMMAND"},
	{cmd: "export BASH_ENV=x.sh && bash -c 'echo hi'", verdict: "ask", hard: true, allow: plusAllow("bash:*"),
		reason: "BASH_ENV is not on the safe-list of variables: it names a script every non-interactive bash runs; `bash -c 'echo hi'` gets it",
		why:    "the shell runs BASH_ENV first"},
	{cmd: "export PAGER=x; echo $(git log)", verdict: "ask", hard: true, reason: "`git log` gets it",
		why: "a command substitution's program gets the variable too"},
	{cmd: "export PYTHONPATH=.", verdict: "ask", hard: true,
		reason: "PYTHONPATH is not on the safe-list of variables: it changes the code Python loads or runs at start; it is still exported when the chain ends",
		why:    "what runs after the chain with its environment (an MCP session's next call) gets it"},
	{cmd: "export DEBUG=1 && unset DEBUG && env | grep DEBUG", verdict: "allow", allow: plusAllow("env", "grep:*"), reason: "engine built-in export",
		why: "DEBUG is unset before any program starts"},
	{cmd: "export DEBUG=1; unset -v X DEBUG; ls", verdict: "allow", why: "unset runs whenever export did"},
	{cmd: "export DEBUG=1 && ls && unset DEBUG", verdict: "ask", reason: "`ls` gets it", why: "ls runs before the unset"},
	{cmd: "export DEBUG=1 && command -v git && unset DEBUG", verdict: "ask", reason: "`command -v git` gets it",
		why: "command may start a program: it counts as one"},
	{cmd: "export DEBUG=1; echo $(ls); unset DEBUG", verdict: "ask", reason: "`ls` gets it",
		why: "the substitution's program runs before the unset"},
	{cmd: "export DEBUG=1 || unset DEBUG; ls", verdict: "ask", reason: "`ls` gets it", why: "the unset does not run after the export"},
	{cmd: "export DEBUG=1 && false && unset DEBUG", verdict: "ask", reason: "still exported when the chain ends",
		why: "the unset runs only if false succeeds"},
	{cmd: "true && export DEBUG=1 && unset DEBUG", verdict: "ask", reason: "still exported when the chain ends",
		why: "judged again as it starts, alone, the export would see no unset: the unset counts only for the chain's first export"},
	{cmd: "export DEBUG=$(pwd) && unset DEBUG", verdict: "ask", reason: "still exported when the chain ends",
		why: "an export with a word known only at run time is judged again as it starts"},
	{cmd: "export DEBUG=1; exit 0; unset DEBUG", verdict: "ask", reason: "still exported when the chain ends",
		why: "exit ends the chain before the unset"},
	{cmd: "export DEBUG=1; false; unset DEBUG", verdict: "ask", reason: "still exported when the chain ends",
		why: "a failure ends the chain before the unset under set -e"},
	{cmd: "export DEBUG=1; unset DEBUG > /nonexistent/f; echo done", verdict: "ask", reason: "still exported when the chain ends",
		why: "a redirect that fails keeps unset from running"},
	{cmd: "export DEBUG=1 | cat", verdict: "allow", why: "a pipeline stage is a subshell: the export reaches nothing"},
	{cmd: "export DEBUG=1; { ls; }; unset DEBUG", verdict: "ask", reason: "gets it", why: "a group's program runs before the unset"},
	{cmd: "export DEBUG=1; if true; then ls; fi; unset DEBUG", verdict: "ask", reason: "gets it", why: "an if's program runs before the unset"},
	{cmd: "export DEBUG=1; for f in a; do ls $f; done; unset DEBUG", verdict: "ask", reason: "gets it", why: "a loop's program runs before the unset"},
	{cmd: "export PYTHONPATH=. && { python x.py; }", verdict: "ask", hard: true, allow: plusAllow("python:*"), reason: "PYTHONPATH",
		why: "python inside a group gets the variable"},
	{cmd: "{ export PYTHONPATH=.; }; python x.py", verdict: "ask", hard: true, allow: plusAllow("python:*"), reason: "PYTHONPATH",
		why: "an export inside a group reaches what follows the group"},
	{cmd: "if true; then export PYTHONPATH=.; fi; unset PYTHONPATH", verdict: "ask", hard: true, reason: "PYTHONPATH",
		why: "an export inside a compound is judged where it goes"},
}

func TestExportReach(t *testing.T) {
	root, home := fixture(t)
	for _, c := range exportCases {
		t.Run(c.cmd, func(t *testing.T) {
			ch, err := planCase(c, root, home)
			if err != nil {
				t.Fatalf("%q: parse or plan: %v", c.cmd, err)
			}
			judge := caseJudge(t, c, root, home, append([]string{"HOME=" + home}, c.env...))
			for _, p := range caseProblems(c, ch, judge(ch, c.mode), judge, root, home) {
				t.Errorf("%q: %s", c.cmd, p)
			}
		})
	}
}
