package spec

import "strings"

// SetChange is one shell option set turns on or off, by its long name
// (errexit, nounset, pipefail).
type SetChange struct {
	Option string
	On     bool
}

// SetError is an argument of set that chainrun does not carry out.
// Invalid is set when bash refuses it too (status 2, "invalid option");
// otherwise it is an option or form bash has and chainrun does not run
// (positional parameters, listing the variables), Why saying so.
type SetError struct {
	Arg     string
	Invalid bool
	Why     string
}

func (e *SetError) Error() string {
	if e.Arg == "" {
		return e.Why
	}
	return e.Arg + ": " + e.Why
}

// setLetter is the long name of a single-letter option chainrun runs, or
// "" (a switch, not a map, so that nothing is built at start).
func setLetter(c byte) string {
	switch c {
	case 'e':
		return "errexit"
	case 'u':
		return "nounset"
	case 'x':
		return "xtrace"
	}
	return ""
}

// setNames are the -o names chainrun runs.
var setNames = []string{"errexit", "nounset", "pipefail", "xtrace"}

// bashSetLetters and bashSetNames are the options bash's set knows: one
// of them that chainrun does not run is unsupported, any other invalid.
const bashSetLetters = "abefhkmnptuvxBCEHPT"

var bashSetNames = []string{"allexport", "braceexpand", "emacs", "errexit", "errtrace", "functrace", "hashall",
	"histexpand", "history", "ignoreeof", "interactive-comments", "keyword", "monitor", "noclobber", "noexec",
	"noglob", "nolog", "notify", "nounset", "onecmd", "physical", "pipefail", "posix", "privileged", "verbose",
	"vi", "xtrace"}

// SetSupported says, for the messages that refuse the rest, what chainrun's
// set runs.
const SetSupported = "chainrun's set runs -e, -u, -x, -o errexit, -o nounset, -o xtrace and -o pipefail (and their + forms)"

// Set reads set's arguments as bash does (-e, +u, clusters such as -euo
// pipefail where each o takes the next argument) into the option
// changes, in order, or the first argument chainrun does not carry out.
// No arguments lists the variables, which chainrun does not run.
// Operands (after the options, or after --) set the positional
// parameters: SetOperands returns them.
func Set(args []string) ([]SetChange, *SetError) {
	changes, _, _, err := parseSet(args)
	return changes, err
}

// SetOperands returns the positional parameters set's arguments give,
// and whether they give any (set -- alone gives none, and clears them).
func SetOperands(args []string) (params []string, ok bool) {
	_, params, ok, err := parseSet(args)
	return params, ok && err == nil
}

func parseSet(args []string) (out []SetChange, params []string, hasParams bool, err *SetError) {
	if len(args) == 0 {
		return nil, nil, false, &SetError{Why: "set alone lists the shell's variables, which chainrun does not; use env or printenv"}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return out, args[i+1:], true, nil
		}
		if a == "-" || a == "+" {
			return nil, nil, false, &SetError{Arg: a, Why: "set - and set + are not supported; write set -- to end the options"}
		}
		if a[0] != '-' && a[0] != '+' {
			return out, args[i:], true, nil
		}
		on := a[0] == '-'
		for j := 1; j < len(a); j++ {
			c := a[j]
			if c != 'o' {
				name := setLetter(c)
				if name == "" {
					return nil, nil, false, setLetterError(a[:1] + string(c))
				}
				out = append(out, SetChange{Option: name, On: on})
				continue
			}
			if i+1 >= len(args) {
				return nil, nil, false, &SetError{Arg: a, Why: "set -o alone lists the options, which chainrun does not"}
			}
			i++
			if err := setNameError(args[i]); err != nil {
				return nil, nil, false, err
			}
			out = append(out, SetChange{Option: args[i], On: on})
		}
	}
	return out, nil, false, nil
}

func setLetterError(opt string) *SetError {
	if strings.IndexByte(bashSetLetters, opt[1]) < 0 {
		return &SetError{Arg: opt, Invalid: true, Why: "invalid option"}
	}
	return &SetError{Arg: opt, Why: "not supported: " + SetSupported}
}

func setNameError(name string) *SetError {
	for _, n := range setNames {
		if n == name {
			return nil
		}
	}
	for _, n := range bashSetNames {
		if n == name {
			return &SetError{Arg: "-o " + name, Why: "not supported: " + SetSupported}
		}
	}
	return &SetError{Arg: name, Invalid: true, Why: "invalid option name"}
}
