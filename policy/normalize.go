package policy

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/chainrun/chainrun/chain"
	"golang.org/x/text/unicode/norm"
)

// maxWrapDepth bounds wrapper unwrapping; deeper nesting is asked about.
const maxWrapDepth = 16

// canonicalName reduces a program name to the form deny and ask rules are
// compared in: the last path element, with .exe/.cmd/.bat/.com and
// trailing dots or spaces removed (Windows ignores them), NFKC-normalised
// and case-folded. "/bin/./RM.EXE" and fullwidth "ｒｍ" both become "rm".
func canonicalName(s string) string {
	if isPlainName(s) {
		return s
	}
	if i := strings.LastIndexAny(s, `/\`); i >= 0 {
		s = s[i+1:]
	}
	if !isASCII(s) {
		s = norm.NFKC.String(s)
	}
	s = strings.ToLower(s)
	s = strings.TrimRight(s, ". ")
	for _, ext := range [...]string{".exe", ".cmd", ".bat", ".com"} {
		if strings.HasSuffix(s, ext) && len(s) > len(ext) {
			s = s[:len(s)-len(ext)]
			break
		}
	}
	return strings.TrimRight(s, ". ")
}

// canonWord is canonicalName for a program word; an unknown word stays
// one: it is no name yet.
func canonWord(w word) word {
	s, ok := w.known()
	if !ok || isPlainName(s) {
		return w
	}
	return lit(canonicalName(s))
}

// isPlainName reports a name that canonicalName leaves as it is.
func isPlainName(s string) bool {
	if s == "" || s[len(s)-1] == '.' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '+' || c == '.') {
			return false
		}
	}
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		switch s[i:] {
		case ".exe", ".cmd", ".bat", ".com":
			return false
		}
	}
	return true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// lookAlike reports a program name that NFKC normalisation changes: a
// fullwidth or compatibility form of another name.
func lookAlike(name string) bool {
	return !isASCII(name) && !norm.NFKC.IsNormalString(name)
}

// isAssignWord reports a NAME=value word.
func isAssignWord(s string) bool {
	i := strings.IndexByte(s, '=')
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		c := s[j]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || j > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// assignWord returns the name a NAME=value word assigns; false for any
// other word, and for one known only at run time.
func assignWord(w word) (string, bool) {
	s, ok := w.known()
	if !ok || !isAssignWord(s) {
		return "", false
	}
	return s[:strings.IndexByte(s, '=')], true
}

// command is one effective command found in a segment: the segment itself,
// or what a wrapper or a shell body runs.
type command struct {
	// args has argv[0] canonicalised.
	args []word
	// redirects are those of a shell body's segment; the outer segment's
	// own redirects are judged separately.
	redirects []chain.Redirect
	// found is set on a command find runs on the files it finds: its {}
	// stands for them, judged as find's starting points' trees.
	found bool
}

// analysis is everything the policy reads off one segment before rules
// are matched.
type analysis struct {
	seg *chain.Segment
	// layers are every argv met while unwrapping (argv[0] canonical), plus
	// forms with global options skipped; deny and ask rules match any.
	layers [][]word
	// cmds are the innermost commands, after all wrappers.
	cmds []command
	// argv is the segment's argv as the policy judges it.
	argv []word
	// narrow is the allow view; nil when an assignment disqualifies it.
	narrow    []word
	narrowWhy string
	// envs are the names assigned anywhere: the segment, env/sudo
	// arguments, a shell body.
	envs []string
	// shell is set when a shell or a shell-running wrapper is involved.
	shell bool
	// stdinFrom is the pipeline stage before the segment, when its
	// standard input is that stage's output.
	stdinFrom *chain.Segment
	// stdinKnown is set when the segment's standard input is literal
	// text, stdinText (stdin.go); a shell body's commands do not read it.
	stdinKnown bool
	stdinText  string
	// asks are structural reasons that make the segment ask whatever the
	// allow rules say.
	asks []string
	// files are the paths wrapper options name (time -o, xargs -a).
	files []fileArg
	// runtime says why the command, or the program a wrapper runs, is
	// known only at run time (unknown.go); "" when it is known.
	runtime string
	// dir is the directory the segment starts in (resolved), for the
	// files a program's code is read from before the run (make -f).
	dir string

	// Room for the common case, saving allocations.
	layersBuf [2][]word
	cmdsBuf   [1]command
	argvBuf   [4]word
}

// analyze reads a segment whose standard input and directory are not
// known.
func analyze(seg *chain.Segment) *analysis { return analyzeIn(seg, feed{}, "") }

// analyzeIn reads a segment that starts in dir and reads in on standard
// input.
func analyzeIn(seg *chain.Segment, in feed, dir string) *analysis {
	a := new(analysis)
	a.read(seg, in, dir)
	return a
}

// read fills a for seg as analyzeIn does, in a's own room: whatever a
// held before is gone, so one analysis can serve segment after segment.
func (a *analysis) read(seg *chain.Segment, in feed, dir string) {
	*a = analysis{seg: seg, stdinKnown: in.known, stdinText: in.text, stdinFrom: in.from, dir: dir}
	a.layers = a.layersBuf[:0]
	a.cmds = a.cmdsBuf[:0]
	for _, as := range seg.Assigns {
		a.envs = append(a.envs, as.Name)
	}
	a.argv = appendArgv(a.argvBuf[:0], seg)
	a.unwrap(a.argv, 0, false)
	a.narrow, a.narrowWhy = narrowView(seg, a.argv)
	if len(seg.Args) > 0 && batchFile(a.argv[0]) {
		for _, x := range a.argv[1:] {
			if s, ok := x.known(); ok && strings.ContainsAny(s, "\"&|<>^%!()\r\n") {
				a.ask("batch file argument " + quoteArg(s) + " holds a cmd.exe metacharacter; Windows refuses it at run time")
				break
			}
		}
	}
}

// batchFile reports a program name cmd.exe would run: *.bat or *.cmd.
func batchFile(w word) bool {
	name, ok := w.known()
	if !ok {
		return false
	}
	l := strings.TrimRight(name, ". ")
	return hasSuffixFold(l, ".bat") || hasSuffixFold(l, ".cmd")
}

// hasSuffixFold is strings.HasSuffix with the suffix, ASCII, matched in
// any case.
func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// ask records a structural reason to ask, once.
func (a *analysis) ask(reason string) {
	if !slices.Contains(a.asks, reason) {
		a.asks = append(a.asks, reason)
	}
}

// unwrap walks wrappers to a fixpoint, recording each layer: every argv
// met, with argv[0] canonical, and the form with global options skipped.
// Shells hand over to shellBody; the commands a program's options run
// (find -exec) are unwrapped too.
func (a *analysis) unwrap(args []word, depth int, afterWrapper bool) {
	for len(args) > 0 {
		if depth > maxWrapDepth {
			a.ask("wrappers nested more than 16 deep")
			return
		}
		prog, ok := args[0].known()
		if !ok {
			a.runtimeProgram(args, depth)
			return
		}
		if _, ok := assignWord(args[0]); afterWrapper && ok {
			args = a.assignsAsProgram(args)
			continue
		}
		if lookAlike(prog) {
			a.ask("program name " + quoteArg(prog) + " is a compatibility look-alike of " + quoteArg(canonicalName(prog)))
		}
		layer := canonLayer(args)
		name := canonicalName(prog)
		p := lookup(name)
		a.layers = append(a.layers, layer)
		a.globalLayers(p, layer)
		if p != nil && p.body != nil {
			a.shellBody(p, name, args, depth)
			return
		}
		if p != nil && p.execs != nil {
			p.execs(a, args, depth)
		}
		args = a.wrapped(p, name, layer, args, depth)
		depth++
		afterWrapper = true
	}
}

// assignsAsProgram handles NAME=v words after a wrapper: bash would run a
// program named "NAME=v", so the segment asks; deny rules still see the
// command behind them, which it returns.
func (a *analysis) assignsAsProgram(args []word) []word {
	a.ask("after a wrapper, " + args[0].show() + " is read as the program name, not an assignment")
	i := 0
	for i < len(args) {
		n, ok := assignWord(args[i])
		if !ok {
			break
		}
		a.envs = append(a.envs, n)
		i++
	}
	a.layers = append(a.layers, canonLayer(args))
	return args[i:]
}

// wrapped follows the exec wrapper name, if it is one, and returns the
// command it runs; nil ends the unwrapping, with layer recorded as an
// innermost command unless a shell body took over.
func (a *analysis) wrapped(p *program, name string, layer, args []word, depth int) []word {
	if p == nil || p.wrap == nil {
		a.cmds = append(a.cmds, command{args: layer})
		return nil
	}
	res := p.wrap(p, args)
	if res.unreadable != "" {
		a.unreadable(name, res.unreadable, args)
		a.cmds = append(a.cmds, command{args: layer})
		return nil
	}
	if k := wrapperUnknown(args, res.cmd); k > 0 {
		a.runtimeAt(name+" argument "+args[k].show()+" is known only at run time, so the command it runs is not known", args[k:])
	}
	a.envs = append(a.envs, res.envs...)
	a.files = append(a.files, res.files...)
	switch {
	case res.shellBody != nil:
		a.shell = true
		a.ask(name + " runs its command through a shell")
		a.parseBody(name, *res.shellBody, depth)
		return nil
	case res.shell:
		a.shell = true
		a.ask(name + " starts a shell")
		a.cmds = append(a.cmds, command{args: layer})
		return nil
	}
	if res.ask != "" {
		a.ask(res.ask)
	}
	if res.cmd == nil {
		a.cmds = append(a.cmds, command{args: layer})
	}
	return res.cmd
}

// unreadable handles a wrapper option the wrapper's spec cannot read: the
// segment asks, and deny and ask rules see every later word as a possible
// start of the command ("\time --frob echo rm -rf x").
func (a *analysis) unreadable(name, word string, args []word) {
	a.ask(name + " option " + quoteArg(word) + " cannot be read as " + name + " reads it, so the command it runs is not known")
	a.possibleStarts(args[1:])
}

// possibleStarts records every suffix of args as a layer: deny and ask
// rules see each word as a possible start of the command.
func (a *analysis) possibleStarts(args []word) {
	for j := range args {
		l := canonLayer(args[j:])
		a.layers = append(a.layers, l)
		a.globalLayers(lookupWord(l[0]), l)
	}
}

// runtimeAt records that the command is known only at run time from
// args[0] on (an unknown program word, or a wrapper's unknown word that
// may hold options, operands or the command itself): the segment asks
// whatever the rules, built-ins, table or mode say (judge.go), and deny
// and ask rules see args as a command whose program may be anything, and
// every later word as a possible start (the unknown word may expand to
// nothing, or to a wrapper and its options). The first reason is kept.
func (a *analysis) runtimeAt(why string, args []word) {
	if a.runtime == "" {
		a.runtime = why
		a.ask(why)
	}
	a.possibleStarts(args)
}

// runtimeProgram handles a program word known only at run time (runtimeAt)
// and judges the reading in which it expands to nothing: the next known
// word is then the program, unwrapped and with its files judged as if it
// stood first. Consecutive unknown words are skipped together; their
// other readings are runtimeAt's layers.
func (a *analysis) runtimeProgram(args []word, depth int) {
	a.runtimeAt("the program ("+args[0].show()+") is known only at run time", args)
	a.cmds = append(a.cmds, command{args: args})
	rest := args[1:]
	for len(rest) > 0 && rest[0].isUnknown() {
		rest = rest[1:]
	}
	if len(rest) > 0 {
		a.unwrap(rest, depth+1, false)
	}
}

// wrapperUnknown returns the index in args of the first unknown word among
// the wrapper's own words (its options and operands, before the command
// cmd it runs), or 0: an unquoted expansion may split into words that move
// the command.
func wrapperUnknown(args, cmd []word) int {
	end := len(args)
	if len(cmd) > 0 && len(cmd) < len(args) && sameWords(args[len(args)-len(cmd):], cmd) {
		end = len(args) - len(cmd)
	}
	if k := firstUnknown(args[1:end]); k >= 0 {
		return k + 1
	}
	return 0
}

// globalLayers adds the layer with the global options of the tool (whose
// record is p, nil for none) skipped. An
// option the table does not know may take a value or not: both readings
// are added, so "git --new-opt x push --force" is seen as git push.
func (a *analysis) globalLayers(p *program, layer []word) {
	if p == nil || p.global == nil {
		return
	}
	g := p.skipGlobal(layer)
	if g != nil {
		a.layers = append(a.layers, g)
	} else {
		g = layer
	}
	if len(g) < 2 || !g[1].hasPrefix("-") || g[1].is("-") {
		return
	}
	for k := 2; k <= 3 && k < len(g); k++ {
		alt := append([]word{layer[0]}, g[k:]...)
		a.layers = append(a.layers, alt)
		if g2 := p.skipGlobal(alt); g2 != nil {
			a.layers = append(a.layers, g2)
		}
	}
}

// canonLayer returns args with argv[0] canonical; args itself when it
// already is (layers are never modified).
func canonLayer(args []word) []word {
	c := canonWord(args[0])
	if sameWord(c, args[0]) {
		return args
	}
	l := make([]word, len(args))
	copy(l, args)
	l[0] = c
	return l
}

// narrowView is the allow view: safe assignments stripped (any other one
// disqualifies it), then only the registry's narrow wrappers (timeout,
// time, nice, nohup, stdbuf) with their own options. A NAME=v word after
// a wrapper is the program. argv is the segment's, as judged.
func narrowView(seg *chain.Segment, argv []word) ([]word, string) {
	for _, as := range seg.Assigns {
		if !isSafeEnv(as.Name) {
			return nil, "assignment " + as.Name + "= is not a safe variable, so only an exact rule spelling it out can allow this"
		}
	}
	args := argv
	for n := 0; n < maxWrapDepth && len(args) > 0; n++ {
		spec := narrowWrapperOpts(args[0])
		if spec == nil {
			break
		}
		i, _, bad := scanOpts(args, spec)
		if bad != "" || i >= len(args) {
			break
		}
		args = args[i:]
	}
	return args, ""
}

// quoteArg renders a word for messages and exact-rule suggestions, quoting
// it the way the parser reads back when it holds anything but plain
// characters.
func quoteArg(s string) string {
	if s == "" {
		return "''"
	}
	plain := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_./:,+=@%^", c) >= 0) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// quoteWord is quoteArg for a word: one known only at run time is
// rendered as its source text ("$X"), which only messages show: Suggest
// proposes no rule holding one.
func quoteWord(w word) string {
	if s, ok := w.known(); ok {
		return quoteArg(s)
	}
	return w.show()
}

func joinArgs(args []word) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(quoteWord(a))
	}
	return b.String()
}
