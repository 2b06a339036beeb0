package expand

import (
	"io/fs"
	"maps"
	"os"
	"os/user"
	"runtime"
	"strconv"
	"strings"

	shexpand "mvdan.cc/sh/v3/expand"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/environ"
)

// Shell is what a shell holds between commands and expansion reads: the
// exported environment, the variables that are not exported, the current
// directory and the last status. The engine keeps one per run and its
// built-ins (cd, export, unset, NAME=value) change it; the plan made
// before a run (Plan) simulates one.
type Shell struct {
	// Env is the exported environment, NAME=value, as a child gets it;
	// PWD and OLDPWD in it are the directory cd left.
	Env []string
	// Vars are the shell variables that are not exported (NAME=value
	// alone). A name is never in both Env and Vars.
	Vars map[string]string
	// Declared are names exported while unset (export NAME): the next
	// assignment puts them in Env.
	Declared map[string]bool
	// Dir is the current directory, absolute.
	Dir string
	// Status is $?: the status of the last pipeline.
	Status int
	// LastBackground is $!: the process id of the last background
	// pipeline's last process, "" (unset) before any.
	LastBackground string
	// Rules are the OS's rules where Windows and POSIX expand apart.
	Rules Rules
	// ReadDir lists a directory for globbing; nil means os.ReadDir.
	ReadDir func(dir string) ([]fs.DirEntry, error)
	// Writes reports, for a plan, whether a program run with argv (every
	// word known) may create or remove files: globs after one that may
	// are known only at run time. Nil means every program may; the
	// policy, which knows each program's record, answers for the engine
	// (chain.WriteJudge).
	Writes func(argv []string) bool
	// Params are the positional parameters ($1 …), which set -- gives
	// and shift drops; a chain starts with none.
	Params []string
	// Glob are the shopt options that change globbing.
	Glob GlobOptions
	// NoUnset (set -u) makes expanding an unset variable an error.
	NoUnset bool
	// Substitute runs command substitutions; nil refuses them when they
	// expand (a plan never runs them: their words are known only at run
	// time).
	Substitute Substituter
	// StartProc starts process substitutions; nil refuses them when they
	// expand (a plan never starts them: their paths are known without).
	StartProc ProcStarter

	// unknown marks what a plan cannot know before the run: variable
	// names, "?" (the status), "PWD" (the directory) and "files" (the
	// directory's contents, which an earlier segment may change).
	unknown map[string]bool
	// runtimeValues marks, in a plan, the variables whose value the shell
	// holds as written because it is known only at run time.
	runtimeValues map[string]bool
	// reads collects the unknown names a word's expansion read.
	reads map[string]bool
	// globbed is set when an expansion listed a directory.
	globbed bool
	// skipPWD is set while a Fields expansion has not yet read PWD for its
	// own use (the directory globs are relative to), which is no read of
	// $PWD by the word.
	skipPWD bool
	// dots says, per path component of the word being globbed, whether it
	// starts with a written dot (dotComponents); dotAbs that it starts at
	// the root.
	dots   []bool
	dotAbs bool
	// listed keeps, in a plan, each directory as first listed: a plan is
	// the files as of now, so two globs over one directory read it once.
	listed map[string][]fs.DirEntry
	// segment is the segment being expanded, whose substitutions the
	// CmdSubst hook looks up; substStatus and substituted are the last
	// one's status and whether one ran.
	segment     *chain.Segment
	substStatus int
	substituted bool
	// varsOwned is set when Vars is this Shell's own map (a Clone's), not
	// the runner's; assigned when an expansion assigned a variable.
	varsOwned bool
	assigned  bool
}

// Rules choose between the two OS's rules where expansion differs.
type Rules uint8

const (
	// POSIXRules: names compare exactly, globs match case, ~ is $HOME.
	POSIXRules Rules = iota
	// WindowsRules: names compare with ASCII case folded ($Path is
	// $PATH), globs match any case, and ~ (and $HOME in it) falls back to
	// USERPROFILE when HOME is unset.
	WindowsRules
)

