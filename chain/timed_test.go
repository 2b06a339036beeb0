package chain

import (
	"reflect"
	"testing"
)

// TestParseTimed: the time keyword before a pipeline marks it timed and
// is no segment; after a | it is the time program's name.
func TestParseTimed(t *testing.T) {
	tests := []struct {
		in     string
		argv   [][]string
		timed  []bool // per pipeline
		posix  []bool
		starts []int // each pipeline's span start
	}{
		{"time go test ./...", [][]string{{"go", "test", "./..."}}, []bool{true}, []bool{false}, []int{0}},
		{"time -p ls", [][]string{{"ls"}}, []bool{true}, []bool{true}, []int{0}},
		{"time a | b && c", [][]string{{"a"}, {"b"}, {"c"}}, []bool{true, false}, []bool{false, false}, []int{0, 14}},
		{"a; time -p b 2>/dev/null", [][]string{{"a"}, {"b"}}, []bool{false, true}, []bool{false, true}, []int{0, 3}},
		{"time echo hi", [][]string{{"echo", "hi"}}, []bool{true}, []bool{false}, []int{0}},
		{"echo x | time cat", [][]string{{"echo", "x"}, {"time", "cat"}}, []bool{false}, []bool{false}, []int{0}},
		{"echo x | time -p wc -l", [][]string{{"echo", "x"}, {"time", "-p", "wc", "-l"}}, []bool{false}, []bool{false}, []int{0}},
		{"echo time", [][]string{{"echo", "time"}}, []bool{false}, []bool{false}, []int{0}},
	}
	for _, tt := range tests {
		c, err := ParseDialect(tt.in, POSIX)
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if got := argvs(c); !reflect.DeepEqual(got, tt.argv) {
			t.Errorf("%q: argv %q, want %q", tt.in, got, tt.argv)
		}
		for i, p := range c.Pipelines {
			if p.Timed != tt.timed[i] || p.TimePOSIX != tt.posix[i] || p.Span.Start != tt.starts[i] {
				t.Errorf("%q pipeline %d: timed %v posix %v start %d, want %v %v %d", tt.in, i,
					p.Timed, p.TimePOSIX, p.Span.Start, tt.timed[i], tt.posix[i], tt.starts[i])
			}
		}
	}
}

// TestTimeProgramSegment: time after a | is a program segment whose words
// and text begin at the keyword, not a built-in even before echo.
func TestTimeProgramSegment(t *testing.T) {
	c, err := ParseDialect("a | time -p echo x", POSIX)
	if err != nil {
		t.Fatal(err)
	}
	s := c.Segments()[1]
	if s.Text != "time -p echo x" || s.IsBuiltin() || len(s.Words) != 4 || s.Words[1].Span != (Span{9, 11}) {
		t.Errorf("segment %q builtin %q words %+v", s.Text, s.Builtin, s.Words)
	}
}
