package cli

import (
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/report"
)

// TestRedirectText checks --explain's spelling of redirects: the forms it
// always had, unchanged, and heredocs and here-strings by size only.
func TestRedirectText(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"file and dup", "a 2>err.log 2>&1", []string{`2>"err.log"[2,11]`, `2>&1[12,16]`}},
		{"both", "a &>>all.log", []string{`&>>"all.log"[2,12]`}},
		{"implicit", "a |& b", []string{`2>&1(from |&)`}},
		{"heredoc", "cat <<'EOF' >f\nsecret\nEOF", []string{`0<<'EOF'(7 bytes)[4,11]`, `1>"f"[12,14]`}},
		{"heredoc tabs on fd 3", "c 3<<-X\n\tab\n\tX", []string{`3<<-X(3 bytes)[2,7]`}},
		{"here-string", "cat <<< 'a b'", []string{`0<<<(4 bytes)[4,13]`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := chain.ParseDialect(tt.src, chain.POSIX)
			if err != nil {
				t.Fatal(err)
			}
			p := report.NewPlan(c, nil)
			var got []string
			for _, r := range p.Segments[0].Redirects {
				got = append(got, redirectText(r))
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("redirect %d: %s, want %s", i, got[i], tt.want[i])
				}
			}
		})
	}
}
