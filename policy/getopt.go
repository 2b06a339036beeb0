package policy

import (
	"slices"
	"strings"
)

// Wrapper options are read the way the wrapper's own option parser reads
// them: GNU getopt_long accepts any unambiguous prefix of a long option
// ("time --f FMT" is --format and takes FMT), so a wrapper whose options
// are read wrongly hides the command it runs ("\time --f echo rm -rf x"
// runs rm). An optSpec lists every option of a wrapper; a word the spec
// cannot place (an unknown option, an ambiguous abbreviation, an
// abbreviation of a wrapper that accepts none) makes the wrapper
// unreadable, which scanOpts reports so the segment asks and deny rules
// see every word that could be the command.

// optSpec describes a wrapper's own options, so the wrapped command can be
// found after them.
type optSpec struct {
	shortVal  string   // short options taking a value, attached or next
	shortOpt  string   // short options taking an optional attached value
	shortFlag string   // short options taking no value
	longVal   []string // long options taking a value ("=v" or next word)
	longOpt   []string // long options with an optional value ("=v" only)
	longFlag  []string // long options taking no value
	operands  int      // positional words before the command
	// abbrev is set for wrappers whose parser accepts unambiguous
	// prefixes of long options (getopt_long); without it a long option
	// must be spelled out.
	abbrev bool
	// anyOpt is set for wrappers that take only NAME or NAME=value
	// options and never a separate value (valgrind, firejail): every word
	// starting with "-" is one option.
	anyOpt bool
	// files names the options (short letter or long name) whose value is
	// a file the wrapper reads or writes, or a directory it moves the
	// command into.
	files map[string]fileRole
}

// opt is one parsed wrapper option, by its full name.
type opt struct {
	name string // "s" for -s, "signal" for --signal (abbreviations resolved)
	val  string
}

// scanOpts reads a wrapper's options (stopping at the first non-option or
// after "--"), then its operands. It returns the index of the command,
// the options seen, and the first word it could not read ("" when it read
// them all).
func scanOpts(args []string, spec *optSpec) (int, []opt, string) {
	var opts []opt
	i := 1
	for i < len(args) {
		x := args[i]
		if x == "--" {
			i++
			break
		}
		if len(x) < 2 || x[0] != '-' {
			break
		}
		if spec.anyOpt {
			name, val, _ := strings.Cut(strings.TrimLeft(x, "-"), "=")
			opts = append(opts, opt{name, val})
			i++
			continue
		}
		var bad string
		if strings.HasPrefix(x, "--") {
			i, opts, bad = spec.long(args, i, opts)
		} else {
			i, opts, bad = spec.short(args, i, opts)
		}
		if bad != "" {
			return i, opts, bad
		}
	}
	i += spec.operands
	return i, opts, ""
}

// long reads the long option args[i], resolving an abbreviation.
func (spec *optSpec) long(args []string, i int, opts []opt) (int, []opt, string) {
	x := args[i]
	name, val, hasVal := strings.Cut(x[2:], "=")
	full, kind := spec.resolve(name)
	switch {
	case kind == 0:
		return i, opts, x
	case kind == 'f' && hasVal:
		return i, opts, x // getopt refuses a value for a flag
	case kind == 'v' && !hasVal:
		if i+1 >= len(args) {
			return i, opts, x
		}
		i++
		val = args[i]
	}
	return i + 1, append(opts, opt{full, val}), ""
}

// short reads the short option cluster args[i].
func (spec *optSpec) short(args []string, i int, opts []opt) (int, []opt, string) {
	x := args[i]
	for j := 1; j < len(x); j++ {
		c := x[j]
		switch {
		case strings.IndexByte(spec.shortOpt, c) >= 0:
			return i + 1, append(opts, opt{string(c), x[j+1:]}), ""
		case strings.IndexByte(spec.shortVal, c) >= 0:
			v := x[j+1:]
			if v == "" {
				if i+1 >= len(args) {
					return i, opts, x
				}
				i++
				v = args[i]
			}
			return i + 1, append(opts, opt{string(c), v}), ""
		case strings.IndexByte(spec.shortFlag, c) >= 0:
			opts = append(opts, opt{string(c), ""})
		default:
			return i, opts, x
		}
	}
	return i + 1, opts, ""
}

// resolve finds the long option name abbreviates: its full name and kind
// ('v' value, 'o' optional value, 'f' flag), or kind 0 when there is no
// such option or the abbreviation is ambiguous.
func (spec *optSpec) resolve(name string) (string, byte) {
	kinds := [...]struct {
		names []string
		kind  byte
	}{{spec.longVal, 'v'}, {spec.longOpt, 'o'}, {spec.longFlag, 'f'}}
	for _, k := range kinds {
		if slices.Contains(k.names, name) {
			return name, k.kind
		}
	}
	if !spec.abbrev || name == "" {
		return "", 0
	}
	full, kind := "", byte(0)
	for _, k := range kinds {
		for _, n := range k.names {
			if strings.HasPrefix(n, name) {
				if full != "" {
					return "", 0
				}
				full, kind = n, k.kind
			}
		}
	}
	return full, kind
}

// has returns the value of the first option named any of names.
func has(opts []opt, names ...string) (string, bool) {
	for _, o := range opts {
		if slices.Contains(names, o.name) {
			return o.val, true
		}
	}
	return "", false
}
