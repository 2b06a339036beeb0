package policy

// The command wrapper's cases, beside its record (prog_shell.go): command
// NAME is judged as NAME, through every deny rule; command -v and -V run
// nothing. They run with the bypass table (TestBypassTable), as do read's.
var commandCases = []bypassCase{
	{cmd: `command rm -rf x`, verdict: "deny", why: "command runs rm -rf x, which a deny rule names"},
	{cmd: `command -- rm -rf x`, verdict: "deny", why: "command -- runs rm -rf x"},
	{cmd: `command command rm -rf x`, verdict: "deny", why: "command behind command"},
	{cmd: `command timeout 5 rm -rf x`, verdict: "deny", why: "a wrapper behind command"},
	{cmd: `X=rm; command $X -rf x`, verdict: "deny", why: "the program word of command known from the chain", plan: "X=rm; command rm -rf x"},
	{cmd: `command rm -rf x`, verdict: "allow", why: "command is stripped by the allow view, as timeout is", allow: []string{"Bash(rm:*)"}, deny: []string{}},
	{cmd: `command git log -n 1`, verdict: "allow", why: "the default rule git log:* names the command run"},
	{cmd: `command git clean -fd`, verdict: "deny", why: "the default deny git clean:* names the command run"},
	{cmd: `command -v rm`, verdict: "allow", why: "command -v runs nothing", deny: []string{"Bash(rm:*)"}},
	{cmd: `command -V rm curl`, verdict: "allow", why: "command -V runs nothing", deny: []string{"Bash(rm:*)"}},
	{cmd: `type rm`, verdict: "allow", why: "type runs nothing", deny: []string{"Bash(rm:*)"}},
	{cmd: `command -v git >/dev/null && git push --force`, verdict: "deny", why: "the program after the test is judged"},
}

// readCases: read is judged by its effects, an assignment of each name.
var readCases = []bypassCase{
	{cmd: `read -r a b <<< "x y"; echo $a`, verdict: "allow", why: "read sets chain variables"},
	{cmd: `read PATH <<< /tmp; ls`, verdict: "ask", why: "read assigns PATH, judged as the assignment PATH= is", reason: "PATH"},
	{cmd: `read -a arr`, verdict: reject, why: "read -a is refused: a chain keeps no arrays"},
}

func init() { bypassCases = append(append(bypassCases, commandCases...), readCases...) }
