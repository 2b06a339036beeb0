package policy

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// precisionCases are the words, globs, devices and directories the policy
// knows are no risk, beside the ones it must still ask or deny about: a
// word is a path only where the program's record says so.
var precisionCases = []bypassCase{
	// echo and printf print their operands; their redirects are writes.
	{cmd: "echo $HOME", verdict: "allow", why: "echo prints the word, it reads no file"},
	{cmd: `echo "$PATH"`, verdict: "allow", env: []string{"PATH=/usr/bin:/home/x/.cargo/bin"}, why: "a printed value is no path"},
	{cmd: "echo ~", verdict: "allow", why: "the home directory printed is not read"},
	{cmd: "printf '%s\\n' {HOME}/.ssh/id_rsa", verdict: "allow", allow: []string{"printf:*"}, why: "printf prints the name"},
	{cmd: "echo x > {HOME}/.bashrc", verdict: "ask", why: "the redirect is still a write outside the roots"},
	{cmd: "echo ~/.ssh/id_rsa", verdict: "allow", deny: []string{"Read(~/.ssh/**)"}, why: "a Read deny judges reads; echo reads nothing"},
	{cmd: "echo x; rm -rf /", verdict: "deny", why: "a printer does not carry the chain past a deny"},
	// A glob is known when the plan is made unless a segment before it may
	// write where it looks.
	{cmd: "ls docs/*.md && cat docs/*.md", verdict: "allow", plan: "ls docs/readme.md; cat docs/readme.md",
		why: "ls writes nothing: the second glob is known"},
	{cmd: "touch docs/b.md && cat docs/*.md", verdict: "ask", reason: "known only at run time",
		why: "touch may create files the glob then matches"},
	{cmd: "ls > docs/x.md && cat docs/*.md", verdict: "ask", reason: "known only at run time",
		why: "the redirect writes a file"},
	{cmd: "sort -o docs/x.md docs/readme.md && cat docs/*.md", verdict: "ask", reason: "known only at run time",
		why: "sort -o writes: its guard says so"},
	// After a cd the plan knows the directory of: git asks only where it
	// finds another repository, each write is judged where it lands.
	{cmd: "cd sub && git remote -v", verdict: "allow", allow: []string{"Bash(cd:*)", "Bash(git remote:*)"},
		why: "a subdirectory of the same repository"},
	{cmd: "cd nested/src && git status", verdict: "ask", reason: "belongs to the repository", why: "a nested repository's configuration"},
	{cmd: "cd bare.git && git log", verdict: "ask", reason: "belongs to the repository", why: "a bare repository"},
	{cmd: "cd wt && git status", verdict: "ask", reason: "belongs to the repository", why: "a .git file of its own"},
	{cmd: "cd {HOME} && git status", verdict: "ask", why: "outside the roots, and in no repository"},
	{cmd: "true && cd sub; git status", verdict: "ask", reason: "known only at run time", why: "the plan cannot know where git runs"},
	{cmd: "cd sub && git status", verdict: "deny", deny: []string{"Bash(git status:*)"}, why: "deny rules still match"},
	{cmd: "git status; cd nested && ls", verdict: "allow", why: "git ran before the cd"},
	// git -C is judged as cd then git is, and git's paths where it leads.
	{cmd: "git -C sub remote -v", verdict: "allow", allow: []string{"Bash(git:*)"}, why: "a subdirectory of the same repository"},
	{cmd: "git -C nested/src status", verdict: "ask", allow: []string{"Bash(git:*)"}, reason: "belongs to the repository",
		why: "a nested repository's configuration"},
	{cmd: "git -C bare.git log", verdict: "ask", allow: []string{"Bash(git:*)"}, reason: "belongs to the repository", why: "a bare repository"},
	{cmd: "git -C {HOME} status", verdict: "ask", allow: []string{"Bash(git:*)"}, reason: "outside the roots", why: "outside the roots"},
	{cmd: "true && X=sub; git -C $X status", verdict: "ask", allow: []string{"Bash(git:*)", "Bash(true)"}, reason: "known only at run time",
		why: "the plan cannot know where git runs"},
	{cmd: "git -C src checkout -- a", verdict: "deny", allow: []string{"Bash(git:*)"}, deny: []string{"Edit(src/a)"}, mode: ModeAcceptEdits,
		why: "git's paths are judged where -C leads"},
	{cmd: "git -C sub push", verdict: "deny", allow: []string{"Bash(git:*)"}, deny: []string{"Bash(git push:*)"}, why: "deny rules see past -C"},
	{cmd: "git -C sub --git-dir=x status", verdict: "ask", allow: []string{"Bash(git:*)"}, reason: "--git-dir", why: "--git-dir still asks"},
	{cmd: "cd src && mkdir -p a b", verdict: "allow", mode: ModeAcceptEdits, why: "each write judged in src, inside the roots"},
	{cmd: "cd src && mkdir -p a b", verdict: "allow", why: "default mode: the rule naming mkdir covers its writes in src"},
	{cmd: "cd src && echo x > a/f", verdict: "ask", reason: "is a write", why: "default mode: a redirect needs Edit permission, not a chain-wide ask"},
	{cmd: "cd src && touch ../../x", verdict: "ask", mode: ModeAcceptEdits, reason: "outside the roots", why: "the write lands outside, judged from src"},
	{cmd: "cd src && echo x > ../.git/config", verdict: "ask", mode: ModeAcceptEdits, reason: "sensitive", why: "judged from src: .git"},
	{cmd: "true && cd src; mkdir -p a", verdict: "ask", mode: ModeAcceptEdits, reason: "known only at run time",
		why: "the plan cannot know where the write lands"},
	{cmd: "true && cd src && mkdir -p a", verdict: "allow", mode: ModeAcceptEdits, why: "after && mkdir runs only if cd reached src"},
	{cmd: "true && cd sub && git remote -v", verdict: "allow", allow: []string{"Bash(cd:*)", "Bash(git remote:*)", "Bash(true)"},
		why: "git after && runs in sub, the same repository"},
	{cmd: "true && cd src || mkdir -p a", verdict: "ask", mode: ModeAcceptEdits, reason: "known only at run time",
		why: "after || mkdir runs where cd failed or never ran"},
	{cmd: "true && cd nested && git status", verdict: "ask", reason: "belongs to the repository", why: "still a nested repository"},
	{cmd: "cd .claude && echo x > settings.json", verdict: "ask", mode: ModeAcceptEdits, why: "agent settings, judged in .claude"},
	// bash -n reads its script and runs nothing.
	{cmd: "bash -n docs/readme.md", verdict: "allow", allow: []string{"Bash(bash:*)"}, why: "a syntax check runs nothing"},
	{cmd: "bash -n {HOME}/.bashrc", verdict: "ask", allow: []string{"Bash(bash:*)"}, reason: "sensitive", why: "the script is read"},
	{cmd: "bash -n docs/readme.md", verdict: "deny", allow: []string{"Bash(bash:*)"}, deny: []string{"Read(docs/**)"},
		why: "a Read deny still sees the script"},
	{cmd: "bash docs/readme.md", verdict: "ask", allow: []string{"Bash(bash:*)"}, why: "without -n the script runs"},
	{cmd: "bash -n -c 'rm -rf /'", verdict: "deny", allow: []string{"Bash(bash:*)"}, why: "-c is a body, judged as ever"},
	{cmd: "bash -nc 'ls'", verdict: "ask", allow: []string{"Bash(bash:*)", "Bash(ls:*)"}, why: "only -n alone is a syntax check"},
	{cmd: "bash -n docs/readme.md", verdict: "deny", allow: []string{"Bash(bash:*)"}, deny: []string{"Bash(bash:*)"}, why: "deny rules still match"},
	// sha256sum -c reads its list and the files the list names.
	{cmd: "sha256sum -c sums.txt", verdict: "allow", allow: []string{"Bash(sha256sum:*)"}, reason: "docs/tagged.md",
		why: "every name in the list is a read inside the roots"},
	{cmd: "md5sum --check --quiet sums.txt", verdict: "allow", allow: []string{"Bash(md5sum:*)"}, why: "the family reads alike"},
	{cmd: "sha256sum -c leaks.txt", verdict: "ask", allow: []string{"Bash(sha256sum:*)"}, reason: "sensitive",
		why: "the list names a key"},
	{cmd: "sha256sum -c sums.txt", verdict: "deny", allow: []string{"Bash(sha256sum:*)"}, deny: []string{"Read(docs/other.md)"},
		why: "a Read deny sees the names in the list"},
	{cmd: "cat sums.txt | sha256sum -c", verdict: "ask", allow: []string{"Bash(sha256sum:*)", "Bash(cat:*)"},
		reason: "cannot be judged before it runs", why: "a list from a pipe is unknown"},
	{cmd: "sha256sum -c nosuch.txt", verdict: "ask", allow: []string{"Bash(sha256sum:*)"}, why: "a list not there is unknown"},
	{cmd: "sha256sum -c <<'EOF'\n0123  {HOME}/.aws/credentials\nEOF", verdict: "ask", allow: []string{"Bash(sha256sum:*)"},
		reason: "sensitive", why: "a heredoc list is read before the run"},
	// The null device as an output operand keeps nothing.
	{cmd: "go build -o /dev/null ./...", verdict: "allow", why: "the output is the null device"},
	{cmd: "curl -s -o /dev/null -w '%{http_code}' http://localhost:3000", verdict: "allow", allow: []string{"Bash(curl:*)"},
		deny: []string{}, why: "curl -o /dev/null writes nothing"},
	{cmd: "curl -s -o out.html http://localhost:3000", verdict: "ask", allow: []string{"Bash(curl:*)"}, deny: []string{},
		why: "curl -o a file still writes"},
	{cmd: "go build -o {HOME}/bin/x ./...", verdict: "ask", why: "a real output outside the roots"},
	{cmd: "diff docs/readme.md /dev/null", verdict: "allow", allow: []string{"Bash(diff:*)"}, why: "reading the null device reads nothing"},
	{cmd: "rm /dev/null", verdict: "ask", allow: []string{"Bash(rm:*)"}, mode: ModeAcceptEdits, why: "removing the device is no output to it"},
	{cmd: "go build -o /dev/null ./...", verdict: "deny", deny: []string{"Bash(go build:*)"}, why: "deny rules still match"},
	// xargs and find -exec running an allowed read-only program judge
	// like that program; anything else keeps the guard's ask.
	{cmd: "find docs -name '*.py' | xargs wc -l", verdict: "allow", allow: []string{"Bash(find:*)", "Bash(xargs:*)", "Bash(wc:*)"},
		rule: "Bash(xargs:*)", reason: "wc (read-only, allowed by Bash(wc:*))", why: "xargs runs wc, which reads"},
	{cmd: "xargs wc -l", verdict: "ask", allow: []string{"Bash(xargs:*)"}, why: "wc itself is allowed by no rule"},
	{cmd: "echo {HOME}/.ssh/id_rsa | xargs wc -l", verdict: "ask", allow: []string{"Bash(xargs:*)", "Bash(wc:*)"},
		why: "the input is no plain find's: the files are not known"},
	{cmd: "find docs -printf '{HOME}/.ssh/id_rsa' | xargs wc -l", verdict: "ask", allow: []string{"Bash(find:*)", "Bash(xargs:*)", "Bash(wc:*)"},
		why: "find -printf prints any text"},
	{cmd: "find -L docs | xargs wc -l", verdict: "ask", allow: []string{"Bash(find:*)", "Bash(xargs:*)", "Bash(wc:*)"},
		why: "find -L follows links out of the tree"},
	{cmd: "find . | xargs wc -l", verdict: "ask", allow: []string{"Bash(find:*)", "Bash(xargs:*)", "Bash(wc:*)"},
		reason: "link found below", skip: needSymlinks, why: "a link below . leads to ~/.ssh"},
	{cmd: "find spaced | xargs wc -l", verdict: "ask", allow: []string{"Bash(find:*)", "Bash(xargs:*)", "Bash(wc:*)"},
		reason: "would be split by xargs", why: "a name with a blank is two words to xargs"},
	{cmd: "find . -exec grep -l x {} +", verdict: "ask", allow: []string{"Bash(find:*)", "Bash(grep:*)"},
		reason: "link found below", skip: needSymlinks, why: "grep opens the link to ~/.ssh"},
	{cmd: "find -L docs -exec grep -l x {} +", verdict: "ask", allow: []string{"Bash(find:*)", "Bash(grep:*)"}, why: "links followed"},
	{cmd: "xargs rm", verdict: "ask", allow: []string{"Bash(xargs:*)", "Bash(rm:*)"}, why: "rm is no reader"},
	{cmd: "xargs sh -c 'wc -l'", verdict: "ask", allow: []string{"Bash(xargs:*)", "Bash(sh:*)", "Bash(wc:*)"}, why: "a shell is no reader"},
	{cmd: "xargs sort -o out", verdict: "ask", allow: []string{"Bash(xargs:*)", "Bash(sort:*)"}, why: "sort -o writes"},
	{cmd: "xargs wc -l", verdict: "deny", allow: []string{"Bash(xargs:*)", "Bash(wc:*)"}, deny: []string{"Bash(wc:*)"},
		why: "the command xargs runs still meets deny rules"},
	{cmd: "xargs cat", verdict: "ask", allow: []string{"Bash(xargs:*)", "Bash(cat:*)", "Read(docs/**)"}, deny: []string{"Read(~/.ssh/**)"},
		why: "the files named on the input cannot be checked against a Read deny"},
	// The read-only table alone judges them the same way: xargs fed a
	// plain find, and find -exec, running only read-only programs on files
	// below trees the plan names; an input it cannot see still asks.
	{cmd: "find docs -name '*.py' | xargs wc -l", verdict: "allow", allow: []string{"ls"}, readOnly: true,
		reason: "xargs (auto-allowed): runs only wc (read-only)", why: "the read-only table: xargs runs wc on files below docs"},
	{cmd: "find docs -name '*.py' -exec grep -l x {} +", verdict: "allow", allow: []string{"ls"}, readOnly: true,
		reason: "find (auto-allowed): runs only grep (read-only)", why: "the read-only table: find runs grep"},
	{cmd: "cat docs/readme.md | xargs wc -l", verdict: "ask", allow: []string{"ls"}, readOnly: true,
		why: "a list the plan cannot see may name any file"},
	{cmd: "find docs | xargs rm", verdict: "ask", allow: []string{"ls"}, readOnly: true, why: "rm is no reader"},
	{cmd: "find docs -exec rm {} +", verdict: "ask", allow: []string{"ls"}, readOnly: true, why: "rm is no reader"},
	{cmd: "find docs | xargs grep x", verdict: "ask", allow: []string{"ls"}, readOnly: true, deny: []string{"Read(./docs/readme.md)"},
		why: "a Read deny cannot be checked on files found at run time"},
	{cmd: "find docs | xargs wc -l", verdict: "deny", allow: []string{"ls"}, readOnly: true, deny: []string{"Bash(wc:*)"},
		why: "deny rules still see the command xargs runs"},
	{cmd: "xargs --version", verdict: "allow", allow: []string{"Bash(xargs:*)"}, why: "xargs --version runs nothing"},
	{cmd: "find docs -name '*.py' -exec grep -l x {} +", verdict: "allow", allow: []string{"Bash(find:*)", "Bash(grep:*)"},
		rule: "Bash(find:*)", why: "find runs grep, which reads"},
	{cmd: "find docs -type f -execdir wc -l {} ';' -exec head -1 {} ';'", verdict: "allow",
		allow: []string{"Bash(find:*)", "Bash(wc:*)", "Bash(head:*)"}, why: "every command find runs reads"},
	{cmd: "find . -exec grep -l x {} +", verdict: "ask", allow: []string{"Bash(find:*)"}, why: "grep itself is allowed by no rule"},
	{cmd: "find . -exec rm {} ';'", verdict: "ask", allow: []string{"Bash(find:*)", "Bash(rm:*)"}, why: "rm is no reader"},
	{cmd: "find . -exec grep -l x {} + -fprint out", verdict: "ask", allow: []string{"Bash(find:*)", "Bash(grep:*)"},
		why: "-fprint writes a file"},
	{cmd: "find . -exec grep -l x {}", verdict: "ask", allow: []string{"Bash(find:*)", "Bash(grep:*)"},
		why: "an unterminated -exec is not read as a command"},
	{cmd: "find . -exec grep -l x {} +", verdict: "deny", allow: []string{"Bash(find:*)", "Bash(grep:*)"}, deny: []string{"Bash(grep:*)"},
		why: "the command find runs still meets deny rules"},
	// find -delete removes what it finds below its starting points, as rm
	// removes its operands.
	{cmd: "find . -name '*.pyc' -delete", verdict: "allow", allow: []string{"Bash(find:*)"}, mode: ModeAcceptEdits,
		why: "a removal inside the roots, accepted as rm's is"},
	{cmd: "find . -name '*.pyc' -delete", verdict: "allow", allow: []string{"Bash(find:*)"},
		why: "default mode: the rule naming find covers its removal inside the roots, as Bash(rm:*) covers rm's"},
	{cmd: "find . -delete", verdict: "ask", allow: []string{"Bash(find:*)"}, mode: ModeAcceptEdits, reason: "may remove", hard: true,
		why: "every file below ., .git and .claude included"},
	{cmd: "find . -name hooks -delete", verdict: "ask", allow: []string{"Bash(find:*)"}, mode: ModeAcceptEdits, reason: "may remove",
		why: "the name matches .git/hooks"},
	{cmd: "find . -name '*.pyc' -o -name x -delete", verdict: "ask", allow: []string{"Bash(find:*)"}, mode: ModeAcceptEdits,
		reason: "may remove", why: "an expression with -o matches any name"},
	{cmd: "find docs -name '*.pyc' -delete", verdict: "deny", allow: []string{"Bash(find:*)"}, deny: []string{"Edit(docs/**)"},
		mode: ModeAcceptEdits, why: "an Edit deny names the tree removed"},
	{cmd: "find . -name '*.pyc' -delete", verdict: "ask", allow: []string{"Bash(find:*)"}, deny: []string{"Edit(docs/**)"},
		mode: ModeAcceptEdits, reason: "Edit(docs/**)", why: "an Edit deny below the tree removed"},
	{cmd: "find {ROOT} -delete", verdict: "ask", allow: []string{"Bash(find:*)"}, mode: ModeAcceptEdits,
		reason: "a root", why: "find removes its starting point itself when it is no ."},
	{cmd: "find {HOME} -name '*.pyc' -delete", verdict: "ask", allow: []string{"Bash(find:*)"}, mode: ModeAcceptEdits,
		why: "outside the roots"},
	{cmd: "find . -delete", verdict: "ask", allow: []string{"Bash(ls:*)"}, readOnly: true, mode: ModeAcceptEdits,
		why: "the read-only table does not allow a removal"},
	{cmd: "rm -r . ; find . -delete", verdict: "deny", allow: []string{"Bash(find:*)"}, deny: []string{"Bash(rm:*)"},
		why: "find -delete is no way past an rm deny elsewhere in the chain"},
	// find -exec rm [-rf] {} removes what it finds, as -delete does.
	{cmd: "find . -type d -name __pycache__ -exec rm -rf {} +", verdict: "allow", allow: []string{"Bash(find:*)"}, deny: []string{},
		reason: "find -exec rm below . is inside the roots", why: "judged as find -delete, covered by the rule naming find"},
	{cmd: "find docs -name '*.pyc' -execdir rm -f {} ';'", verdict: "allow", allow: []string{"Bash(find:*)"}, mode: ModeAcceptEdits,
		why: "-execdir and ';' too"},
	{cmd: "find . -exec rm -rf {} +", verdict: "ask", allow: []string{"Bash(find:*)"}, deny: []string{}, mode: ModeAcceptEdits, reason: "sensitive",
		why: "it may remove .git and .claude below ."},
	{cmd: "find docs -exec rm -rf {} +", verdict: "deny", allow: []string{"Bash(find:*)"}, deny: []string{"Edit(docs/**)"}, mode: ModeAcceptEdits,
		reason: "Edit(docs/**)", why: "an Edit deny on the tree removed"},
	{cmd: "find docs -exec rm {} +", verdict: "deny", allow: []string{"Bash(find:*)"}, deny: []string{"Bash(rm:*)"},
		why: "deny rules see the rm find runs"},
	{cmd: "find docs -exec rm -rf / {} +", verdict: "ask", allow: []string{"Bash(find:*)"}, deny: []string{}, mode: ModeAcceptEdits,
		why: "another operand: no plain removal of what it finds"},
	{cmd: "find docs -exec rm -i {} +", verdict: "ask", allow: []string{"Bash(find:*)"}, mode: ModeAcceptEdits, why: "an rm option not known as plain"},
	{cmd: "find docs -exec rm {} +", verdict: "ask", allow: []string{"Bash(ls:*)"}, readOnly: true, mode: ModeAcceptEdits,
		why: "the read-only table does not allow a removal"},
}

