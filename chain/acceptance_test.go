package chain_test

import (
	"cmp"
	"errors"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/chainrun/chainrun/chain"
)

// agentCorpus is a hand-written sample of the command lines coding agents
// send to their bash tools (see its header). It measures how much of what
// agents write chainrun accepts, which unit tables of single constructs
// cannot tell.
const agentCorpus = "testdata/agentlines.txt"

// readAgentCorpus splits the corpus into entries: the text between lines
// holding only "#---", so that an entry can span lines (heredocs), less
// the comment lines ("# …") that open a block. Comment lines are only
// dropped before an entry's first line, so a heredoc body may hold "# ".
// CRLF is read as LF, for checkouts that convert line endings.
func readAgentCorpus(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(agentCorpus)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	var entries []string
	for block := range strings.SplitSeq(text, "\n#---\n") {
		lines := strings.Split(block, "\n")
		for len(lines) > 0 && (lines[0] == "#" || strings.HasPrefix(lines[0], "# ")) {
			lines = lines[1:]
		}
		if e := strings.Trim(strings.Join(lines, "\n"), "\n"); e != "" {
			entries = append(entries, e)
		}
	}
	if len(entries) == 0 {
		t.Fatalf("%s holds no entries", agentCorpus)
	}
	return entries
}

// TestAgentAcceptance logs the share of the corpus chainrun accepts and
// what it refuses, most frequent construct first, so that work on the
// parser can be aimed and its effect seen (go test -run
// TestAgentAcceptance -v). The rate is only enforced when
// CHAINRUN_ACCEPTANCE_MIN names a floor in percent, so a CI job can hold
// the gain once made while work in progress does not fail.
func TestAgentAcceptance(t *testing.T) {
	type refusal struct {
		construct string
		kind      chain.ErrorKind
		count     int
		first     string
	}
	entries := readAgentCorpus(t)
	byConstruct := map[string]*refusal{}
	accepted := 0
	for _, e := range entries {
		_, err := chain.ParseDialect(e, chain.POSIX)
		if err == nil {
			accepted++
			continue
		}
		var pe *chain.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%q: %v is not a *ParseError", e, err)
			continue
		}
		r := byConstruct[pe.Construct]
		if r == nil {
			r = &refusal{construct: pe.Construct, kind: pe.Kind, first: e}
			byConstruct[pe.Construct] = r
		}
		r.count++
	}
	rate := 100 * float64(accepted) / float64(len(entries))
	t.Logf("accepted %d of %d entries (%.1f%%)", accepted, len(entries), rate)
	refusals := slices.Collect(maps.Values(byConstruct))
	slices.SortFunc(refusals, func(a, b *refusal) int {
		return cmp.Or(cmp.Compare(b.count, a.count), cmp.Compare(a.construct, b.construct))
	})
	for _, r := range refusals {
		t.Logf("%5d  %-26s %-11s e.g. %s", r.count, r.construct, r.kind, abbreviate(r.first, 72))
	}
	if s := os.Getenv("CHAINRUN_ACCEPTANCE_MIN"); s != "" {
		floor, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
		if err != nil {
			t.Fatalf("CHAINRUN_ACCEPTANCE_MIN=%q is not a percentage", s)
		}
		if rate < floor {
			t.Errorf("acceptance %.1f%% is below CHAINRUN_ACCEPTANCE_MIN=%s", rate, s)
		}
	}
}

// abbreviate quotes s, cut to about n bytes at a rune boundary, for one
// log line per construct even when the example is a heredoc.
func abbreviate(s string, n int) string {
	if len(s) <= n {
		return strconv.Quote(s)
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strconv.Quote(s[:n]) + "…"
}

// TestAgentRefusalsStay pins lines agents write that chainrun refuses by
// design, with the construct it names, so that the expansion work (which
// makes the corpus's $VAR, globs and heredoc variables acceptable) cannot
// let these through by accident.
func TestAgentRefusalsStay(t *testing.T) {
	tests := []struct{ in, construct string }{
		{"cat <<EOF | tee run.log\nstarted at ${START:-$(date)}\nEOF", "command substitution"},
		{"echo ${VERSION:-$(git describe)}", "command substitution"},
		{"kill $(lsof -t -i:3000 &)", "background"},
		{"npm install && npm run dev &", "background"},
		{`[[ -f .env ]] && echo "has env"`, "control flow"},
		{`greet() { echo "hi $1"; }; greet world`, "control flow"},
		{"source venv/bin/activate && pytest", "shell built-in"},
		{". venv/bin/activate && python manage.py test", "shell built-in"},
		{"declare -a arr=(a b c)", "shell built-in"},
	}
	for _, tt := range tests {
		_, err := chain.ParseDialect(tt.in, chain.POSIX)
		var pe *chain.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%q: got %v, want a refusal of %s", tt.in, err, tt.construct)
			continue
		}
		if pe.Construct != tt.construct {
			t.Errorf("%q: refused as %q (%s), want %q", tt.in, pe.Construct, pe.Message, tt.construct)
		}
	}
}
