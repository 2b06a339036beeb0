package policy

import (
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/tools"
)

// TestToolsReadAsRecords checks that every option a built-in tool accepts
// reads the same way in the program's registry record: a value-taking
// option takes a value there, a flag does not. The policy judges a segment
// by its argv whichever implementation runs, so the operands it judges
// are then the ones the tool acts on.
func TestToolsReadAsRecords(t *testing.T) {
	for _, name := range tools.Names() {
		tool, _ := tools.Lookup(name)
		p := lookup(name)
		var spec optSpec
		if p != nil {
			spec = p.opts
		}
		s := tool.Spec
		if s.Raw {
			continue // find: its expression is judged by the record's own reading (findFiles, findExec)
		}
		for _, c := range s.Flags {
			if strings.ContainsRune(spec.shortVal, c) {
				t.Errorf("%s -%c: a flag for the tool, value-taking in the record", name, c)
			}
		}
		for _, c := range s.Values {
			if !strings.ContainsRune(spec.shortVal, c) {
				t.Errorf("%s -%c: value-taking for the tool, not in the record's shortVal", name, c)
			}
		}
		for long := range s.LongFlags {
			if slices.Contains(spec.longVal, long) {
				t.Errorf("%s --%s: a flag for the tool, value-taking in the record", name, long)
			}
		}
		for long := range s.LongValues {
			if !slices.Contains(spec.longVal, long) {
				t.Errorf("%s --%s: value-taking for the tool, not in the record's longVal", name, long)
			}
		}
	}
}
