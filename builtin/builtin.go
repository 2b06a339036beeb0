// Package builtin runs the engine built-ins: cd, pwd, echo, printf, test
// and [, true, false, exit, export, unset, set, command -v and -V, type,
// and a segment of NAME=value words alone. Each writes through its segment's fd table and changes the
// chain only through State, and only when it is not a stage of a
// pipeline (as in bash's subshell). What each can do is declared, without
// running it, in package spec, which the plan and the policy read.
package builtin

import (
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/chainrun/chainrun/builtin/spec"
	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/environ"
	"github.com/chainrun/chainrun/expand"
	"github.com/chainrun/chainrun/redirect"
)

// State is the chain a built-in may change: its directory, variables and
// end. The runner implements it.
type State interface {
	// Dir is the chain's current directory (logical, as bash's PWD).
	Dir() string
	// Status is the last status ($?).
	Status() int
	// Shell is the chain's variables, to read and change; Keep takes the
	// changes.
	Shell() *expand.Shell
	Keep(sh *expand.Shell)
	// Chdir moves the chain to dir, setting OLDPWD and PWD.
	Chdir(dir string)
	// Exit ends the chain after this segment.
	Exit()
	// Options are the chain's shell options, for set to change.
	Options() *Options
	// Find reports the program name would run as with env (the
	// segment's environment) from the chain's directory.
	Find(name string, env []string) (path string, ok bool)
	// Hashed reports the path a program name was last run from by the
	// chain itself (bash's hash table: not from a stage of a pipeline of
	// several, which bash runs in a subshell), unless PATH was set since.
	Hashed(name string) (path string, ok bool)
}

// Call is one run of a built-in.
type Call struct {
	Seg   *chain.Segment
	Files []*os.File // the segment's fd table
	Env   []string   // the segment's environment, its assignments applied
	// InPipeline is set for a stage of several: it changes nothing.
	InPipeline bool
}

// Run runs c's built-in and returns its status, and whether a write found
// its reader gone (bash's built-in would have died of SIGPIPE).
func Run(c Call, st State) (code int, sigpipe bool) {
	seg := c.Seg
	if len(seg.Args) == 0 {
		return assign(seg.Assigns, st, c.InPipeline), false
	}
	name, args := seg.Args[0], seg.Args[1:]
	io := &IO{files: c.Files, name: name}
	b := seg.Builtin // the canonical name: the Windows dialect matches any case
	if b == "" {
		b = chain.Builtin(name)
	}
	return run(io, b, args, c, st), io.sigpipe
}

// run dispatches to the built-in b.
func run(io *IO, b chain.Builtin, args []string, c Call, st State) int {
	switch b {
	case "", chain.BuiltinTrue, chain.BuiltinColon:
		return 0
	case chain.BuiltinBreak, chain.BuiltinContinue:
		return loopJump(io, b, args, c, st)
	case chain.BuiltinFalse:
		return 1
	case chain.BuiltinEcho:
		return io.write(1, echo(args, localeIsUTF8(c.Env)))
	case chain.BuiltinPwd:
		return pwd(io, args, st.Dir())
	case chain.BuiltinCd:
		return cd(io, args, c, st)
	case chain.BuiltinTest, chain.BuiltinBracket:
		return test(io, string(b), args, c.Env, st.Dir(), *st.Options())
	case chain.BuiltinPrintf:
		return printf(io, args, c.Env, func(name, value string) {
			assign([]chain.Assign{{Name: name, Value: value}}, st, c.InPipeline)
		})
	case chain.BuiltinExport:
		return export(io, args, st, c.InPipeline)
	case chain.BuiltinUnset:
		return unset(io, args, st, c.InPipeline)
	case chain.BuiltinSet:
		return set(io, args, st, c.InPipeline)
	case chain.BuiltinCommand:
		return command(io, args, c, st)
	case chain.BuiltinType:
		return typeCmd(io, args, c, st)
	case chain.BuiltinRead:
		return read(io, args, c, st)
	case chain.BuiltinWait:
		return wait(io, args, c, st)
	case chain.BuiltinShift:
		return shift(io, args, st, c.InPipeline)
	case chain.BuiltinShopt:
		return shopt(io, args, st, c.InPipeline)
	case chain.BuiltinExit:
		if len(args) > 0 && args[0] == "--help" {
			return help(io, "exit [n]", "End the chain with status N (default: the last status).")
		}
		code, exit := exitStatus(io, args, st.Status())
		if exit && !c.InPipeline {
			st.Exit()
		}
		return code
	}
	return io.fail(127, io.name+": command not found")
}

