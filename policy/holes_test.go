package policy

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
)

// holeCase is one row of the table of the holes issue 12 names: a class
// (1-13), a command, its expected verdict, and the rules it is judged
// with (nil: the bypass table's defaults).
type holeCase struct {
	hole    int
	cmd     string
	verdict string
	why     string
	allow   []string
	ask     []string
	deny    []string
	mode    Mode
	ro      bool
}

// holeAllow adds the wrappers the probe used to the bypass table's
// default allow rules.
var holeAllow = append([]string{"timeout:*", "nice:*", "stdbuf:*", "file:*", "sha256sum:*", "tail:*",
	"git:*", "xargs:*", "env:*", "flock:*", "sudo:*", "chroot:*", "awk:*", "tee:*", "cat:*", "grep:*", "git diff:*"}, defaultAllow...)

var holeCases = []holeCase{
	// 0. The holes a colleague found: equivalent flags per program, and
	// every "system" of an awk program.
	{cmd: `rm -Rf victim`, verdict: "deny", why: "-R is -r for rm"},
	{cmd: `rm -fR victim`, verdict: "deny", why: "-R is -r for rm, in any order"},
	{cmd: `rm -R -f victim`, verdict: "deny", why: "separate flags"},
	{cmd: `rm --recursive -f victim`, verdict: "deny", why: "long and short"},
	{cmd: `sudo rm -Rf victim`, verdict: "deny", why: "behind a wrapper"},
	{cmd: `cp -R a b`, verdict: "deny", why: "cp -R is cp -r", deny: []string{"cp -r:*"}},
	{cmd: `chmod --recursive 777 x`, verdict: "deny", why: "chmod --recursive is -R", deny: []string{"chmod -R:*"}},
	{cmd: `chmod -r x`, verdict: "ask", why: "chmod -r is a mode, not -R", deny: []string{"chmod -R:*"}},
	{cmd: `grep -R x .`, verdict: "deny", why: "grep -R does what -r does and more", deny: []string{"grep -r:*"}},
	{cmd: `awk 'BEGIN{systems=1; system("id")}'`, verdict: "ask", why: "the second system is a call"},
	{cmd: `awk 'BEGIN{x="system"; system ("id")}'`, verdict: "ask", why: "a blank before the parenthesis"},
	{cmd: `awk 'BEGIN{mysystem=1; print mysystem}'`, verdict: "allow", why: "no call"},

	// 1. Abbreviated long options of wrappers.
	{hole: 1, cmd: `\time --f echo rm -rf victim`, verdict: "deny", why: "--f is --format, which takes echo: rm runs"},
	{hole: 1, cmd: `\time --fo=%e rm -rf victim`, verdict: "deny", why: "--fo=… is --format"},
	{hole: 1, cmd: `\time --o echo rm -rf v`, verdict: "deny", why: "--o is --output, which takes echo: rm runs"},
	{hole: 1, cmd: `\time --o out echo rm -rf v`, verdict: "ask", why: "--o takes out: echo runs, and the write to out needs an Edit rule"},
	{hole: 1, cmd: `timeout --kill 5 10 rm -rf v`, verdict: "deny", why: "--kill is --kill-after"},
	{hole: 1, cmd: `timeout --s KILL 5 rm -rf v`, verdict: "deny", why: "--s is --signal"},
	{hole: 1, cmd: `nice --adj 5 rm -rf v`, verdict: "deny", why: "--adj is --adjustment"},
	{hole: 1, cmd: `nice --a 5 git push --force`, verdict: "deny", why: "--a is --adjustment"},
	{hole: 1, cmd: `stdbuf --out L rm -rf v`, verdict: "deny", why: "--out is --output"},
	{hole: 1, cmd: `env --uns HOME rm -rf v`, verdict: "deny", why: "--uns is --unset"},
	{hole: 1, cmd: `env --ch / rm -rf v`, verdict: "deny", why: "--ch is --chdir"},
	{hole: 1, cmd: `env --sp 'rm -rf v'`, verdict: "deny", why: "--sp is --split-string"},
	{hole: 1, cmd: `xargs --max-a 1 rm -rf`, verdict: "deny", why: "--max-a is --max-args"},
	{hole: 1, cmd: `xargs --max 1 rm -rf`, verdict: "deny", why: "--max is ambiguous: every later word may be the command"},
	{hole: 1, cmd: `flock --wa 1 lockf rm -rf v`, verdict: "deny", why: "--wa is --wait"},
	{hole: 1, cmd: `chroot --user x / rm -rf v`, verdict: "deny", why: "--user is --userspec"},
	{hole: 1, cmd: `sudo --us root rm -rf v`, verdict: "deny", why: "--us is --user"},
	{hole: 1, cmd: `sudo --pro x rm -rf v`, verdict: "deny", why: "--pro is --prompt"},
	{hole: 1, cmd: `timeout --frobnicate 5 rm -rf v`, verdict: "deny", why: "an unknown option: every later word may be the command"},
	{hole: 1, cmd: `\time --x echo curl x`, verdict: "deny", why: "unknown option, curl may be the command"},
	{hole: 1, cmd: `\time --x echo hi`, verdict: "ask", why: "unknown option: the command is not known"},
	{hole: 1, cmd: `\time --format=%e echo rm -rf v`, verdict: "allow", why: "--format=… takes its value attached: echo runs"},
	{hole: 1, cmd: `timeout --foreground 5 ls`, verdict: "allow", why: "a flag spelled out"},
	{hole: 1, cmd: `timeout --fore 5 ls`, verdict: "allow", why: "an unambiguous abbreviation of a flag"},
	{hole: 1, cmd: `strace -e trace=x --foo rm -rf v`, verdict: "deny", why: "strace takes no abbreviations: --foo is unknown", allow: []string{"strace:*"}},

	// 2. Wrapper options that write or read files.
	{hole: 2, cmd: `\time -o .git/config ls`, verdict: "ask", why: "time -o writes git config", mode: ModeAcceptEdits},
	{hole: 2, cmd: `\time -a -o .git/config ls`, verdict: "ask", why: "-a -o appends to git config", mode: ModeAcceptEdits},
	{hole: 2, cmd: `\time --output=/tmp/chainrun-elsewhere/x ls`, verdict: "ask", why: "writes outside the roots", mode: ModeAcceptEdits},
	{hole: 2, cmd: `\time --outp .bashrc ls`, verdict: "ask", why: "an abbreviation of --output", mode: ModeAcceptEdits},
	{hole: 2, cmd: `\time -o t.txt ls`, verdict: "ask", why: "default mode: the write needs an Edit rule"},
	{hole: 2, cmd: `\time -o t.txt ls`, verdict: "allow", why: "acceptEdits: a write inside the roots", mode: ModeAcceptEdits},
	{hole: 2, cmd: `xargs -a .env echo`, verdict: "deny", why: "xargs -a reads a Read-denied file", deny: []string{"Read(./.env)"}},
	{hole: 2, cmd: `xargs --arg-file=.env echo`, verdict: "ask", why: "xargs --arg-file reads secrets"},
	{hole: 2, cmd: `flock .git/config ls`, verdict: "ask", why: "flock creates its lock file", mode: ModeAcceptEdits},
	{hole: 2, cmd: `sudo -D / ls`, verdict: "ask", why: "sudo -D moves the command elsewhere"},
	{hole: 2, cmd: `env -C / cat etc/passwd`, verdict: "ask", why: "env -C moves the command elsewhere"},

	// 3. sed scripts, judged as the strictest sed reads them.
	{hole: 3, cmd: `sed ':a;e touch X' f`, verdict: "ask", why: "GNU sed ends the label at ;"},
	{hole: 3, cmd: `sed -n ':x;w /tmp/chainrun-elsewhere/f' f`, verdict: "ask", why: "w after a label"},
	{hole: 3, cmd: `sed ': x ; e id' f`, verdict: "ask", why: "blanks around the label"},
	{hole: 3, cmd: `sed 'b end;e id' f`, verdict: "ask", why: "a branch label ends at ; too"},
	{hole: 3, cmd: `sed -e ':a' -e 'e id' f`, verdict: "ask", why: "every -e script is read"},
	{hole: 3, cmd: `sed 's/[/]/g;#/w f' x`, verdict: "ask", why: "busybox sed skips / inside brackets: w f writes"},
	{hole: 3, cmd: `sed 's/[[:alpha:]/]/x/w f' x`, verdict: "ask", why: "a class inside a bracket"},
	{hole: 3, cmd: `sed -n '/[/]/p;#/e id' f`, verdict: "ask", why: "brackets in an address"},
	{hole: 3, cmd: `sed 'y/abc/xyz/;e id' f`, verdict: "ask", why: "e after y"},
	{hole: 3, cmd: `sed 's/a/b/g' f`, verdict: "allow", why: "a plain substitution"},
	{hole: 3, cmd: `sed -n '/x/{p;q}' f`, verdict: "allow", why: "a block of reads"},

	// 4. Symlinks whose target does not exist yet.
	{hole: 4, cmd: `echo x > dangle`, verdict: "ask", why: "dangle points outside: the write creates the outside file", mode: ModeAcceptEdits},
	{hole: 4, cmd: `echo x > dangle-home`, verdict: "ask", why: "dangle-home points at ~/.bash_login", mode: ModeAcceptEdits},
	{hole: 4, cmd: `echo x > dangle-chain`, verdict: "ask", why: "a link to the dangling link", mode: ModeAcceptEdits},
	{hole: 4, cmd: `echo x > dangle-rel/f`, verdict: "ask", why: "a relative dangling link climbing out", mode: ModeAcceptEdits},
	{hole: 4, cmd: `touch dangle`, verdict: "ask", why: "touch through the link", mode: ModeAcceptEdits},
	{hole: 4, cmd: `echo x > loop`, verdict: "allow", why: "a link loop: the kernel refuses it (ELOOP) and nothing is written", mode: ModeAcceptEdits},

	// 5. chainrun's own files.
	{hole: 5, cmd: `echo '{"permissions":{"allow":["Bash"]}}' > settings.json`, verdict: "ask", why: "the policy file", mode: ModeAcceptEdits},
	{hole: 5, cmd: `echo -n > audit.log`, verdict: "ask", why: "the audit log", mode: ModeBypass},
	{hole: 5, cmd: `cp x settings.json`, verdict: "ask", why: "cp onto the policy file", mode: ModeAcceptEdits},
	{hole: 5, cmd: `mv x audit.log`, verdict: "ask", why: "mv onto the audit log", mode: ModeAcceptEdits},
	{hole: 5, cmd: `tee -a audit.log`, verdict: "ask", why: "tee onto the audit log", mode: ModeAcceptEdits},
	{hole: 5, cmd: `echo x > audit-2026-01-01T00-00-00.000.log`, verdict: "ask", why: "a rotated audit log", mode: ModeAcceptEdits},
	{hole: 5, cmd: `echo x > link-settings`, verdict: "ask", why: "a link to the policy file", mode: ModeAcceptEdits},
	{hole: 5, cmd: `echo x > notes.txt`, verdict: "allow", why: "another file", mode: ModeAcceptEdits},

	// 6. git's back doors.
	{hole: 6, cmd: `echo x > .git/modules/sub/config`, verdict: "ask", why: "a submodule's config", mode: ModeAcceptEdits},
	{hole: 6, cmd: `echo x > .git/modules/sub/hooks/post-checkout`, verdict: "ask", why: "a submodule's hook", mode: ModeAcceptEdits},
	{hole: 6, cmd: `echo x > .git/commondir`, verdict: "ask", why: "commondir redirects git", mode: ModeAcceptEdits},
	{hole: 6, cmd: `echo x > .git/worktrees/w/config.worktree`, verdict: "ask", why: "a worktree's config", mode: ModeAcceptEdits},
	{hole: 6, cmd: `echo x > .git/worktrees/w/gitdir`, verdict: "ask", why: "a worktree's gitdir", mode: ModeAcceptEdits},
	{hole: 6, cmd: `echo x > .git/config.worktree`, verdict: "ask", why: "per-worktree config", mode: ModeAcceptEdits},
	{hole: 6, cmd: `echo x > .git/objects/info/alternates`, verdict: "ask", why: "alternates redirect the object store", mode: ModeAcceptEdits},
	{hole: 6, cmd: `echo 'gitdir: /tmp/evil' > sub/.git`, verdict: "ask", why: "a .git file redirects git", mode: ModeAcceptEdits},
	{hole: 6, cmd: `echo x > bare.git/hooks/update`, verdict: "ask", why: "a bare repository's hook", mode: ModeAcceptEdits},
	{hole: 6, cmd: `cp x .git/modules/sub/config`, verdict: "ask", why: "cp onto a submodule's config", mode: ModeAcceptEdits},
	{hole: 6, cmd: `echo x > .gitignore`, verdict: "allow", why: ".gitignore is not git's configuration", mode: ModeAcceptEdits},

	// 7. Program options that load code or configuration.
	{hole: 7, cmd: `npm --userconfig=evil.npmrc test`, verdict: "ask", why: "npm --userconfig loads a config that can name a script shell"},
	{hole: 7, cmd: `npm test --userc=x`, verdict: "ask", why: "npm accepts abbreviations"},
	{hole: 7, cmd: `npm --globalconfig x ci`, verdict: "ask", why: "npm --globalconfig"},
	{hole: 7, cmd: `npm install --git=./evil`, verdict: "ask", why: "npm --git names the git program"},
	{hole: 7, cmd: `npm init --init-module=./x.js`, verdict: "ask", why: "npm --init-module runs a file"},
	{hole: 7, cmd: `pnpm --config.script-shell=./x test`, verdict: "ask", why: "pnpm --config.key=value"},
	{hole: 7, cmd: `pnpm install --pnpmfile=x.cjs`, verdict: "ask", why: "pnpm --pnpmfile runs hooks"},
	{hole: 7, cmd: `yarn --use-yarnrc x install`, verdict: "ask", why: "yarn --use-yarnrc"},
	{hole: 7, cmd: `echo x > .yarnrc.yml`, verdict: "ask", why: "yarnPath runs code", mode: ModeAcceptEdits},
	{hole: 7, cmd: `echo x > .npmrc`, verdict: "ask", why: ".npmrc written then used", mode: ModeAcceptEdits},
	{hole: 7, cmd: `eslint --plugin x .`, verdict: "ask", why: "an eslint plugin is code", allow: []string{"eslint:*"}},
	{hole: 7, cmd: `man -C x ls`, verdict: "ask", why: "man -C"},
	{hole: 7, cmd: `eslint -c evil.js .`, verdict: "ask", why: "an eslint config is code", allow: []string{"eslint:*"}},
	{hole: 7, cmd: `npm ci`, verdict: "allow", why: "a plain npm call"},

	// 8. cd: the directory cd enters, as the runner computes it.
	{hole: 8, cmd: `cd deeplink/../.. && ls`, verdict: "ask", why: "lexically the parent of the root, where the runner goes"},
	{hole: 8, cmd: `cd deeplink/.. && ls`, verdict: "allow", why: "lexically the root itself"},
	{hole: 8, cmd: `cd -P deeplink && ls`, verdict: "allow", why: "-P is an option, not the target"},
	{hole: 8, cmd: `cd -- sub && ls`, verdict: "allow", why: "-- ends the options"},
	{hole: 8, cmd: `cd -L .. && ls`, verdict: "ask", why: "-L then .. leaves the root"},
	{hole: 8, cmd: `cd -- .. && ls`, verdict: "ask", why: "-- then .."},
	{hole: 8, cmd: `cd -P`, verdict: "ask", why: "cd -P alone goes home, outside the roots"},

	// 9. /proc/self and /dev/fd name the program's files, not chainrun's.
	{hole: 9, cmd: `cat /proc/self/cwd/README.md`, verdict: "ask", why: "the program's cwd, judged as outside"},
	{hole: 9, cmd: `cat /proc/self/root/etc/hostname`, verdict: "ask", why: "a process's view of the root"},
	{hole: 9, cmd: `cat /dev/fd/3`, verdict: "ask", why: "a descriptor of the program"},
	{hole: 9, cmd: `cat /proc/1/cwd/x`, verdict: "ask", why: "another process's view"},
	{hole: 9, cmd: `ls > /dev/stdout`, verdict: "allow", why: "a redirect to the standard output stays neutral"},

	// 10. Reads through other programs.
	{hole: 10, cmd: `sed -n p .env`, verdict: "deny", why: "sed reads the denied file", deny: []string{"Read(./.env)"}},
	{hole: 10, cmd: `git diff --no-index a .env`, verdict: "deny", why: "git diff --no-index reads it", deny: []string{"Read(./.env)"}},
	{hole: 10, cmd: `grep KEY < .env`, verdict: "deny", why: "an input redirect reads it", deny: []string{"Read(./.env)"}},
	{hole: 10, cmd: `cat ./sub/../.env`, verdict: "deny", why: "resolved first", deny: []string{"Read(./.env)"}},
	{hole: 10, cmd: `awk 1 .env`, verdict: "deny", why: "awk reads it", deny: []string{"Read(./.env)"}},
	{hole: 10, cmd: `cp .env x`, verdict: "deny", why: "cp reads its source", deny: []string{"Read(./.env)"}},
	{hole: 10, cmd: `tail -n 1 secrets/key`, verdict: "deny", why: "Read(./secrets/**)", deny: []string{"Read(./secrets/**)"}},
	{hole: 10, cmd: `sed -n p .env`, verdict: "ask", why: "sensitive without a rule"},
	{hole: 10, cmd: `sed '1r /etc/shadow' f`, verdict: "ask", why: "sed r reads a sensitive file"},
	{hole: 10, cmd: `sed '1r /tmp/chainrun-elsewhere/x' f`, verdict: "ask", why: "sed r reads outside"},
	{hole: 10, cmd: `find linkout`, verdict: "ask", why: "find through a link pointing outside"},
	{hole: 10, cmd: `ls linkout/`, verdict: "ask", why: "ls through a link pointing outside"},
	{hole: 10, cmd: `find . -L -name x`, verdict: "ask", why: "find -L follows links while walking"},
	{hole: 10, cmd: `grep -r KEY .`, verdict: "ask", why: "the tree holds a Read-denied path", deny: []string{"Read(./.env)"}},
	{hole: 10, cmd: `rg KEY`, verdict: "ask", why: "rg walks the start directory", deny: []string{"Read(./.env)"}},
	{hole: 10, cmd: `grep -r KEY docs`, verdict: "allow", why: "docs cannot hold ./.env", deny: []string{"Read(./.env)"}},
	{hole: 10, cmd: `cat docs/readme.md`, verdict: "allow", why: "another file", deny: []string{"Read(./.env)"}},

	// 11. Windows names of the protected files.
	{hole: 11, cmd: `echo x > '.git\config.'`, verdict: "ask", why: "trailing dot", mode: ModeAcceptEdits},
	{hole: 11, cmd: `echo x > '.git\config '`, verdict: "ask", why: "trailing space", mode: ModeAcceptEdits},
	{hole: 11, cmd: `echo x > '.git.\config'`, verdict: "ask", why: "a dot after the directory", mode: ModeAcceptEdits},
	{hole: 11, cmd: `echo x > '.claude.\settings.json'`, verdict: "ask", why: ".claude with a dot", mode: ModeAcceptEdits},
	{hole: 11, cmd: `echo x > '.git/config::$DATA'`, verdict: "ask", why: "the default data stream", mode: ModeAcceptEdits},
	{hole: 11, cmd: `echo x > '.env:secret'`, verdict: "ask", why: "a named stream of .env", mode: ModeAcceptEdits},
	{hole: 11, cmd: `echo x > '.GIT\CONFIG'`, verdict: "ask", why: "case", mode: ModeAcceptEdits},
	{hole: 11, cmd: `echo x > 'GIT~1\config'`, verdict: "ask", why: "an 8.3 short name", mode: ModeAcceptEdits},

	// 12. Writes by commands of the read-only table.
	{hole: 12, cmd: `file -C -m magic`, verdict: "ask", why: "file -C writes magic.mgc", allow: []string{}, ro: true},
	{hole: 12, cmd: `file -C`, verdict: "ask", why: "file -C writes magic.mgc", allow: []string{}, ro: true},
	{hole: 12, cmd: `sha256sum -c sums`, verdict: "ask", why: "-c reads the files its list names", allow: []string{}, ro: true},
	{hole: 12, cmd: `sort -o out f`, verdict: "ask", why: "sort -o", allow: []string{}, ro: true},
	{hole: 12, cmd: `tree -o out`, verdict: "ask", why: "tree -o", allow: []string{}, ro: true},
	{hole: 12, cmd: `uniq a b`, verdict: "ask", why: "uniq writes its second operand", allow: []string{}, ro: true},
	{hole: 12, cmd: `file -m magic x`, verdict: "allow", why: "-m only reads", allow: []string{}, ro: true},

	// 13. git global options.
	{hole: 13, cmd: `git --no-literal-pathspecs push --force`, verdict: "deny", why: "a known global flag"},
	{hole: 13, cmd: `git --shallow-file x push --force`, verdict: "deny", why: "--shallow-file takes a value"},
	{hole: 13, cmd: `git --new-option push --force origin`, verdict: "deny", why: "an unknown option, read as a flag"},
	{hole: 13, cmd: `git --new-option v push --force origin`, verdict: "deny", why: "an unknown option, read as taking a value"},
	{hole: 13, cmd: `git --new-option status`, verdict: "ask", why: "git:* does not cover an option it cannot read"},
}

