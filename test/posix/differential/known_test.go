//go:build unix

package differential

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
)

// knownBug is a difference from bash that these suites found in chainrun
// and that is not fixed yet. A mismatching case that shows a known bug is
// listed under the bug's ID instead of failing the test; every other
// mismatch fails it. Delete the entry when the bug is fixed: its cases then
// count as ordinary ones again.
type knownBug struct {
	ID string
	// Summary gives a minimal input, what bash does and what chainrun does.
	Summary string
	// Trait: a generated chain with this trait (see parsegen.go) shows it.
	Trait string
	// Routing: bash and chainrun agree once the shells' own messages
	// (command not found, a failed redirect) are deleted wherever they
	// went; they differ only in where those messages were written.
	// (With Trait too, either suffices.)
	Routing bool
}

// knownBugs lists the open ones.
var knownBugs = []knownBug{
	{
		ID:      "message-routing",
		Routing: true,
		Trait:   traitMessagePiped,
		Summary: "the shell's own messages go to the chain's stderr, not to the segment's fd 2: bash writes " +
			"\"nosuchprog: command not found\" and a failed redirect's message to fd 2 as the redirects before it left it, " +
			"so \"nosuchprog 2>/dev/null\" prints nothing and \"nosuchprog 2>&1 | cat\" prints the message on stdout; " +
			"chainrun prints them on the chain's stderr",
	},
}

// strict reports whether DIFF_STRICT is set: every mismatch fails, known
// bug or not (to check a fix).
func strict() bool { return os.Getenv("DIFF_STRICT") != "" }

// matchKnown returns the known bug a mismatching case shows, or nil.
func matchKnown(traits map[string]bool, bash, crun *outcome) *knownBug {
	if strict() {
		return nil
	}
	for i := range knownBugs {
		kb := &knownBugs[i]
		if kb.Trait != "" && traits[kb.Trait] {
			return kb
		}
		if kb.Routing && bash != nil && crun != nil && bash.Quiet != nil && crun.Quiet != nil &&
			diffOutcomes("bash", bash.Quiet, "chainrun", crun.Quiet, stderrText) == "" {
			return kb
		}
	}
	return nil
}

// knownBugByID returns the open known bug id, or nil.
func knownBugByID(id string) *knownBug {
	if strict() {
		return nil
	}
	for i := range knownBugs {
		if knownBugs[i].ID == id {
			return &knownBugs[i]
		}
	}
	return nil
}

// knownCases collects the cases that showed known bugs.
type knownCases struct {
	mu    sync.Mutex
	cases map[string][]string
}

func (k *knownCases) add(kb *knownBug, report string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.cases == nil {
		k.cases = map[string][]string{}
	}
	k.cases[kb.ID] = append(k.cases[kb.ID], report)
}

func (k *knownCases) count() int {
	n := 0
	for _, c := range k.cases {
		n += len(c)
	}
	return n
}

// summary is the one-line count, "" when no case showed a known bug.
func (k *knownCases) summary() string {
	if len(k.cases) == 0 {
		return ""
	}
	var parts []string
	for _, id := range slices.Sorted(mapsKeys(k.cases)) {
		parts = append(parts, fmt.Sprintf("%s: %d", id, len(k.cases[id])))
	}
	return fmt.Sprintf("; %d showed known bugs (%s)", k.count(), strings.Join(parts, ", "))
}

// log prints every known bug seen, with its first case in full.
func (k *knownCases) log(t *testing.T) {
	t.Helper()
	for _, id := range slices.Sorted(mapsKeys(k.cases)) {
		kb := knownBugByID(id)
		t.Logf("KNOWN BUG %s (%d cases, not counted as failures until fixed): %s\nfirst case:\n%s",
			id, len(k.cases[id]), kb.Summary, k.cases[id][0])
	}
}

func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
