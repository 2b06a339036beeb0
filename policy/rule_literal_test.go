package policy

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
)

// ruleLiterals are the rules the tests parse, written by hand as Rule
// literals (Text is the map key). The tests below check that each is what
// ParseRule builds from its text and that it judges every test command
// the same way, whatever list it sits in.
var ruleLiterals = map[string]Rule{
	"Bash":    {Match: Any},
	"Bash(*)": {Match: Any},
	"*":       {Match: Glob, Parts: []string{"", ""}},

	"/usr/bin/git status":        {Match: Exact, Tokens: []string{"/usr/bin/git", "status"}},
	"FOO=bar git status":         {Match: Exact, Assigns: []chain.Assign{{Name: "FOO", Value: "bar"}}, Tokens: []string{"git", "status"}},
	"FOO=1 make":                 {Match: Exact, Assigns: []chain.Assign{{Name: "FOO", Value: "1"}}, Tokens: []string{"make"}},
	"Bash(git status)":           {Match: Exact, Tokens: []string{"git", "status"}},
	"docker ps":                  {Match: Exact, Tokens: []string{"docker", "ps"}},
	`echo \*`:                    {Match: Exact, Tokens: []string{"echo", "*"}},
	"find . -delete":             {Match: Exact, Tokens: []string{"find", ".", "-delete"}},
	"find . -name x.pyc -delete": {Match: Exact, Tokens: []string{"find", ".", "-name", "x.pyc", "-delete"}},
	"git fetch":                  {Match: Exact, Tokens: []string{"git", "fetch"}},
	"git status":                 {Match: Exact, Tokens: []string{"git", "status"}},
	"ls":                         {Match: Exact, Tokens: []string{"ls"}},
	"npm run build":              {Match: Exact, Tokens: []string{"npm", "run", "build"}},
	"npx -y cowsay":              {Match: Exact, Tokens: []string{"npx", "-y", "cowsay"}},

	"Bash(curl:*)":                {Match: Prefix, Tokens: []string{"curl"}},
	"Bash(git clean:*)":           {Match: Prefix, Tokens: []string{"git", "clean"}},
	`Bash(git commit -m "a b":*)`: {Match: Prefix, Tokens: []string{"git", "commit", "-m", "a b"}},
	"Bash(git diff:*)":            {Match: Prefix, Tokens: []string{"git", "diff"}},
	"Bash(git log:*)":             {Match: Prefix, Tokens: []string{"git", "log"}},
	"Bash(git push --force:*)":    {Match: Prefix, Tokens: []string{"git", "push", "--force"}},
	"Bash(git push:*)":            {Match: Prefix, Tokens: []string{"git", "push"}},
	"Bash(go build:*)":            {Match: Prefix, Tokens: []string{"go", "build"}},
	"Bash(go test:*)":             {Match: Prefix, Tokens: []string{"go", "test"}},
	"Bash(rg:*)":                  {Match: Prefix, Tokens: []string{"rg"}},
	"Bash(rm -rf:*)":              {Match: Prefix, Tokens: []string{"rm", "-rf"}},
	"Bash(rm:*)":                  {Match: Prefix, Tokens: []string{"rm"}},
	"Bash(sed:*)":                 {Match: Prefix, Tokens: []string{"sed"}},
	"awk:*":                       {Match: Prefix, Tokens: []string{"awk"}},
	"base64:*":                    {Match: Prefix, Tokens: []string{"base64"}},
	"build.bat:*":                 {Match: Prefix, Tokens: []string{"build.bat"}},
	"build.cmd:*":                 {Match: Prefix, Tokens: []string{"build.cmd"}},
	"cargo build:*":               {Match: Prefix, Tokens: []string{"cargo", "build"}},
	"cat:*":                       {Match: Prefix, Tokens: []string{"cat"}},
	"sh:*":                        {Match: Prefix, Tokens: []string{"sh"}},
	"cd:*":                        {Match: Prefix, Tokens: []string{"cd"}},
	"cp:*":                        {Match: Prefix, Tokens: []string{"cp"}},
	"curl:*":                      {Match: Prefix, Tokens: []string{"curl"}},
	"echo:*":                      {Match: Prefix, Tokens: []string{"echo"}},
	"fd:*":                        {Match: Prefix, Tokens: []string{"fd"}},
	"find:*":                      {Match: Prefix, Tokens: []string{"find"}},
	"git clean:*":                 {Match: Prefix, Tokens: []string{"git", "clean"}},
	"git commit:*":                {Match: Prefix, Tokens: []string{"git", "commit"}},
	"git diff *":                  {Match: Prefix, Tokens: []string{"git", "diff"}},
	"git diff:*":                  {Match: Prefix, Tokens: []string{"git", "diff"}},
	"git log:*":                   {Match: Prefix, Tokens: []string{"git", "log"}},
	"git push --force:*":          {Match: Prefix, Tokens: []string{"git", "push", "--force"}},
	"git push origin:*":           {Match: Prefix, Tokens: []string{"git", "push", "origin"}},
	"git push:*":                  {Match: Prefix, Tokens: []string{"git", "push"}},
	"git:*":                       {Match: Prefix, Tokens: []string{"git"}},
	"go build:*":                  {Match: Prefix, Tokens: []string{"go", "build"}},
	"go test:*":                   {Match: Prefix, Tokens: []string{"go", "test"}},
	"grep:*":                      {Match: Prefix, Tokens: []string{"grep"}},
	"head:*":                      {Match: Prefix, Tokens: []string{"head"}},
	"kubectl get:*":               {Match: Prefix, Tokens: []string{"kubectl", "get"}},
	"ln:*":                        {Match: Prefix, Tokens: []string{"ln"}},
	"ls:*":                        {Match: Prefix, Tokens: []string{"ls"}},
	"make:*":                      {Match: Prefix, Tokens: []string{"make"}},
	"go:*":                        {Match: Prefix, Tokens: []string{"go"}},
	"gofmt:*":                     {Match: Prefix, Tokens: []string{"gofmt"}},
	"prettier:*":                  {Match: Prefix, Tokens: []string{"prettier"}},
	"eslint:*":                    {Match: Prefix, Tokens: []string{"eslint"}},
	"black:*":                     {Match: Prefix, Tokens: []string{"black"}},
	"rustfmt:*":                   {Match: Prefix, Tokens: []string{"rustfmt"}},
	"ruff:*":                      {Match: Prefix, Tokens: []string{"ruff"}},
	"clang-format:*":              {Match: Prefix, Tokens: []string{"clang-format"}},
	"wget:*":                      {Match: Prefix, Tokens: []string{"wget"}},
	"man:*":                       {Match: Prefix, Tokens: []string{"man"}},
	"mkdir:*":                     {Match: Prefix, Tokens: []string{"mkdir"}},
	"nc:*":                        {Match: Prefix, Tokens: []string{"nc"}},
	"npm publish:*":               {Match: Prefix, Tokens: []string{"npm", "publish"}},
	"npm:*":                       {Match: Prefix, Tokens: []string{"npm"}},
	"npx:*":                       {Match: Prefix, Tokens: []string{"npx"}},
	"pnpm:*":                      {Match: Prefix, Tokens: []string{"pnpm"}},
	"rg:*":                        {Match: Prefix, Tokens: []string{"rg"}},
	"rm -rf:*":                    {Match: Prefix, Tokens: []string{"rm", "-rf"}},
	"rm:*":                        {Match: Prefix, Tokens: []string{"rm"}},
	"rsync:*":                     {Match: Prefix, Tokens: []string{"rsync"}},
	"sed:*":                       {Match: Prefix, Tokens: []string{"sed"}},
	"sort:*":                      {Match: Prefix, Tokens: []string{"sort"}},
	"ssh:*":                       {Match: Prefix, Tokens: []string{"ssh"}},
	"tar:*":                       {Match: Prefix, Tokens: []string{"tar"}},
	"touch:*":                     {Match: Prefix, Tokens: []string{"touch"}},
	"wc:*":                        {Match: Prefix, Tokens: []string{"wc"}},
	"yarn:*":                      {Match: Prefix, Tokens: []string{"yarn"}},
	"zip:*":                       {Match: Prefix, Tokens: []string{"zip"}},

	"Bash(npm run test*)": {Match: Glob, Tokens: []string{"npm"}, Parts: []string{"npm run test", ""}},
	"Bash(r* x.txt)":      {Match: Glob, Parts: []string{"r", " x.txt"}},
	"git * main":          {Match: Glob, Tokens: []string{"git"}, Parts: []string{"git ", " main"}},
	"ls*":                 {Match: Glob, Parts: []string{"ls", ""}},
	"npm run test*":       {Match: Glob, Tokens: []string{"npm"}, Parts: []string{"npm run test", ""}},
}

