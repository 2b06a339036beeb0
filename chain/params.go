package chain

// Positional reports a positional parameter's name: 1, 2, … (${10} and
// on), # (their count), @ and * (all of them). A chain has none until a
// set with operands (set -- a b) gives them, as bash -c LINE has none;
// before that the parser refuses them, since an agent writing $1 in a
// chain means something the chain does not have.
func Positional(name string) bool {
	return name == "@" || name == "*" || name == "#" || isDigits(name) && name != "0"
}