// IO is a built-in's view of its fd table.
type IO struct {
	files   []*os.File
	name    string // the built-in, for its error messages
	sigpipe bool   // a write found the reader gone
}

// write writes p to fd n as bash's built-ins do: a reader that is gone
// reads as death by SIGPIPE (141, as bash's process would die), any other
// failure as "NAME: write error: REASON" and status 1. Nothing to write is
// no write, so echo -n > /dev/full succeeds.
func (b *IO) write(n int, p []byte) int {
	if len(p) == 0 {
		return 0
	}
	if n >= len(b.files) || b.files[n] == nil {
		return b.fail(1, b.name+": write error: "+redirect.Describe(syscall.EBADF))
	}
	if err := writeFile(b.files[n], p); err != nil {
		if isBrokenPipe(err) {
			b.sigpipe = true
			return 141
		}
		return b.fail(1, b.name+": write error: "+redirect.Describe(err))
	}
	return 0
}

// fail writes "chainrun: msg" to fd 2 and returns code; a message that
// cannot be written is lost, as bash's is.
func (b *IO) fail(code int, msg string) int {
	if len(b.files) > 2 && b.files[2] != nil {
		writeFile(b.files[2], []byte("chainrun: "+msg+"\n"))
	}
	return code
}

// exitStatus reads exit's argument as bash does: none → the last status,
// a number → it modulo 256, text → 2 with an error, several → 1.
func exitStatus(io *IO, args []string, last int) (code int, exit bool) {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return last, true
	}
	n, err := strconv.ParseInt(strings.TrimSpace(args[0]), 10, 64)
	if err != nil {
		return io.fail(2, "exit: "+args[0]+": numeric argument required"), true
	}
	if len(args) > 1 {
		return io.fail(1, "exit: too many arguments"), true
	}
	return int(uint8(n)), true
}

func pwd(io *IO, args []string, dir string) int {
	if len(args) > 0 && args[0] == "--help" {
		return help(io, "pwd [-LP]", "Print the chain's working directory (-P: with symbolic links resolved).")
	}
	physical, _, bad := spec.PhysicalOption(args)
	if bad != "" {
		return io.fail(2, "pwd: "+bad+": invalid option")
	}
	if physical {
		dir = spec.LogicalDir(dir, ".", spec.EvalSymlinks)
	}
	return io.write(1, []byte(dir+"\n"))
}

// cd changes the chain's directory for the rest of the chain, as
// spec.Cd computes it; inside a pipeline it only checks and reports, as
// bash's subshell would.
func cd(io *IO, args []string, c Call, st State) int {
	if len(args) > 0 && args[0] == "--help" {
		return help(io, "cd [-L|-P] [dir]", "Change the chain's working directory to DIR (default: $HOME), searching CDPATH.")
	}
	res, err := spec.Cd(st.Dir(), args, HostCdHooks(c.Env))
	if err != nil {
		e := err.(*spec.CdError)
		if e.Err != nil {
			return io.fail(e.Code, "cd: "+e.Arg+": "+redirect.Describe(e.Err))
		}
		return io.fail(e.Code, "cd: "+e.Msg)
	}
	if res.Dir == "" {
		return 0
	}
	code := 0
	if res.Print {
		code = io.write(1, []byte(res.Dir+"\n"))
	}
	if !c.InPipeline {
		st.Chdir(res.Dir)
	}
	return code
}

// HostCdHooks are spec.Cd's hooks on this machine: the variables of env,
// spec.StatDir and spec.EvalSymlinks.
func HostCdHooks(env []string) spec.CdHooks {
	return spec.CdHooks{
		Lookup:  func(name string) (string, bool) { return lookup(env, name) },
		Stat:    spec.StatDir,
		Resolve: spec.EvalSymlinks,
	}
}

// help answers NAME --help as bash's built-ins do: a usage line and what
// the built-in does, on stdout, and status 2.
func help(io *IO, usage, what string) int {
	io.write(1, []byte(io.name+": "+usage+"\n    "+what+"\n"))
	return 2
}

// lookup returns the value of key in env, as a child would see it.
func lookup(env []string, key string) (string, bool) { return environ.Host.Get(env, key) }

// localeIsUTF8 reports whether the chain's locale (LC_ALL, else LC_CTYPE,
// else LANG) names UTF-8, which is how bash decides whether echo can write
// a \u character: by the name, whether or not the locale is installed.
func localeIsUTF8(env []string) bool {
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v, ok := lookup(env, k); ok && v != "" {
			v = strings.ToLower(v)
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
		}
	}
	return false
}
