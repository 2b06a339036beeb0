//go:build unix

package differential

import (
	"fmt"
	"os"
	"regexp"
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
	// Refusal: an expansion case chainrun refuses, with a refusal whose
	// "construct: message" this matches, shows it (a valid chain that
	// chainrun refuses without the refusal being by design).
	Refusal *regexp.Regexp
	// Departure marks a deliberate, documented difference rather than a
	// bug: it stays listed.
	Departure bool
}

// knownBugs lists the open bugs and the documented departures.
var knownBugs = []knownBug{
	{
		ID:        "message-prefix",
		Departure: true,
		Trait:     traitMessagePiped,
		Summary: "chainrun's own messages start \"chainrun: \" where bash's start \"bash: line 1: \" (or the path " +
			"of bash); both go to the segment's fd 2 as its redirects left it, so a message sent down a pipe reaches " +
			"the next stage in both, but a stage that reads its text sees different text: wc -c counts other bytes, " +
			"grep e matches bash's \"line\"",
	},
	{
		ID:        "home-unset",
		Departure: true,
		Trait:     traitHomeUnset,
		Summary: "unset HOME; echo ~: bash looks the user's home up in the password database (/root), " +
			"chainrun leaves ~ as written (it reads no password database)",
	},
	{
		ID:    "quoted-tilde-word",
		Trait: traitQuotedTildeWord,
		Summary: "echo \"${E:-~/x}\" (also ${X-~}, ${X:+~}, ${X+~}, in a heredoc body or in <<<\"…\"): bash " +
			"leaves the tilde in the word as written inside double quotes and prints ~/x; chainrun expands it " +
			"and prints $HOME/x (unquoted, both expand it); chainrun refuses both by design now, so this shows only if that refusal goes",
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

// matchKnownRefusal returns the known bug an expansion case's refusal
// shows, or nil.
func matchKnownRefusal(r *refusal) *knownBug {
	if strict() {
		return nil
	}
	for i := range knownBugs {
		if kb := &knownBugs[i]; kb.Refusal != nil && kb.Refusal.MatchString(r.String()) {
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
	return fmt.Sprintf("; %d showed known differences (%s)", k.count(), strings.Join(parts, ", "))
}

// log prints every known bug seen, with its first case in full.
func (k *knownCases) log(t *testing.T) {
	t.Helper()
	for _, id := range slices.Sorted(mapsKeys(k.cases)) {
		kb := knownBugByID(id)
		label := "KNOWN BUG %s (%d cases, not counted as failures until fixed): %s\nfirst case:\n%s"
		if kb.Departure {
			label = "DOCUMENTED DEPARTURE %s (%d cases, not counted as failures): %s\nfirst case:\n%s"
		}
		t.Logf(label, id, len(k.cases[id]), kb.Summary, k.cases[id][0])
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
