package policy

import (
	"iter"
	"slices"
	"strings"
	"unicode/utf8"
)

// The one option grammar of the program registry. An optSpec lists a
// program's options the way its own parser reads them, keyed as they are
// written ("-o", "--output"): which take a value, the roles of the values
// that name files, the options that make a reader write or run code. Two
// walks read it. scanOpts reads a wrapper's options as the wrapper does,
// stopping at the first operand, so the command after them is found where
// the wrapper finds it; a word it cannot place (an unknown option, an
// ambiguous abbreviation, an abbreviation of a program that accepts none)
// makes the wrapper unreadable, so the segment asks and deny rules see
// every word that could be the command ("\time --f echo rm -rf x" runs
// rm). walkFlags reads GNU-style, options after operands too, for guards
// and file roles.

// optSpec describes a program's options.
type optSpec struct {
	shortVal  string   // short options taking a value, attached or next
	shortOpt  string   // short options taking an optional attached value
	shortFlag string   // short options taking no value
	longVal   []string // long options taking a value ("=v" or next word)
	longOpt   []string // long options with an optional value ("=v" only)
	longFlag  []string // long options taking no value
	longPair  []string // long options taking two values, a name and its value (jq --rawfile NAME FILE)
	operands  int      // a wrapper's positional words before its command
	// abbrev is set for programs whose parser accepts unambiguous
	// prefixes of long options (getopt_long, git); without it a long
	// option must be spelled out. For walkFlags a word that abbreviates a
	// dangerous option is then that option.
	abbrev bool
	// anyOpt is set for programs that take only NAME or NAME=value options
	// and never a separate value (valgrind, firejail): every word starting
	// with "-" is one option.
	anyOpt bool
	// roles maps "-x" and "--name" to the role of their value: a file the
	// program reads or writes, or a directory it moves its command into.
	roles map[string]fileRole
	// danger maps "-x" and "--name" to why a prefix or glob rule does not
	// cover the option (it writes files or runs programs).
	danger map[string]string
	// check inspects an option and its value ("-o" "ProxyCommand=x").
	check func(flag string, val word) string
}

// flagUse is one option as read: "-o" or "--output" (an abbreviation
// resolved), its value when it takes one (a separate value may be known
// only at run time), and the word it was written as.
type flagUse struct {
	flag   string
	val    word
	word   string
	hasVal bool
}

