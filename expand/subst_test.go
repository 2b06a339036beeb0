package expand

import (
	"errors"
	"slices"
	"testing"

	"github.com/chainrun/chainrun/chain"
)

// TestPlanSubst: a plan runs no substitution. The words that hold one
// are known only at run time, except the output of cat reading a heredoc
// body written out, which is that body; inner chains are planned in the
// state their segment starts in.
func TestPlanSubst(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want []string
	}{
		{"echo $(date) x", []string{"echo", u("$(date)"), "x"}},
		{"echo a`date`", []string{"echo", u("a`date`")}},
		{"git commit -m \"$(cat <<'EOF'\nFix it\n\nbody\n\nEOF\n)\"", []string{"git", "commit", "-m", "Fix it\n\nbody"}},
		{"echo $(cat <<'EOF'\na  b\nEOF\n)", []string{"echo", "a", "b"}},
		{"echo \"$(cat <<EOF\n$X\nEOF\n)\"", []string{"echo", u("\"$(cat <<EOF\n$X\nEOF\n)\"")}},
		{"echo \"$(cat f <<'EOF'\nx\nEOF\n)\"", []string{"echo", u("\"$(cat f <<'EOF'\nx\nEOF\n)\"")}},
		{"echo \"$(cat <<'EOF' | tr a b\nx\nEOF\n)\"", []string{"echo", u("\"$(cat <<'EOF' | tr a b\nx\nEOF\n)\"")}},
	} {
		segs := planSegments(t, fixture(t), tt.src)
		if got := typedArgs(segs[0]); !slices.Equal(got, tt.want) {
			t.Errorf("%q: %q, want %q", tt.src, got, tt.want)
		}
	}
	segs := planSegments(t, fixture(t), "cd sub && echo $(ls $PWD)")
	inner := segs[1].Substs[0].Chain.Segments()[0]
	if got := typedArgs(inner); len(got) != 2 || got[1] == u("$PWD") || inner.Dir == "" {
		t.Errorf("inner chain planned as %q in %q, want $PWD known in sub", got, inner.Dir)
	}
}

// TestSubstNoRunner: expanding a substitution for real without a
// Substituter is a typed refusal, never an empty word.
func TestSubstNoRunner(t *testing.T) {
	c, err := chain.ParseDialect("echo $(date)", chain.POSIX)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Segment(c.Segments()[0], fixture(t))
	var ee *Error
	if !errors.As(err, &ee) || ee.Kind != chain.KindUnsupported {
		t.Fatalf("err %v, want an unsupported *Error", err)
	}
}
