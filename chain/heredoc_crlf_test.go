package chain

import (
	"testing"
)

// TestHeredocCRLF: a heredoc body keeps CRLF lines as written (a .bat file
// written with cat > f <<'EOF'); a CR anywhere else is refused at its
// offset, as is one in a body whose delimiter is unquoted (the expansion
// would drop it).
func TestHeredocCRLF(t *testing.T) {
	for _, tt := range []struct {
		name, src, body string
		refusedAt       int
		msg             string
	}{
		{"quoted body keeps CRLF", "cat > w.bat <<'EOF'\n@echo off\r\necho hi\r\n\r\nEOF\n", "@echo off\r\necho hi\r\n\r\n", -1, ""},
		{"<<- keeps CR after stripping tabs", "cat <<-'EOF'\n\ta\r\n\tEOF", "a\r\n", -1, ""},
		{"CR in a word", "echo a\r\nb", "", 6, "outside a heredoc body"},
		{"CRLF operator line", "cat <<'EOF'\r\nx\r\nEOF\r\n", "", 11, "outside a heredoc body"},
		{"unquoted delimiter", "cat <<EOF\nv=$X\r\nEOF\n", "", 14, "quote the delimiter (<<'EOF')"},
	} {
		for _, d := range []Dialect{POSIX, Windows} {
			t.Run(tt.name+"/"+string(d), func(t *testing.T) {
				if tt.refusedAt >= 0 {
					checkRefusal(t, tt.src, d, "control character", tt.refusedAt, tt.msg)
					return
				}
				c, err := ParseDialect(tt.src, d)
				if err != nil {
					t.Fatal(err)
				}
				if got := c.Pipelines[0].Segments[0].Redirects[len(c.Pipelines[0].Segments[0].Redirects)-1].Body; got != tt.body {
					t.Errorf("body %q, want %q", got, tt.body)
				}
			})
		}
	}
}
