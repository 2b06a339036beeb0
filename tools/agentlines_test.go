package tools

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
)

// agentRefusals are the options of the agent corpus
// (chain/testdata/agentlines.txt) the built-in tools do not support, each
// with its tool. A change that supports one deletes it here; one that
// stops supporting an option the corpus uses fails the test.
var agentRefusals = []string{"grep option --help not supported", "xargs option --version not supported"}

// TestAgentLineOptions reads every segment of the agent corpus that names
// a built-in tool with the tool's option parser and counts those it
// accepts (go test ./tools -run TestAgentLineOptions -v prints them).
func TestAgentLineOptions(t *testing.T) {
	data, err := os.ReadFile("../chain/testdata/agentlines.txt")
	if err != nil {
		t.Fatal(err)
	}
	total, accepted := 0, 0
	var refused []string
	for block := range strings.SplitSeq(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n#---\n") {
		c, err := chain.ParseDialect(block, chain.POSIX)
		if err != nil {
			continue
		}
		for _, s := range c.Segments() {
			if len(s.Args) == 0 || s.ArgRuntime(0) {
				continue
			}
			tool, ok := Lookup(s.Args[0])
			if !ok {
				continue
			}
			total++
			var ue *UsageError
			if err := acceptArgs(tool, s.Args); errors.As(err, &ue) {
				refused = append(refused, s.Args[0]+" "+err.Error())
				t.Logf("refused: %q: %v", s.Text, err)
				continue
			}
			accepted++
		}
	}
	t.Logf("%d of %d agent segments naming a built-in tool are accepted", accepted, total)
	slices.Sort(refused)
	refused = slices.Compact(refused)
	if !slices.Equal(refused, agentRefusals) {
		t.Errorf("refused options %q, want %q", refused, agentRefusals)
	}
}

// acceptArgs reads argv as the tool would, without running it; a
// *UsageError is an option it does not support.
func acceptArgs(t *Tool, argv []string) error {
	_, operands, err := parse(&t.Spec, argv[1:])
	if err != nil || t.Name != "find" {
		return err
	}
	_, expr := splitStarts(operands)
	k := &task{Call: Call{Dir: os.TempDir()}, name: "find"}
	_, err = (&findParser{f: &finder{task: k, maxDepth: -1}, args: expr}).parse()
	return err
}