// literal returns the hand-built rule for text.
func literal(t testing.TB, text string) Rule {
	t.Helper()
	r, ok := ruleLiterals[text]
	if !ok {
		t.Fatalf("rule %q is used by the tests but has no literal in ruleLiterals", text)
	}
	r.Text = text
	return r
}

// testRuleTexts collects the text of every rule the test tables parse.
func testRuleTexts(t *testing.T) []string {
	set := map[string]bool{}
	add := func(texts ...string) {
		for _, s := range texts {
			if _, path := parsePathRule(s); !path {
				set[s] = true
			}
		}
	}
	add(defaultAllow...)
	add(defaultDeny...)
	for _, c := range bypassCases {
		add(c.allow...)
		add(c.ask...)
		add(c.deny...)
	}
	add(fuzzAllow...)
	add(fuzzAsk...)
	for _, r := range fuzzDeny {
		add(strings.Join(r, " ") + ":*")
	}
	add(benchAllow...)
	add(benchAsk...)
	add(benchDeny...)
	for _, c := range ruleMatchingCases {
		add(c.rule)
	}
	for _, c := range flagSetCases {
		add(c.rule)
	}
	p, _, err := Load("testdata/example-settings.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range [][]Rule{p.Allow, p.Ask, p.Deny} {
		for _, r := range l {
			add(r.Text)
		}
	}
	texts := make([]string, 0, len(set))
	for s := range set {
		texts = append(texts, s)
	}
	sort.Strings(texts)
	return texts
}