// holeFixture adds what the hole table needs to the bypass fixture:
// dangling links, a deep link for cd, secrets, chainrun's own files.
func holeFixture(t *testing.T) (root, home string) {
	root, home = fixture(t)
	outside, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	for _, d := range []string{"deep/a/b/c", "secrets", ".git/modules/sub"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".env", "secrets/key", "settings.json", "audit.log"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("x\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"dangle":        filepath.Join(outside, "newfile"),
		"dangle-home":   filepath.Join(home, ".bash_login"),
		"dangle-chain":  filepath.Join(root, "dangle"),
		"dangle-rel":    "../../nonexistent-dir",
		"loop":          "loop",
		"deeplink":      filepath.Join(root, "deep/a/b/c"),
		"link-settings": filepath.Join(root, "settings.json"),
	}
	for name, target := range links {
		if !linkMade(target, filepath.Join(root, name)) {
			symlinksOK = false
		}
	}
	return root, home
}

func TestHoles(t *testing.T) {
	root, home := holeFixture(t)
	counts := map[int]int{}
	for _, c := range holeCases {
		counts[c.hole]++
		t.Run(c.cmd, func(t *testing.T) {
			if !symlinksOK && (strings.Contains(c.cmd, "link") || strings.Contains(c.cmd, "dangle") || strings.Contains(c.cmd, "loop")) {
				skipCase(t, noSymlinks)
			}
			if c.hole == 9 && runtime.GOOS != "linux" {
				t.Skip("/proc is Linux's")
			}
			allow := holeAllow
			if c.allow != nil {
				allow = c.allow
			}
			deny := defaultDeny
			if c.deny != nil {
				deny = append(append([]string{}, defaultDeny...), c.deny...)
			}
			p := casePolicy(t, bypassCase{allow: allow, ask: c.ask, deny: deny, readOnly: c.ro, mode: c.mode}, home)
			p.Protect = []string{filepath.Join(root, "settings.json"), filepath.Join(root, "audit.log")}
			if c.hole == 9 {
				wd, _ := os.Getwd()
				p.AdditionalDirectories = []string{wd, "/etc"}
			}
			ch, err := chain.ParseDialect(c.cmd, chain.POSIX)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			d, err := p.Authorize(context.Background(), ch, root)
			if err != nil {
				t.Fatal(err)
			}
			if os.Getenv("POLICY_TABLE_VERBOSE") != "" {
				for _, s := range d.Segments {
					t.Logf("%s: %s %s %q", c.cmd, d.Verdict, s.Verdict, s.Reasons)
				}
			}
			if string(d.Verdict) != c.verdict {
				t.Errorf("hole %d: %q: verdict %s, want %s (%s)\nsegments: %+v\nchain: %v", c.hole, c.cmd, d.Verdict, c.verdict, c.why, d.Segments, d.Chain)
			}
		})
	}
	for k := 1; k <= 13; k++ {
		if counts[k] < 3 {
			t.Errorf("hole class %d has %d cases", k, counts[k])
		}
	}
}
