package policy

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/chain"
)

// The program registry: one record per program family holds everything
// the policy knows about it (its names, its options in the one grammar of
// options.go, how it wraps another command, its guard, the role of each
// operand and option value, its global options, whether the read-only mode
// allows it and whether it runs code). Every table the policy consults is
// read off the records: the bare prefixes Suggest never proposes, the
// read-only list, the wrappers the broad view unwraps and the narrow view
// strips, the file roles. A program or wrapper is added by one record in
// the prog_*.go file of its family; nothing else is edited.

// program is one record of the registry.
type program struct {
	// names are the canonical names (canonicalName) the family answers
	// to; every name belongs to one record.
	names []string
	// opts are the program's own options, with the roles of the values
	// that name files and the options that make it write or run code.
	opts optSpec
	// global are the options a tool takes before its subcommand (git -C
	// dir push), skipped so "git push:*" sees git -C dir push; plus is
	// set when "+word" is one too (cargo +nightly build).
	global *optSpec
	plus   bool

	// wrap says what the program runs when it is an exec wrapper
	// (timeout 5 rm x, sudo -u bob rm x, xargs rm); nil when it is not.
	wrap func(p *program, args []word) wrapResult
	// narrow wrappers are stripped, with their options, by the allow view
	// too: "timeout 5 go test" is allowed by "go test:*".
	narrow bool
	// body finds the command line a shell runs (sh -c BODY); nil for a
	// program that is no shell. Its segments are judged like the chain's.
	body func(args []word) (word, bool)
	// winBody shells read their body in the Windows dialect (cmd,
	// PowerShell); userCmd ones run "-- CMD" as another user when they
	// have no body (su, runuser).
	winBody, userCmd bool
	// execs unwraps the commands the program's options run (find -exec).
	execs func(a *analysis, args []word, depth int)
	// runs returns the commands a program that otherwise only reads runs
	// with the files it finds or is fed (xargs's command, find -exec's;
	// from is the pipeline stage feeding it) and the trees those files come
	// from; no commands when its other words make it write or run more, or
	// the files' trees are not known. A prefix rule naming the program
	// covers it when each command is a read-only program allowed itself
	// (runs.go).
	runs func(p *program, args []word, from *chain.Segment) runsResult

	// guard says why the arguments make the program write files or run
	// programs, so a prefix or glob rule does not cover them; "" when they
	// do not. nil for a program without a guard.
	guard func(p *program, name string, rest []word) string
	// operands is the role of every operand of a program whose operands
	// are paths; 0 for the others, whose path-like words are touched and
	// whose other words are judged by name (words.go).
	operands fileRole
	// first is the role of the first operand when it is the code the
	// program runs (roleCode: sed's script, awk's program, jq's filter) or
	// a pattern (roleInert: grep's), which is no path, unless one of the
	// options firstGiven gave it.
	first      fileRole
	firstGiven []string
	// operandFiles replaces the plain reading of the operands (every one
	// a path of role operands) for programs with exceptions.
	operandFiles func(p *program, files []fileArg, operands []word, opts []flagUse) []fileArg
	// files replaces the whole reading of the paths for programs whose
	// roles depend on more than options (cp's last operand, dd's of=).
	files func(p *program, args []word) []fileArg
	// text programs take no path: their words are text they print or
	// compare (echo, basename). looseWords records model the paths they
	// write but not all they read (git): their other words are judged as
	// words it may read (words.go).
	text, looseWords bool
	// looseOpts records model the values of their options by the roles
	// of their spec and their other words as pathLikeFiles and words.go do
	// for a program without a record (curl's -o FILE and its URLs).
	looseOpts bool
	// tree says which directories the program reads by walking them and
	// the option that makes it follow symlinks there.
	tree func(args []word) (dirs []word, follow string)

	// readOnly programs are allowed without a rule in the opt-in
	// read-only mode, when their guard finds nothing and readOnlyUnless
	// (if set) gives no reason.
	readOnly       bool
	readOnlyUnless func(rest []word) string
	// acceptEdits programs are allowed without a rule in acceptEdits mode
	// (Claude Code's list: mkdir, touch, rm, rmdir, mv, cp, sed) when
	// their guard finds nothing but in-place editing.
	acceptEdits bool
	// editsInPlace is the guard's reason (its text before " (flag)") for
	// options whose only effect beyond reading is rewriting the file
	// operands (sed -i, gofmt -w, prettier --write, black without
	// --check), which the path step judges as writes: they are Edits, so
	// they need Edit permission for those files (an Edit rule, acceptEdits
	// inside the roots), not an exact Bash rule.
	editsInPlace string
	// runsCode programs run any code they are given (shells,
	// interpreters, wrappers): a prefix rule naming only them would allow
	// anything, so only exact rules are suggested.
	runsCode bool
	// verb is how many words name the program's verb in a suggested
	// prefix rule (git 2: "git tag:*"; aws 3: "aws s3 ls:*"); 0 leaves the
	// program and a plain second word. longVerbs are the subcommands whose
	// verb is a word longer (npm run: "npm run build:*"). A record that
	// runs code needs neither: it is suggested only exact rules.
	verb      int
	longVerbs []string
	// prefix makes the record answer to every name starting with it too,
	// for a family whose versioned names cannot all be listed (python3.12).
	prefix string
	// aliases maps a flag to every spelling a flag-set rule naming it
	// matches ("rm -rf:*" denies rm --recursive --force).
	aliases map[string][]string
	// repoConfig programs obey the configuration of the repository they
	// find from the current directory (git): after a cd it may run
	// programs.
	repoConfig bool
}

