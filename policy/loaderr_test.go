package policy

import (
	"strings"
	"testing"
)

// TestParseErrorsQuoteTheFile: a settings file that cannot be read is
// reported in the file's own terms: the entry as written and how to close
// it, the line and column of bad JSON, the field holding a wrong type.
func TestParseErrorsQuoteTheFile(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"unclosed rule", `{"permissions":{"allow":["Bash(git status"]}}`,
			`s.json: permissions.allow[0] "Bash(git status": Bash( is not closed: write Bash(git status)`},
		{"wrong type", "{\"permissions\":\n {\"deny\": [12]}}", `s.json: line 2, column 14: permissions.deny holds a JSON number where a string belongs`},
		{"syntax", "{\"permissions\":{\"allow\":[\"ls\",]}}", `s.json: line 1, column 31: invalid character ']'`},
		{"cut short", `{"permissions":{"allow":["ls"`, `s.json: the JSON ends before its last value is closed`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Parse([]byte(tc.data), "s.json")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}