// HostRules are the rules of the OS chainrun runs on.
func HostRules() Rules {
	if runtime.GOOS == "windows" {
		return WindowsRules
	}
	return POSIXRules
}

// Names says how the rules compare variable names.
func (r Rules) Names() environ.Names {
	if r == WindowsRules {
		return environ.Fold
	}
	return environ.Exact
}

// HostShell returns the shell a chain starts with on this OS: env as the
// environment, dir as the directory, status 0.
func HostShell(env []string, dir string) *Shell {
	return &Shell{Env: env, Dir: dir, Rules: HostRules()}
}

// Lookup returns a variable's value: a shell variable first, then the
// environment.
func (s *Shell) Lookup(name string) (string, bool) {
	for k, v := range s.Vars {
		if s.names().Equal(k, name) {
			return v, true
		}
	}
	return s.names().Get(s.Env, name)
}

// Assign sets name as NAME=value alone does: in the environment when it
// is exported there, as a shell variable otherwise.
func (s *Shell) Assign(name, value string) {
	if _, ok := s.names().Get(s.Env, name); ok || s.declared(name) {
		s.undeclare(name)
		s.Env = s.names().Set(s.Env, name, value)
		return
	}
	s.deleteVar(name)
	if s.Vars == nil {
		s.Vars = map[string]string{}
	}
	s.Vars[name] = value
}

// Export exports name, with value when set is true (export NAME=value),
// else with the value it has (export NAME); an unset name stays unset.
func (s *Shell) Export(name, value string, set bool) {
	if !set {
		v, ok := s.Lookup(name)
		if !ok {
			if s.Declared == nil {
				s.Declared = map[string]bool{}
			}
			s.Declared[name] = true
			return
		}
		value = v
	}
	s.undeclare(name)
	s.deleteVar(name)
	s.Env = s.names().Set(s.Env, name, value)
}

// Unset removes name from the variables and the environment.
func (s *Shell) Unset(name string) {
	s.undeclare(name)
	s.deleteVar(name)
	s.Env = s.names().Unset(s.Env, name)
}

func (s *Shell) declared(name string) bool {
	for k := range s.Declared {
		if s.names().Equal(k, name) {
			return true
		}
	}
	return false
}

func (s *Shell) undeclare(name string) {
	for k := range s.Declared {
		if s.names().Equal(k, name) {
			delete(s.Declared, k)
		}
	}
}

func (s *Shell) deleteVar(name string) {
	for k := range s.Vars {
		if s.names().Equal(k, name) {
			delete(s.Vars, k)
		}
	}
}

// Clone returns a copy that changes independently (a pipeline stage's
// subshell).
func (s *Shell) Clone() *Shell {
	c := *s
	c.Env = append([]string(nil), s.Env...)
	c.Vars, c.Declared = maps.Clone(s.Vars), maps.Clone(s.Declared)
	c.varsOwned, c.assigned = true, false
	c.runtimeValues = maps.Clone(s.runtimeValues)
	if s.unknown != nil {
		c.unknown = make(map[string]bool, len(s.unknown))
		for k, v := range s.unknown {
			c.unknown[k] = v
		}
	}
	c.reads = nil
	return &c
}

func (s *Shell) windows() bool { return s.Rules == WindowsRules }

func (s *Shell) names() environ.Names { return s.Rules.Names() }

// key is how a name is kept in the plan's unknown set: folded where names
// compare so.
func (s *Shell) key(name string) string {
	if s.windows() {
		return strings.ToUpper(name)
	}
	return name
}

// markUnknown notes that a plan cannot know name from here on.
func (s *Shell) markUnknown(name string, unknown bool) {
	if s.unknown != nil {
		s.unknown[s.key(name)] = unknown
	}
}

