package policy

import (
	"slices"
	"strings"
)

// The option scanner most guards are built on: a flagSpec says which of a
// program's options take a value and which are dangerous, and scanFlags
// walks the arguments the way the program's own option parser would, so
// "-uo" and "--in-pl" are read as the options they are.

// flagSpec describes a program's options well enough to walk them.
type flagSpec struct {
	shortVal string   // short options that take a value (attached or next word)
	longVal  []string // long options that take a value ("--x=v" or "--x v")
	known    []string // other long options, so abbreviations resolve
	// danger maps "-x" and "--name" to the reason they are refused.
	danger map[string]string
	// abbrev is set for programs that accept unambiguous abbreviations of
	// long options (GNU getopt, git); a word that abbreviates a dangerous
	// option is then treated as that option.
	abbrev bool
	// check inspects an option and its value ("-o" "ProxyCommand=x").
	check func(flag, val string) string
	// files maps "-x" and "--name" to the role of their value, a path
	// (access.go).
	files map[string]fileRole
}

// flagGuard is the guard of a program described by spec alone.
func flagGuard(args []string, spec *flagSpec) string {
	_, r := scanFlags(args, spec)
	return r
}

// scanFlags walks args GNU-style (options may follow operands) and stops
// reading options at "--". It returns the operands and the first reason a
// dangerous option gave.
func scanFlags(args []string, spec *flagSpec) (operands []string, reason string) {
	operands, opts := walkFlags(args, spec)
	for _, o := range opts {
		if r, ok := spec.danger[o.flag]; ok {
			return operands, r + " (" + o.word + ")"
		}
		if spec.check != nil && (o.hasVal || strings.HasPrefix(o.flag, "--")) {
			if r := spec.check(o.flag, o.val); r != "" {
				return operands, r
			}
		}
	}
	return operands, ""
}

// flagUse is one option as walkFlags read it: "-o" or "--output" (an
// abbreviation resolved), its value when it takes one, and the word it
// was written as.
type flagUse struct {
	flag, val, word string
	hasVal          bool
}

// walkFlags is the option walk scanFlags and the file-operand reader
// share: every option with its value, and the operands.
func walkFlags(args []string, spec *flagSpec) (operands []string, opts []flagUse) {
	if len(args) > 0 {
		opts = make([]flagUse, 0, len(args))
	}
	for i := 0; i < len(args); i++ {
		x := args[i]
		if x == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if strings.HasPrefix(x, "--") {
			name, val, hasVal := strings.Cut(x[2:], "=")
			full := spec.resolveLong(name)
			if !hasVal && slices.Contains(spec.longVal, full) && i+1 < len(args) {
				i++
				val, hasVal = args[i], true
			}
			opts = append(opts, flagUse{"--" + full, val, x, hasVal})
			continue
		}
		if len(x) < 2 || x[0] != '-' {
			operands = append(operands, x)
			continue
		}
		for j := 1; j < len(x); j++ {
			f := shortNames[x[j]]
			if strings.IndexByte(spec.shortVal, x[j]) >= 0 {
				val := x[j+1:]
				if val == "" && i+1 < len(args) {
					i++
					val = args[i]
				}
				opts = append(opts, flagUse{f, val, x, true})
				break
			}
			opts = append(opts, flagUse{f, "", x, false})
		}
	}
	return operands, opts
}

// resolveLong expands an abbreviated long option. An exact known name wins;
// a word that abbreviates a dangerous option becomes that option.
func (s *flagSpec) resolveLong(name string) string {
	if _, ok := s.danger["--"+name]; ok || slices.Contains(s.longVal, name) || slices.Contains(s.known, name) {
		return name
	}
	if !s.abbrev || name == "" {
		return name
	}
	for d := range s.danger {
		if strings.HasPrefix(d, "--") && strings.HasPrefix(d[2:], name) {
			return d[2:]
		}
	}
	match := ""
	for _, l := range [][]string{s.longVal, s.known} {
		for _, k := range l {
			if strings.HasPrefix(k, name) {
				if match != "" {
					return name
				}
				match = k
			}
		}
	}
	if match != "" {
		return match
	}
	return name
}

// shortNames spells each byte as a short option ("-x") without
// allocating.
var shortNames = func() (n [256]string) {
	for i := range n {
		n[i] = "-" + string(rune(i))
	}
	return n
}()