// TestRuleHasOnlyExportedFields keeps Rule complete as a literal: derived
// data held in an unexported field would be missing from every hand-built
// rule (a hand-built "rm -rf:*" once let "rm -fr x" through that way).
func TestRuleHasOnlyExportedFields(t *testing.T) {
	rt := reflect.TypeOf(Rule{})
	for i := 0; i < rt.NumField(); i++ {
		if f := rt.Field(i); !f.IsExported() {
			t.Errorf("Rule.%s is unexported: a Rule literal cannot set it", f.Name)
		}
	}
}

// TestRuleLiteralsEqualParsedRules checks every hand-built rule against
// ParseRule, field by field (where an assignment was written aside).
func TestRuleLiteralsEqualParsedRules(t *testing.T) {
	for _, text := range testRuleTexts(t) {
		lit := literal(t, text)
		r, ok, err := ParseRule(text)
		if err != nil || !ok {
			t.Fatalf("%q: ok=%v err=%v", text, ok, err)
		}
		if r.Text != lit.Text || r.Match != lit.Match || !slices.Equal(r.Tokens, lit.Tokens) ||
			!slices.Equal(r.Parts, lit.Parts) || !slices.EqualFunc(r.Assigns, lit.Assigns, sameAssign) {
			t.Errorf("%q: parsed %+v, literal %+v", text, r, lit)
		}
	}
}

// literalCommands are the commands the hand-built rules are judged on: the
// bypass table, the benchmark chain, the rule tests' argvs, and flag sets
// written every way.
func literalCommands(root, home string) []string {
	cmds := []string{benchChain, "rm -fr x", "rm -r -f x", "rm --recursive --force x", "/bin/RM.EXE -rf x",
		"git push origin main --force", "git push -f", "FOO=1 make", "FOO=2 make", "echo '*'", "echo x",
		"git commit -m 'a b' x", "npm run test:unit", "ls -la", "lsblk", "sudo rm -fr /tmp/x"}
	r := strings.NewReplacer("{ROOT}", quoteArg(root), "{HOME}", quoteArg(home))
	for _, c := range bypassCases {
		cmds = append(cmds, r.Replace(c.cmd))
	}
	for _, c := range ruleMatchingCases {
		cmds = append(cmds, joinArgs(lits(c.argv)))
	}
	for _, c := range flagSetCases {
		cmds = append(cmds, joinArgs(lits(c.argv)))
	}
	return cmds
}

// TestRuleLiteralsJudgeLikeParsedRules puts each rule, parsed and as a
// literal, alone in each list and compares the whole decisions on every
// test command.
func TestRuleLiteralsJudgeLikeParsedRules(t *testing.T) {
	root, home := fixture(t)
	var chains []*chain.Chain
	for _, src := range literalCommands(root, home) {
		if c, err := chain.ParseDialect(src, chain.POSIX); err == nil {
			chains = append(chains, c)
		}
	}
	texts := testRuleTexts(t)
	if testing.Short() {
		texts = texts[:10]
	}
	for _, text := range texts {
		parsed, _, _ := ParseRule(text)
		lit := literal(t, text)
		for _, list := range []string{"allow", "ask", "deny"} {
			pp, pl := &Policy{Home: home}, &Policy{Home: home}
			switch list {
			case "allow":
				pp.Allow, pl.Allow = []Rule{parsed}, []Rule{lit}
			case "ask":
				pp.Ask, pl.Ask = []Rule{parsed}, []Rule{lit}
			case "deny":
				pp.Deny, pl.Deny = []Rule{parsed}, []Rule{lit}
			}
			for _, c := range chains {
				dp, errP := pp.Authorize(context.Background(), c, root)
				dl, errL := pl.Authorize(context.Background(), c, root)
				if errP != nil || errL != nil || !reflect.DeepEqual(dp, dl) {
					t.Fatalf("%s rule %q on %q:\nparsed:  %+v %v\nliteral: %+v %v", list, text, c.Source, dp, errP, dl, errL)
				}
			}
		}
	}
}