// shellEnviron is the shexpand.Environ that mvdan's expansion reads a Shell
// through; it keeps mvdan's types out of Shell's methods.
type shellEnviron struct{ s *Shell }

func (e shellEnviron) Get(name string) shexpand.Variable { return e.s.lookupVar(name) }

func (e shellEnviron) Each(f func(name string, vr shexpand.Variable) bool) { e.s.each(f) }

// Set is what ${X:=word} and ${X=word} assign (expandAssign).
func (e shellEnviron) Set(name string, vr shexpand.Variable) error {
	return e.s.expandAssign(name, vr.Str)
}

// lookupVar is what expansion reads for name: the chain's variables, $?
// and the "HOME user" look-ups of tilde expansion (~+ and ~- included).
func (s *Shell) lookupVar(name string) shexpand.Variable {
	switch name {
	case "?":
		s.read("?")
		return str(strconv.Itoa(s.Status))
	case "!":
		s.read("!")
		if s.LastBackground == "" {
			return shexpand.Variable{}
		}
		return str(s.LastBackground)
	case "HOME +":
		s.read("PWD")
		return s.get("PWD")
	case "HOME -":
		s.read("PWD")
		return s.get("OLDPWD")
	case "HOME":
		if v := s.get("HOME"); v.IsSet() || !s.windows() {
			return v
		}
		return s.get("USERPROFILE")
	}
	if chain.Positional(name) {
		return s.param(name)
	}
	if len(name) > 5 && name[:5] == "HOME " {
		if u, err := user.Lookup(name[5:]); err == nil {
			return str(u.HomeDir)
		}
		return shexpand.Variable{}
	}
	return s.get(name)
}

func (s *Shell) get(name string) shexpand.Variable {
	if name == "PWD" && s.skipPWD {
		s.skipPWD = false
	} else {
		s.read(name)
	}
	if v, ok := s.Lookup(name); ok {
		return str(v)
	}
	switch {
	case s.names().Equal(name, "IFS"):
		return str(" \t\n") // bash always has IFS; unset, it splits as this
	case s.names().Equal(name, "PWD") && s.Dir != "":
		return str(s.Dir) // globs are relative to the directory
	}
	return shexpand.Variable{}
}

// read notes that the expansion read name, when a plan does not know it.
func (s *Shell) read(name string) {
	if s.unknown[s.key(name)] || s.unknown[anyName] && chain.ValidName(name) {
		if s.reads == nil {
			s.reads = map[string]bool{}
		}
		s.reads[name] = true
	}
}

func str(v string) shexpand.Variable {
	return shexpand.Variable{Set: true, Kind: shexpand.String, Str: v}
}

// each lists the variables for expansion, which only needs it for
// ${!prefix*}, which is refused, so in no particular order.
func (s *Shell) each(f func(name string, vr shexpand.Variable) bool) {
	for k, v := range s.Vars {
		if !f(k, str(v)) {
			return
		}
	}
	for _, kv := range s.Env {
		if k, v, ok := environ.Cut(kv); ok && !f(k, str(v)) {
			return
		}
	}
}

// list reads a directory through ReadDir, once per plan.
func (s *Shell) list(dir string) ([]fs.DirEntry, error) {
	if entries, ok := s.listed[dir]; ok {
		return entries, nil
	}
	read := os.ReadDir
	if s.ReadDir != nil {
		read = s.ReadDir
	}
	entries, err := read(dir)
	if err == nil && s.listed != nil {
		s.listed[dir] = entries
	}
	return entries, err
}

func (s *Shell) readDir(dir string) ([]fs.DirEntry, error) {
	s.read("files")
	s.globbed = true
	entries, err := s.list(dir)
	if err != nil || s.Glob.DotGlob || s.dotsAllowed(dir) {
		return entries, err
	}
	kept := entries[:0:0]
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") {
			kept = append(kept, e)
		}
	}
	return kept, nil
}
