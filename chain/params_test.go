package chain

import "testing"

// TestPositionalAccepted: after a segment that sets the positional
// parameters, $1, $#, $@ and $* parse, in the chain and in its inner
// chains; before it they are refused (the chain has none).
func TestPositionalAccepted(t *testing.T) {
	for _, in := range []string{
		`set -- a b; echo $1 ${2} $# "$@" $*`,
		`set -e x; echo $1`,
		`set -- a; shift; echo $#`,
		`set -- $X; echo $1`,
		`set -- a; echo $(echo $1) $(echo $1)`,
		`set --; echo $#`,
	} {
		if _, err := ParseDialect(in, POSIX); err != nil {
			t.Errorf("%q: %v", in, err)
		}
	}
	for _, in := range []string{`echo $1`, `echo $#; set -- a`, `set -e; echo $1`, `echo $(set -- a); echo $1`, `echo $0`} {
		if _, err := ParseDialect(in, POSIX); err == nil {
			t.Errorf("%q: accepted, want the positional parameter refused", in)
		}
	}
}