// TestBypassTableWithLiterals runs the bypass table with every policy
// built from the hand-built rules: the verdicts must be the table's.
func TestBypassTableWithLiterals(t *testing.T) {
	root, home := fixture(t)
	lits := func(texts []string) []Rule {
		var out []Rule
		for _, s := range texts {
			if _, path := parsePathRule(s); !path {
				out = append(out, literal(t, s))
			}
		}
		return out
	}
	for _, c := range bypassCases {
		if c.verdict == reject || c.known != "" || !symlinksOK && strings.Contains(c.cmd, "link") || c.skip != nil && c.skip() != "" {
			continue
		}
		ch, err := planCase(c, root, home)
		if err != nil {
			t.Fatalf("%q: %v", c.cmd, err)
		}
		allow, deny := defaultAllow, defaultDeny
		if c.allow != nil {
			allow = c.allow
		}
		if c.deny != nil {
			deny = c.deny
		}
		p := &Policy{Allow: lits(allow), Ask: lits(c.ask), Deny: lits(deny), ReadOnlyAutoAllow: c.readOnly, Home: home, Mode: c.mode}
		_, p.PathAllow = mustRulesAndPaths(t, allow)
		_, p.PathAsk = mustRulesAndPaths(t, c.ask)
		_, p.PathDeny = mustRulesAndPaths(t, deny)
		d, err := p.Authorize(context.Background(), ch, root)
		if err != nil || string(d.Verdict) != c.verdict {
			t.Errorf("class %d: %q with literal rules: verdict %v (%v), want %s", c.class, c.cmd, d.Verdict, err, c.verdict)
		}
	}
}

// TestHandBuiltFlagSetRule is the case that motivated the rule: a deny
// rule written as a literal matches its flags as a set, like the parsed
// "rm -rf:*".
func TestHandBuiltFlagSetRule(t *testing.T) {
	p := &Policy{Deny: []Rule{{Match: Prefix, Tokens: []string{"rm", "-rf"}}}}
	for _, src := range []string{"rm -fr x", "rm -r -f x", "rm --recursive --force x", "sudo /bin/RM.EXE -f -r x"} {
		d, err := p.Authorize(context.Background(), parse(t, src), testprog.TempDir(t))
		if err != nil || d.Verdict != chain.Deny {
			t.Errorf("%q: %v %v, want deny", src, d.Verdict, err)
		}
	}
}

// TestMalformedRuleLiterals: a rule whose fields contradict each other is
// refused by Authorize rather than judged with a guess (or a panic).
func TestMalformedRuleLiterals(t *testing.T) {
	for _, r := range []Rule{
		{Text: "forgotten Match", Tokens: []string{"git", "status"}},
		{Text: "prefix without words", Match: Prefix},
		{Text: "exact without words", Match: Exact},
		{Text: "prefix with parts", Match: Prefix, Tokens: []string{"ls"}, Parts: []string{"ls"}},
		{Text: "assignment on a prefix", Match: Prefix, Tokens: []string{"make"}, Assigns: []chain.Assign{{Name: "A", Value: "1"}}},
		{Text: "glob without parts", Match: Glob, Tokens: []string{"npm"}},
		{Text: "glob tokens beyond the program", Match: Glob, Tokens: []string{"npm", "run"}, Parts: []string{"npm run ", ""}},
		{Text: "glob program not in the pattern", Match: Glob, Tokens: []string{"rm"}, Parts: []string{"curl ", ""}},
		{Text: "unknown match", Match: RuleKind(9), Tokens: []string{"rm"}},
	} {
		for _, p := range []*Policy{{Allow: []Rule{r}}, {Ask: []Rule{r}}, {Deny: []Rule{r}}} {
			d, err := p.Authorize(context.Background(), parse(t, "rm x"), testprog.TempDir(t))
			if err == nil || !errors.Is(err, ErrRule) || d != nil {
				t.Errorf("%s: decision %+v, err %v; want a rule error", r.Text, d, err)
			}
		}
	}
}