// registry maps every name to its record, and prefixed lists the records
// with a prefix; register fills them, family by family, the first time a
// record is looked up. Built at package initialisation, the records cost
// every start of chainrun a fifth of a millisecond, policy or none.
var (
	registry map[string]*program
	prefixed []*program
)

// registryOnce fills the registry, before its first reader.
var registryOnce sync.Once

func loadRegistry() { registryOnce.Do(registerFamilies) }

// registerFamilies registers the records of each prog_*.go file.
func registerFamilies() {
	registry = make(map[string]*program, 512)
	for _, f := range [...]func(){
		registerArchive, registerAwk, registerBuild, registerCloud, registerContainers, registerEnv, registerFileinfo,
		registerFileops, registerFormat, registerGit, registerInfo, registerInterp, registerJson, registerMake, registerNet,
		registerPriv, registerProc, registerSandbox, registerSearch, registerSed, registerShell, registerSystem, registerText,
		registerXargs,
	} {
		f()
	}
}

// register adds a record. A name claimed twice is a programming error.
func register(p *program) {
	for _, n := range p.names {
		if _, dup := registry[n]; dup {
			panic(fmt.Sprintf("policy: program %q registered twice", n))
		}
		registry[n] = p
	}
	if p.prefix != "" {
		prefixed = append(prefixed, p)
	}
}

// lookup returns the record of the program name (canonical), or nil: the
// record naming it, else one whose prefix it starts with.
func lookup(name string) *program {
	loadRegistry()
	if p := registry[name]; p != nil {
		return p
	}
	for _, p := range prefixed {
		if strings.HasPrefix(name, p.prefix) {
			return p
		}
	}
	return nil
}

// lookupWord is lookup for a program word (canonical); a word known only
// at run time names no record.
func lookupWord(w word) *program {
	if name, ok := w.known(); ok {
		loadRegistry()
		return registry[name]
	}
	return nil
}

// isWrapper reports a record that runs another command it is given: an
// exec wrapper or a shell.
func (p *program) isWrapper() bool { return p.wrap != nil || p.body != nil }

// wrapperNames lists the names of every wrapper and shell, sorted.
func wrapperNames() []string {
	loadRegistry()
	var names []string
	for n, p := range registry {
		if p.isWrapper() {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// isReadOnly reports the commands the opt-in read-only mode may allow
// without a rule.
func isReadOnly(name string) bool {
	p := lookup(name)
	return p != nil && p.readOnly
}

// narrowWrapperOpts returns the options of a wrapper the allow view
// strips, or nil.
func narrowWrapperOpts(name word) *optSpec {
	if p := lookupWord(name); p != nil && p.narrow {
		return &p.opts
	}
	return nil
}

// readOnlyReason says why args (the allow view) may run without a rule in
// the read-only mode, or returns false. The guard applies first.
func readOnlyReason(args []word) (ok bool, why string) {
	prog, known := args[0].known()
	name := canonicalName(prog)
	if !known || name != prog || !isReadOnly(name) {
		return false, ""
	}
	if g := guard(args); g != "" {
		return false, g
	}
	if p := lookup(name); p.readOnlyUnless != nil {
		if why := p.readOnlyUnless(args[1:]); why != "" {
			return false, why
		}
	}
	return true, ""
}

// skipGlobal returns layer without the tool's leading global options, or
// nil when there were none (or the tool has none).
func skipGlobal(layer []word) []word { return lookupWord(layer[0]).skipGlobal(layer) }

// skipGlobal is skipGlobal for a layer whose program's record is p.
func (p *program) skipGlobal(layer []word) []word {
	if p == nil || p.global == nil {
		return nil
	}
	i := 1
	for i < len(layer) {
		x, ok := layer[i].known()
		if !ok {
			break
		}
		if p.plus && strings.HasPrefix(x, "+") {
			i++
			continue
		}
		if !strings.HasPrefix(x, "-") || x == "-" {
			break
		}
		if x == "--" {
			i++
			break
		}
		name := x
		attached := false
		if j := strings.IndexByte(x, '='); j > 0 {
			name, attached = x[:j], true
		}
		takes, known := p.global.exact(name)
		if !known {
			// -C/path or -cfoo forms of a known short option.
			if len(x) > 2 && x[1] != '-' {
				if takes, _ := p.global.exact(x[:2]); takes {
					i++
					continue
				}
			}
			break
		}
		i++
		if takes && !attached {
			i++
		}
	}
	if i == 1 {
		return nil
	}
	if i > len(layer) {
		i = len(layer)
	}
	out := make([]word, 0, 1+len(layer)-i)
	out = append(out, layer[0])
	return append(out, layer[i:]...)
}

// registerAll registers the records of one family.
func registerAll(ps ...*program) {
	for _, p := range ps {
		register(p)
	}
}

// sameFlags maps each spelling of each group to its whole group: the
// aliases of options that are one option spelled several ways.
func sameFlags(groups ...[]string) map[string][]string {
	m := make(map[string][]string)
	for _, g := range groups {
		for _, f := range g {
			m[f] = g
		}
	}
	return m
}

// MayWrite reports whether the program run with argv may create or remove
// files: every program but one the read-only table allows with these
// arguments (its guard and its readOnlyUnless find nothing) and whose
// record gives none of them a write role (file -C writes NAME.mgc). The
// plan knows the globs after one that may not (chain.WriteJudge).
func (p *Policy) MayWrite(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	args := make([]word, len(argv))
	for i, a := range argv {
		args[i] = lit(a)
	}
	if ok, _ := readOnlyReason(args); !ok {
		return true
	}
	return slices.ContainsFunc(commandFiles(canonLayer(args)), func(f fileArg) bool { return f.role.writes() || f.role == roleDiff })
}
