package chain

import (
	"slices"
	"testing"
)

// TestCommandMarking: which segments run an engine built-in, and which
// words command NAME runs.
func TestCommandMarking(t *testing.T) {
	for _, tt := range []struct {
		src     string
		d       Dialect
		builtin Builtin
		runs    []string
	}{
		{"command -v ls", POSIX, BuiltinCommand, nil},
		{"command -Vv ls", POSIX, BuiltinCommand, nil},
		{"command", POSIX, BuiltinCommand, nil},
		{"command ls -l", POSIX, "", []string{"ls", "-l"}},
		{"command -- echo hi", POSIX, "", []string{"echo", "hi"}},
		{"COMMAND -v ls", Windows, "", nil},
		{"type ls", POSIX, BuiltinType, nil},
		{"type a.txt", Windows, "", nil},
		{"set -e", Windows, BuiltinSet, nil},
		{"read -r a", POSIX, BuiltinRead, nil},
	} {
		c, err := ParseDialect(tt.src, tt.d)
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		seg := c.Pipelines[0].Segments[0]
		if seg.Builtin != tt.builtin || !slices.Equal(CommandWords(seg.Args), tt.runs) {
			t.Errorf("%s (%s): builtin %q, runs %q; want %q, %q", tt.src, tt.d, seg.Builtin, CommandWords(seg.Args), tt.builtin, tt.runs)
		}
	}
}
