package chain

import "mvdan.cc/sh/v3/syntax"

// Positional reports a positional parameter's name: 1, 2, … (${10} and
// on), # (their count), @ and * (all of them). A chain has none until a
// set with operands (set -- a b) gives them, as bash -c LINE has none;
// before that the parser refuses them, since an agent writing $1 in a
// chain means something the chain does not have.
func Positional(name string) bool {
	return name == "@" || name == "*" || name == "#" || isDigits(name) && name != "0"
}

// assignable reports a ${X:=word} or ${X=word} chainrun runs: it assigns
// X in the shell when X is unset (or empty), as bash does. Positional
// and special parameters cannot be assigned so (bash's error), and the
// variables that steer chainrun itself (IFS, PATH, CDPATH, HOME, PWD,
// OLDPWD) are refused; the expansion refuses an exported X when it runs.
func assignable(pe *syntax.ParamExp) bool {
	if pe.Exp.Op != syntax.AssignUnset && pe.Exp.Op != syntax.AssignUnsetOrNull {
		return false
	}
	switch name := pe.Param.Value; name {
	case "IFS", "PATH", "CDPATH", "HOME", "PWD", "OLDPWD":
		return false
	default:
		return ValidName(name)
	}
}
