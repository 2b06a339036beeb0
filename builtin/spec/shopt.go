package spec

// ShoptArgs are shopt's arguments as chainrun runs them: -s or -u to set
// or unset the named options, -q to report by the status whether they
// are all on, -p to print them as commands, or none to print their state.
type ShoptArgs struct {
	Mode  byte // 's', 'u', 'q', 'p' or 0
	Names []string
}

// ShoptError is an argument of shopt chainrun does not carry out.
// Invalid is set for a name bash does not know either (status 1, bash's
// "invalid shell option name").
type ShoptError struct {
	Arg     string
	Invalid bool
	Why     string
}

func (e *ShoptError) Error() string { return e.Arg + ": " + e.Why }

// ShoptNames are the shopt options chainrun runs: those that change how
// a word expands.
var ShoptNames = []string{"dotglob", "globstar", "nocaseglob", "nullglob"}

// ShoptSupported says, for the messages that refuse the rest, what
// chainrun's shopt runs.
const ShoptSupported = "chainrun's shopt sets and queries dotglob, globstar, nocaseglob and nullglob (-s, -u, -q, -p); " +
	"extended globs (extglob) are not supported: match with find -regex or grep instead"

// bashShoptNames are the other options bash's shopt knows.
var bashShoptNames = []string{"assoc_expand_once", "autocd", "cdable_vars", "cdspell", "checkhash", "checkjobs",
	"checkwinsize", "cmdhist", "compat31", "compat32", "compat40", "compat41", "compat42", "compat43", "compat44",
	"complete_fullquote", "direxpand", "dirspell", "execfail", "expand_aliases", "extdebug", "extglob", "extquote", "failglob",
	"force_fignore", "globasciiranges", "globskipdots", "gnu_errfmt", "histappend", "histreedit", "histverify",
	"hostcomplete", "huponexit", "inherit_errexit", "interactive_comments", "lastpipe", "lithist", "localvar_inherit",
	"localvar_unset", "login_shell", "mailwarn", "no_empty_cmd_completion", "noexpand_translation", "patsub_replacement",
	"progcomp", "progcomp_alias", "promptvars", "restricted_shell", "shift_verbose", "sourcepath", "varredir_close", "xpg_echo"}

// Shopt reads shopt's arguments, or the first one chainrun does not
// carry out.
func Shopt(args []string) (ShoptArgs, *ShoptError) {
	var out ShoptArgs
	i := 0
	for ; i < len(args) && len(args[i]) > 1 && args[i][0] == '-'; i++ {
		if args[i] == "--" {
			i++
			break
		}
		for _, c := range []byte(args[i][1:]) {
			switch {
			case c == 's' || c == 'u' || c == 'q' || c == 'p':
				if out.Mode != 0 && out.Mode != c && !(c == 'q' || out.Mode == 'q') {
					return out, &ShoptError{Arg: "-" + string(c), Invalid: true, Why: "cannot set and unset shell options simultaneously"}
				}
				if out.Mode == 0 || c != 'q' {
					out.Mode = c
				}
			default:
				return out, &ShoptError{Arg: "-" + string(c), Why: "not supported: " + ShoptSupported}
			}
		}
	}
	out.Names = args[i:]
	if len(out.Names) == 0 {
		return out, &ShoptError{Arg: "shopt", Why: "without names lists every option, which chainrun does not: " + ShoptSupported}
	}
	for _, n := range out.Names {
		if err := shoptName(n); err != nil {
			return out, err
		}
	}
	return out, nil
}

func shoptName(n string) *ShoptError {
	for _, s := range ShoptNames {
		if s == n {
			return nil
		}
	}
	for _, s := range bashShoptNames {
		if s == n {
			return &ShoptError{Arg: n, Why: "not supported: " + ShoptSupported}
		}
	}
	return &ShoptError{Arg: n, Invalid: true, Why: "invalid shell option name"}
}
