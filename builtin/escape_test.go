package builtin

import "testing"

// TestEscapeTable is appendEscapes against bash 5's table for each place
// escapes are read (escapeMode's doc); TestLikeBash compares the same
// escapes with the machine's bash.
func TestEscapeTable(t *testing.T) {
	for _, tt := range []struct {
		in              string
		echo, fmt, barg string
	}{
		{`\?`, `\?`, `?`, `\?`},
		{`\"`, `\"`, `"`, `\"`},
		{`\'`, `\'`, `'`, `\'`},
		{`\101`, `\101`, "A", "A"},
		{`\0101`, "A", "\b1", "A"},
		{`\18`, `\18`, "\x018", "\x018"},
		{`\q`, `\q`, `\q`, `\q`},
		{`a\cb`, "a", `a\cb`, "a"},
		{`\x41\x`, `A\x`, `A\x`, `A\x`},
		{`\e\t\\`, "\x1b\t\\", "\x1b\t\\", "\x1b\t\\"},
		{`end\`, `end\`, `end\`, `end\`},
	} {
		for _, m := range []struct {
			mode escapeMode
			want string
		}{{inEcho, tt.echo}, {inFormat, tt.fmt}, {inArgument, tt.barg}} {
			got, _ := appendEscapes(nil, tt.in, m.mode, false, nil)
			if string(got) != m.want {
				t.Errorf("%q in mode %d = %q, want %q", tt.in, m.mode, got, m.want)
			}
		}
	}
}
