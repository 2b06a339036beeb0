// Package spec says what each engine built-in is without running it: one
// record per built-in with its name and the effects a run of it can have
// (the files it reads or stats, the variables it sets, whether it changes
// the chain's directory or state), and bash's directory arithmetic for cd.
//
// It imports nothing of chainrun's, so the model, the plan and the policy
// can all import it; package builtin runs the built-ins. The records and
// Cd are pure: Cd reads the file system only through its hooks (StatDir
// and EvalSymlinks are the host's).
package spec

import "strings"

// Effects are what one run of a built-in with given arguments can do
// beyond writing to its stdout and stderr. Operands are as written (an
// operand known only at run time stays as the caller's marker).
type Effects struct {
	// Reads are files whose contents it reads; Writes files it writes.
	Reads, Writes []string
	// Stats are files whose metadata (existence, type, mode, times) it
	// reads: test -f x.
	Stats []string
	// Stdin is set when it reads its standard input.
	Stdin bool
	// Assigns are the variables it sets (printf -v NAME, export NAME=v);
	// Unsets those it removes.
	Assigns, Unsets []string
	// Chdir is set when it changes the chain's directory (cd).
	Chdir bool
	// State is set when it changes the chain's state for what runs after
	// it: variables, the directory, or the end of the chain (exit).
	State bool
}

// Builtin is one built-in: its name and its effects for arguments args
// (those after the name).
type Builtin struct {
	Name    string
	Effects func(args []string) Effects
}

// none is the effects of a built-in that only writes its output.
func none([]string) Effects { return Effects{} }

// All lists the engine built-ins, one record each. The parser marks a
// segment whose command word is one of these names; the runner runs it
// itself; the policy judges it by its Effects.
var All = []Builtin{
	{Name: "cd", Effects: func([]string) Effects { return Effects{Chdir: true, State: true} }},
	{Name: "pwd", Effects: none},
	{Name: "echo", Effects: none},
	{Name: "true", Effects: none},
	{Name: "false", Effects: none},
	{Name: "exit", Effects: func([]string) Effects { return Effects{State: true} }},
	{Name: "printf", Effects: printfEffects},
	{Name: "test", Effects: testEffects},
	{Name: "[", Effects: func(args []string) Effects {
		if len(args) > 0 && args[len(args)-1] == "]" {
			args = args[:len(args)-1]
		}
		return testEffects(args)
	}},
	{Name: "export", Effects: exportEffects},
	{Name: "unset", Effects: unsetEffects},
	{Name: "set", Effects: setEffects},
	{Name: "command", Effects: queryEffects}, // only command -v and -V (Command); command NAME runs NAME
	{Name: "type", Effects: queryEffects},
	{Name: "read", Effects: readEffects},
	// : does nothing, as true; break and continue end a loop's
	// iteration or the loop, in the chain's state.
	{Name: ":", Effects: none},
	{Name: "break", Effects: func([]string) Effects { return Effects{State: true} }},
	{Name: "continue", Effects: func([]string) Effects { return Effects{State: true} }},
	{Name: "wait", Effects: none}, // waits for the chain's background pipelines
	{Name: "shift", Effects: func([]string) Effects { return Effects{State: true} }},
	{Name: "shopt", Effects: func([]string) Effects { return Effects{State: true} }},
}

// Lookup returns the record of the built-in named name.
func Lookup(name string) (*Builtin, bool) {
	for i := range All {
		if All[i].Name == name {
			return &All[i], true
		}
	}
	return nil, false
}

// PrintfVar returns the variable printf -v NAME (or -vNAME) assigns, the
// arguments after it, and whether there is one. An invalid name is
// returned too: printf refuses it, and assigns nothing.
func PrintfVar(args []string) (name string, rest []string, ok bool) {
	if len(args) == 0 || !strings.HasPrefix(args[0], "-v") {
		return "", args, false
	}
	name, rest = strings.TrimPrefix(args[0], "-v"), args[1:]
	if name == "" {
		if len(rest) == 0 {
			return "", nil, false
		}
		name, rest = rest[0], rest[1:]
	}
	return name, rest, true
}

func printfEffects(args []string) Effects {
	if name, _, ok := PrintfVar(args); ok {
		return Effects{Assigns: []string{name}, State: true}
	}
	return Effects{}
}

// testEffects lists every operand a file test may apply to: the word
// after a unary file operator and both sides of -nt, -ot and -ef. It reads
// more than one count-based reading would, never less.
func testEffects(args []string) Effects {
	var e Effects
	for i, a := range args {
		if i+1 < len(args) && len(a) == 2 && a[0] == '-' && strings.IndexByte(FileTests, a[1]) >= 0 {
			e.Stats = append(e.Stats, args[i+1])
		}
		if i > 0 && i+1 < len(args) && (a == "-nt" || a == "-ot" || a == "-ef") {
			e.Stats = append(e.Stats, args[i-1], args[i+1])
		}
	}
	return e
}

// FileTests are the letters of test's unary operators that look at a
// file: -e, -f, -d, -r and the rest.
const FileTests = "abcdefghkprsuwxGLNOS"

func exportEffects(args []string) Effects {
	e := Effects{State: true}
	for _, a := range args {
		name, _, _ := strings.Cut(a, "=")
		e.Assigns = append(e.Assigns, name)
	}
	return e
}

func unsetEffects(args []string) Effects {
	e := Effects{State: true}
	for i, a := range args {
		if i == 0 && (a == "-v" || a == "--") {
			continue
		}
		e.Unsets = append(e.Unsets, a)
	}
	return e
}

// ValidName reports whether s is a shell variable name.
func ValidName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
