package docs

import (
	"strings"
	"testing"
)

// maxReadme is the README's length in lines: install, the two commands,
// the CLI, the library, the MCP quick start and links. Everything longer
// belongs in a page of this directory.
const maxReadme = 300

// TestReadme: the README opens with the two commands a newcomer runs and
// stays short enough to read through.
func TestReadme(t *testing.T) {
	readme := readFile(t, "../README.md")
	want := "# chainrun\n\n```sh\n" +
		"go run ./cmd/chainrun 'seq 10 | grep 5'   # run a chain, no shell involved\n" +
		"go test ./...                             # run the tests\n```\n"
	if !strings.HasPrefix(readme, want) {
		t.Errorf("README.md must open with the two newcomer commands:\n%s", want)
	}
	if n := strings.Count(readme, "\n"); n > maxReadme {
		t.Errorf("README.md has %d lines, more than %d: move detail into docs/ and link it", n, maxReadme)
	}
	// The install lines (the CLI's, then the MCP server's), then the two
	// commands a new user runs, in the first screen.
	first := strings.Join(strings.SplitN(readme, "\n", 16)[:15], "\n")
	for _, s := range []string{"go install github.com/chainrun/chainrun/cmd/chainrun@latest ",
		"go install github.com/chainrun/chainrun/cmd/chainrun-mcp@latest ", "chainrun 'seq 10 | grep 5'\n", "chainrun mcp "} {
		if !strings.Contains(first, s) {
			t.Errorf("README.md's first screen lacks %q", s)
		}
	}
	for _, s := range []string{"go install github.com/chainrun/chainrun/cmd/chainrun@latest", "## CLI", "## Library",
		"## MCP quick start"} {
		if !strings.Contains(readme, s) {
			t.Errorf("README.md lacks %q", s)
		}
	}
}