func TestPrecisionTable(t *testing.T) {
	root, home := fixture(t)
	for _, d := range []string{"nested/.git", "nested/src", "bare.git/objects", "bare.git/refs", "wt", "src/a", "spaced/x y"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{"bare.git/HEAD": "ref: refs/heads/main\n", "wt/.git": "gitdir: /elsewhere\n",
		"sums.txt":  "0123abcd  docs/readme.md\n4567cdef *docs/other.md\nSHA256 (docs/tagged.md) = 89ab\n",
		"leaks.txt": "0123abcd  " + filepath.Join(home, ".ssh", "id_rsa") + "\n"}
	for f, text := range files {
		if err := os.WriteFile(filepath.Join(root, f), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range precisionCases {
		t.Run(c.cmd, func(t *testing.T) {
			if c.skip != nil {
				if why := c.skip(); why != "" {
					skipCase(t, why)
				}
			}
			ch, err := planCase(c, root, home)
			if err != nil {
				t.Fatalf("%q: parse or plan: %v", c.cmd, err)
			}
			judge := caseJudge(t, c, root, home, nil)
			for _, p := range caseProblems(c, ch, judge(ch, c.mode), judge, root, home) {
				t.Errorf("%q: %s", c.cmd, p)
			}
		})
	}
}

// TestSumNames: every way a checksum line may name a file gives the name;
// a line read two ways gives both.
func TestSumNames(t *testing.T) {
	for _, tt := range []struct {
		line string
		want []string
	}{
		{"abc  f.txt", []string{" f.txt", "f.txt"}},
		{"abc *f.bin", []string{"*f.bin", "f.bin"}},
		{"abc f", []string{"f"}},
		{"SHA256 (a b) = abc", []string{"a b", "(a b) = abc"}},
		{`\abc  a\nb\\c`, []string{" a\nb\\c", "a\nb\\c"}},
		{"", nil},
	} {
		got, ok := sumNames(tt.line)
		if !ok || !slices.Equal(got, tt.want) {
			t.Errorf("sumNames(%q) = %q %v, want %q", tt.line, got, ok, tt.want)
		}
	}
}

// TestMayWrite: only a program the read-only table allows with its
// arguments, and that writes no file it names, creates no files.
func TestMayWrite(t *testing.T) {
	p := &Policy{}
	for _, tt := range []struct {
		argv  []string
		write bool
	}{
		{[]string{"ls", "-la"}, false},
		{[]string{"cat", "a"}, false},
		{[]string{"sed", "-n", "1p", "f"}, false},
		{[]string{"sort", "-o", "out", "in"}, true},
		{[]string{"find", ".", "-delete"}, true},
		{[]string{"find", ".", "-exec", "cat", "{}", "+"}, true},
		{[]string{"file", "-C", "-m", "magic"}, true},
		{[]string{"/bin/ls"}, true},
		{[]string{"touch", "x"}, true},
		{[]string{"npm", "install"}, true},
	} {
		if got := p.MayWrite(tt.argv); got != tt.write {
			t.Errorf("MayWrite(%q) = %v, want %v", tt.argv, got, tt.write)
		}
	}
}
