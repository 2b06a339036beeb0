// Package tools runs chainrun's own versions of the POSIX programs agents
// type most (ls, cat, head, rm -rf, mkdir -p, grep -rn, …) in-process, so
// that a chain written for bash works on a Windows machine without Git for
// Windows or another set of POSIX tools on PATH. The engine runs one when
// a segment's program is not found (or always, or never: Mode).
//
// Each tool accepts only the options its Spec declares, and writes what
// GNU coreutils, findutils and grep write for them, with their statuses;
// any other option is a usage error (status 2) that names the option and
// says how to get the real program. The policy judges a segment by its
// argv with the real program's registry record, whichever implementation
// runs; policy/tools_test.go checks that every option a tool accepts reads
// the same way there (a value-taking option takes a value in both), so the
// judged operands are the ones the tool acts on.
//
// The engine, and library users who run their own segments, call Run with
// the segment's streams.
package tools

import (
	"context"
	"io"
	"sort"
	"sync"
)

// Call is one run of a tool: its argv, the chain's directory and the
// segment's environment and streams. Ctx ends it early (a timeout, a
// stop): the tool returns at its next read, write or file step.
type Call struct {
	Ctx    context.Context
	Args   []string // Args[0] is the name as written
	Dir    string
	Env    []string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Exec runs the commands of env and xargs; nil makes them refuse to.
	Exec Exec
}

// Tool is one built-in tool: its name, the options it accepts and its code.
type Tool struct {
	Name string
	Spec Spec
	run  func(t *task) int
}

// Spec is the options a tool accepts, GNU style: short options that take
// no value (Flags), short options that take one (Values), and the long
// forms of each, without the leading "--". Long maps a long option to the
// short one it spells, "" when it has none.
type Spec struct {
	Flags, Values string
	LongFlags     map[string]string
	LongValues    map[string]string
	// Digits is set for head and tail, whose -NUM is -n NUM.
	Digits bool
	// InOrder is set for the tools whose options end at the first operand
	// (env, xargs): the rest is the operand list.
	InOrder bool
	// Raw is set for find, whose arguments are all its own (start points
	// and an expression): they are its operands as written.
	Raw bool
}

// registry holds the tools by name. It is filled on its first use, not at
// start: a chainrun that never looks a tool up (every run on a POSIX
// host) does not pay for it.
var (
	registry     map[string]*Tool
	registryOnce sync.Once
)

// families register the tools of each file.
var families = [...]func(){registerFiles, registerFind, registerGrep, registerLs, registerNames, registerRun, registerSort,
	registerText}

func register(t *Tool) { registry[t.Name] = t }

// tools returns the registry, filled.
func tools() map[string]*Tool {
	registryOnce.Do(func() {
		registry = map[string]*Tool{}
		for _, f := range families {
			f()
		}
	})
	return registry
}

// Lookup returns the tool named name.
func Lookup(name string) (*Tool, bool) {
	t, ok := tools()[name]
	return t, ok
}

// Names lists the tools, sorted.
func Names() []string {
	reg := tools()
	names := make([]string, 0, len(reg))
	for n := range reg {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Run runs the tool with call and returns its exit status, as the real
// program's would be. A write whose reader is gone ends it with status 141
// and sigpipe set (the real program would have died of SIGPIPE).
func (t *Tool) Run(c Call) (code int, sigpipe bool) {
	if c.Ctx == nil {
		c.Ctx = context.Background()
	}
	k := newTask(t, c)
	defer func() {
		// A tool's bug must not take the whole chainrun down with it.
		if v := recover(); v != nil {
			k.errorf("internal error: %v", v)
			code, sigpipe = 2, false
		}
	}()
	opts, operands, err := parse(&t.Spec, c.Args[1:])
	if err != nil {
		return k.usage(err), false
	}
	k.opts, k.operands = opts, operands
	code = t.run(k)
	if k.out.pipe {
		return 141, true
	}
	if k.out.err != nil && code == 0 {
		code = 1
	}
	return code, false
}
