package builtin

import (
	"testing"

	"github.com/chainrun/chainrun/chain"
)

func TestTrace(t *testing.T) {
	c := []string{"LC_ALL=C"}
	u := []string{"LANG=en_US.UTF-8"}
	for _, tt := range []struct {
		assigns []chain.Assign
		args    []string
		env     []string
		want    string
	}{
		{nil, []string{"echo", "a b", "", "it's", "~", "a~", "#a", "b#", "=", "a=b", ":"}, c,
			`+ echo 'a b' '' 'it'\''s' '~' a~ '#a' b# = a=b :` + "\n"},
		{nil, []string{"echo", "x\ny", "a\x01b", "a\vb", "é", "a'b\x01"}, c,
			"+ echo 'x\ny' $'a\\001b' $'a\\vb' $'\\303\\251' 'a'\\''b\x01'\n"},
		{nil, []string{"echo", "é"}, u, "+ echo é\n"},
		{[]chain.Assign{{Name: "X", Value: "a b"}, {Name: "Y"}}, []string{"true"}, c, "+ X='a b'\n+ Y=\n+ true\n"},
		{[]chain.Assign{{Name: "Z", Value: "1"}}, nil, c, "+ Z=1\n"},
	} {
		if got := string(Trace(1, tt.assigns, tt.args, tt.env)); got != tt.want {
			t.Errorf("Trace(%v, %q) = %q, want %q", tt.assigns, tt.args, got, tt.want)
		}
	}
}