// scanOpts reads a wrapper's options (stopping at the first non-option or
// after "--"), then its operands. It returns the index of the command,
// the options seen, and the first word it could not read ("" when it read
// them all). A word known only at run time is no option: it ends them.
func scanOpts(args []word, spec *optSpec) (int, []flagUse, string) {
	var opts []flagUse
	i := 1
	for i < len(args) {
		x, ok := args[i].known()
		if !ok {
			break
		}
		if x == "--" {
			i++
			break
		}
		if len(x) < 2 || x[0] != '-' {
			break
		}
		if spec.anyOpt {
			name, val, hasVal := strings.Cut(strings.TrimLeft(x, "-"), "=")
			opts = append(opts, flagUse{optWord(name), lit(val), x, hasVal})
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

// optWord spells an option name as it is written: "-o", "--output".
func optWord(name string) string {
	if len(name) == 1 {
		return shortOption(name[0])
	}
	return "--" + name
}

// long reads the long option args[i], resolving an abbreviation.
func (spec *optSpec) long(args []word, i int, opts []flagUse) (int, []flagUse, string) {
	x, _ := args[i].known() // known: scanOpts stops at a word that is not
	name, v, hasVal := strings.Cut(x[2:], "=")
	val := lit(v)
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
		val, hasVal = args[i], true
	case kind == 'p':
		if hasVal || i+2 >= len(args) {
			return i, opts, x
		}
		i += 2
		val, hasVal = args[i], true
	}
	return i + 1, append(opts, flagUse{"--" + full, val, x, hasVal}), ""
}

// short reads the short option cluster args[i].
func (spec *optSpec) short(args []word, i int, opts []flagUse) (int, []flagUse, string) {
	x, _ := args[i].known() // known: scanOpts stops at a word that is not
	for j := 1; j < len(x); j++ {
		c := x[j]
		switch {
		case strings.IndexByte(spec.shortOpt, c) >= 0:
			return i + 1, append(opts, flagUse{shortOption(c), lit(x[j+1:]), x, j+1 < len(x)}), ""
		case strings.IndexByte(spec.shortVal, c) >= 0:
			v := lit(x[j+1:])
			if j+1 == len(x) {
				if i+1 >= len(args) {
					return i, opts, x
				}
				i++
				v = args[i]
			}
			return i + 1, append(opts, flagUse{shortOption(c), v, x, true}), ""
		case strings.IndexByte(spec.shortFlag, c) >= 0:
			opts = append(opts, flagUse{shortOption(c), word{}, x, false})
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
	}{{spec.longVal, 'v'}, {spec.longOpt, 'o'}, {spec.longFlag, 'f'}, {spec.longPair, 'p'}}
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

// exact reads one word of options written before a subcommand (git -C
// dir push): whether it is an option of spec, spelled out, and whether it
// takes the next word as its value. A cluster of short flags ("-vv") is
// one known word.
func (spec *optSpec) exact(word string) (takesValue, known bool) {
	if name, ok := strings.CutPrefix(word, "--"); ok {
		switch {
		case slices.Contains(spec.longVal, name):
			return true, true
		case slices.Contains(spec.longFlag, name):
			return false, true
		}
		return false, false
	}
	if len(word) < 2 || word[0] != '-' {
		return false, false
	}
	if len(word) == 2 && strings.IndexByte(spec.shortVal, word[1]) >= 0 {
		return true, true
	}
	for j := 1; j < len(word); j++ {
		if strings.IndexByte(spec.shortFlag, word[j]) < 0 {
			return false, false
		}
	}
	return false, true
}

// valuesOf are the values of the options opts whose role in spec is role
// (the scripts given by -e, for roleCode).
func (spec *optSpec) valuesOf(opts []flagUse, role fileRole) []word {
	var vals []word
	for _, o := range opts {
		if spec.roles[o.flag] == role {
			vals = append(vals, o.val)
		}
	}
	return vals
}

// findFlag returns the value of the first option named any of flags.
func findFlag(opts []flagUse, flags ...string) (word, bool) {
	for _, o := range opts {
		if slices.Contains(flags, o.flag) {
			return o.val, true
		}
	}
	return word{}, false
}

// scanFlags walks args GNU-style (options may follow operands) and stops
// reading options at "--". It returns the operands and the first reason a
// dangerous option gave.
func scanFlags(args []word, spec *optSpec) (operands []word, reason string) {
	operands, opts := walkFlags(args, spec)
	return operands, spec.dangerIn(opts)
}

// dangerIn is the first reason a dangerous option of opts gives, or "".
// An option that writes the file it names is no danger when that is the
// null device (curl -o /dev/null).
func (spec *optSpec) dangerIn(opts []flagUse) string {
	for _, o := range opts {
		if spec.roles[o.flag] == roleWrite && o.hasVal && o.val.isNeutralOut() {
			continue
		}
		if r, ok := spec.danger[o.flag]; ok {
			return r + " (" + o.word + ")"
		}
		if spec.check != nil && (o.hasVal || strings.HasPrefix(o.flag, "--")) {
			if r := spec.check(o.flag, o.val); r != "" {
				return r
			}
		}
	}
	return ""
}

// walkFlags is the option walk scanFlags and the file-operand reader
// share: every option with its value, and the operands. A word known only
// at run time is an operand here (the guard and the path roles judge it
// as such).
func walkFlags(args []word, spec *optSpec) (operands []word, opts []flagUse) {
	if len(args) > 0 {
		opts = make([]flagUse, 0, len(args))
	}
	for i := 0; i < len(args); i++ {
		x, ok := args[i].known()
		if !ok {
			operands = append(operands, args[i])
			continue
		}
		if x == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if strings.HasPrefix(x, "--") {
			name, v, hasVal := strings.Cut(x[2:], "=")
			val := lit(v)
			full := spec.resolveLong(name)
			switch {
			case !hasVal && slices.Contains(spec.longVal, full) && i+1 < len(args):
				i++
				val, hasVal = args[i], true
			case !hasVal && slices.Contains(spec.longPair, full) && i+2 < len(args):
				i += 2 // the name, then the value
				val, hasVal = args[i], true
			}
			opts = append(opts, flagUse{"--" + full, val, x, hasVal})
			continue
		}
		if len(x) < 2 || x[0] != '-' {
			operands = append(operands, args[i])
			continue
		}
		for j := 1; j < len(x); j++ {
			f := shortOption(x[j])
			if strings.IndexByte(spec.shortVal, x[j]) >= 0 {
				val := lit(x[j+1:])
				if j+1 == len(x) && i+1 < len(args) {
					i++
					val = args[i]
				}
				opts = append(opts, flagUse{f, val, x, true})
				break
			}
			opts = append(opts, flagUse{f, word{}, x, false})
		}
	}
	return operands, opts
}

// resolveLong expands an abbreviated long option for walkFlags. An exact
// known name wins; a word that abbreviates a dangerous option becomes that
// option.
func (spec *optSpec) resolveLong(name string) string {
	if _, ok := spec.danger["--"+name]; ok || slices.Contains(spec.longVal, name) || slices.Contains(spec.longFlag, name) ||
		slices.Contains(spec.longOpt, name) || slices.Contains(spec.longPair, name) {
		return name
	}
	if !spec.abbrev || name == "" {
		return name
	}
	for d := range spec.danger {
		if strings.HasPrefix(d, "--") && strings.HasPrefix(d[2:], name) {
			return d[2:]
		}
	}
	match := ""
	for _, l := range [][]string{spec.longVal, spec.longFlag, spec.longOpt, spec.longPair} {
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

// shortOption spells byte c as a short option ("-x"), for ASCII without
// allocating: a slice of asciiOptions, a constant, so no table is built
// when the package is initialised.
func shortOption(c byte) string {
	if c < utf8.RuneSelf {
		return asciiOptions[2*int(c) : 2*int(c)+2]
	}
	return "-" + string(rune(c))
}

// asciiOptions is "-" and each ASCII byte, in order.
const asciiOptions = "" +
	"-\x00-\x01-\x02-\x03-\x04-\x05-\x06-\x07-\x08-\x09-\x0a-\x0b-\x0c-\x0d-\x0e-\x0f-\x10-\x11-\x12-\x13-\x14-\x15-\x16-\x17-\x18-\x19-\x1a-\x1b-\x1c-\x1d-\x1e-\x1f" +
	"- -!-\"-#-$-%-&-'-(-)-*-+-,---.-/-0-1-2-3-4-5-6-7-8-9-:-;-<-=->-?" +
	"-@-A-B-C-D-E-F-G-H-I-J-K-L-M-N-O-P-Q-R-S-T-U-V-W-X-Y-Z-[-\\-]-^-_" +
	"-`-a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t-u-v-w-x-y-z-{-|-}-~-\x7f"

// wordsBeforeEnd yields the words of args known before the run, up to
// "--", which ends the options: what an option guard reads. A word known
// only at run time is passed over here (the segment is judged again on
// its final words as it starts).
func wordsBeforeEnd(args []word) iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, w := range args {
			a, ok := w.known()
			if !ok {
				continue
			}
			if a == "--" || !yield(a) {
				return
			}
		}
	}
}
