package spec

import "strings"

// ReadArgs are read's arguments as chainrun runs them.
type ReadArgs struct {
	Raw   bool // -r: a backslash is an ordinary character
	Delim byte // -d: the byte that ends the input (default newline; -d '' is NUL)
	// Prompt is -p's text, written to stderr before reading when stdin
	// is a terminal.
	Prompt string
	Names  []string
}

// ReadSupported says what chainrun's read runs, for the messages that
// refuse the rest.
const ReadSupported = "chainrun's read runs -r, -d DELIM and -p PROMPT with names (REPLY when none)"

// Read reads read's options (args after the name): -r, -d DELIM and -p
// PROMPT (also -dDELIM and in clusters such as -rd), --, then the names.
// bad is the first option chainrun does not run: -a (a chain keeps no
// arrays), -n, -N, -t, -u, -e, -i, -s, and any bash refuses.
func Read(args []string) (r ReadArgs, bad string) {
	r.Delim = '\n'
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		for j := 1; j < len(a); j++ {
			switch a[j] {
			case 'r':
				r.Raw = true
				continue
			case 'd', 'p':
				d := a[j+1:]
				if d == "" {
					if i+1 >= len(args) {
						return r, "-" + a[j:j+1]
					}
					i++
					d = args[i]
				}
				if a[j] == 'p' {
					r.Prompt = d
					break
				}
				r.Delim = 0
				if d != "" {
					r.Delim = d[0]
				}
			default:
				return r, "-" + a[j:j+1]
			}
			break
		}
	}
	r.Names = args[i:]
	return r, ""
}

func readEffects(args []string) Effects {
	r, _ := Read(args)
	e := Effects{Stdin: true, State: true, Assigns: r.Names}
	if len(r.Names) == 0 {
		e.Assigns = []string{"REPLY"}
	}
	return e
}

// ReadOptionHint is the fix for an option read runs in bash and chainrun
// does not.
func ReadOptionHint(opt string) string {
	if strings.HasPrefix(opt, "-a") {
		return "chainrun keeps no arrays; read the fields into names: read -r a b c"
	}
	return "not supported: " + ReadSupported
}
