package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
)

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		bad  bool
	}{
		{in: "0", want: 0},
		{in: "1048576", want: 1 << 20},
		{in: "512KiB", want: 512 << 10},
		{in: "1MiB", want: 1 << 20},
		{in: "1mib", want: 1 << 20},
		{in: "2GiB", want: 2 << 30},
		{in: "1MB", want: 1000000},
		{in: "64k", want: 64 << 10},
		{in: "1M", want: 1 << 20},
		{in: "100B", want: 100},
		{in: "3 KB", want: 3000},
		{in: "", bad: true},
		{in: "MiB", bad: true},
		{in: "-1", bad: true},
		{in: "1.5MiB", bad: true},
		{in: "1TiB", bad: true},
		{in: "99999999999999999999", bad: true},
		{in: "9223372036854775807G", bad: true},
	} {
		got, err := parseSize(tc.in)
		if tc.bad {
			if err == nil {
				t.Errorf("parseSize(%q) = %d, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

func TestParseDuration(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		bad  bool
	}{
		{in: "30s", want: 30 * time.Second},
		{in: "1m30s", want: 90 * time.Second},
		{in: "300ms", want: 300 * time.Millisecond},
		{in: "5", want: 5 * time.Second},
		{in: "0.25", want: 250 * time.Millisecond},
		{in: "0", want: 0},
		{in: "-1s", bad: true},
		{in: "-3", bad: true},
		{in: "soon", bad: true},
		{in: "NaN", bad: true},
		{in: "1e300", bad: true},
	} {
		got, err := parseDuration(tc.in)
		if tc.bad {
			if err == nil {
				t.Errorf("parseDuration(%q) = %v, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("parseDuration(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestChainEnv(t *testing.T) {
	if chainEnv(nil) != nil {
		t.Fatal("without --env the chain must inherit the environment (nil)")
	}
	t.Setenv("CHAINRUN_TEST_VAR", "old")
	env := chainEnv([]string{"CHAINRUN_TEST_VAR=new", "CHAINRUN_OTHER=a=b"})
	var got []string
	for _, kv := range env {
		if strings.HasPrefix(kv, "CHAINRUN_TEST_VAR=") || strings.HasPrefix(kv, "CHAINRUN_OTHER=") {
			got = append(got, kv) // other CHAINRUN_ variables (CI's) are not the test's
		}
	}
	want := []string{"CHAINRUN_TEST_VAR=new", "CHAINRUN_OTHER=a=b"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("chainEnv = %q, want %q", got, want)
	}
}

func TestParseArgs(t *testing.T) {
	var out, errb bytes.Buffer
	c := &cli{stdout: &out, stderr: &errb}
	cfg, _, ok := c.parseArgs([]string{
		"--json", "--dialect", "windows", "--timeout", "2s", "--grace=1s", "--max-output", "1MiB",
		"--env", "A=1", "--env", "B=2", "--policy", "a.json", "--policy", "b.json", "--yes",
		"--audit-log", "log.jsonl", "--audit-max-size", "5", "--", "--weird",
	})
	if !ok {
		t.Fatalf("parseArgs failed: %s", errb.String())
	}
	want := config{
		json: true, dialect: chain.Windows, timeout: 2 * time.Second, grace: time.Second,
		maxOut: 1 << 20, env: []string{"A=1", "B=2"}, policyFlags: policyFlags{policies: []string{"a.json", "b.json"}}, yes: true,
		audit: auditConfig{path: "log.jsonl", maxSizeMB: 5}, command: "--weird",
	}
	if cfg.json != want.json || cfg.dialect != want.dialect || cfg.timeout != want.timeout ||
		cfg.grace != want.grace || cfg.maxOut != want.maxOut || strings.Join(cfg.env, " ") != "A=1 B=2" ||
		strings.Join(cfg.policies, " ") != "a.json b.json" || !cfg.yes || cfg.audit != want.audit ||
		cfg.command != want.command {
		t.Fatalf("parseArgs = %+v, want %+v", *cfg, want)
	}

	cfg, _, ok = c.parseArgs([]string{"echo hi"})
	if !ok || cfg.dialect != chain.HostDialect() || cfg.grace != engine.DefaultGrace || cfg.timeout != 0 {
		t.Fatalf("defaults: %+v", cfg)
	}
	// A lone command line skips the flag set; it reads as the set reads it.
	viaFlags, _, ok := c.parseArgs([]string{"--", "echo hi"})
	if !ok || !reflect.DeepEqual(cfg, viaFlags) {
		t.Fatalf("a lone command line reads as %+v, through the flag set as %+v", cfg, viaFlags)
	}
}

// decision is an ask for the second segment of "show-argv a && git tag v1".
var askDecision = &chain.Decision{
	Verdict: chain.Ask,
	Segments: []chain.SegmentDecision{
		{Segment: 0, Text: "show-argv a", Verdict: chain.Allow, Rule: "show-argv:*"},
		{Segment: 1, Text: "git tag v1", Verdict: chain.Ask, Reasons: []string{"no rule matches"}},
	},
	Suggestions: []string{"Bash(git tag:*)"},
}

func askChain() *chain.Chain {
	return &chain.Chain{
		Source: "show-argv a && git tag v1",
		Pipelines: []*chain.Pipeline{
			{Segments: []*chain.Segment{{Index: 0, Args: []string{"show-argv", "a"}, Text: "show-argv a"}}},
			{Segments: []*chain.Segment{{Index: 1, Args: []string{"git", "tag", "v1"}, Text: "git tag v1"}}},
		},
		Ops: []chain.Op{chain.OpAnd},
	}
}

func TestApprover(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		yes     bool
		prompt  bool
		input   string
		want    bool
		prompts bool
	}{
		{name: "yes flag", yes: true, want: true},
		{name: "no terminal", input: "y\n", want: false},
		{name: "answer y", prompt: true, input: "y\nrest", want: true, prompts: true},
		{name: "answer YES", prompt: true, input: " YES \n", want: true, prompts: true},
		{name: "answer n", prompt: true, input: "n\n", want: false, prompts: true},
		{name: "empty answer", prompt: true, input: "\n", want: false, prompts: true},
		{name: "EOF", prompt: true, input: "", want: false, prompts: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := strings.NewReader(tc.input)
			var out bytes.Buffer
			a := &approver{yes: tc.yes, prompt: tc.prompt, in: in, out: &out}
			got, err := a.Approve(ctx, askChain(), askDecision)
			if err != nil || got != tc.want {
				t.Fatalf("Approve = %v, %v; want %v", got, err, tc.want)
			}
			if tc.prompts != strings.Contains(out.String(), "Run this chain? [y/N]") {
				t.Fatalf("prompt shown = %v, want %v; output:\n%s", !tc.prompts, tc.prompts, out.String())
			}
			if tc.prompts && !strings.Contains(out.String(), `segment 2 "git tag v1" asks: no rule matches`) {
				t.Fatalf("prompt does not say which segment asks and why:\n%s", out.String())
			}
			if tc.input == "y\nrest" && in.Len() != len("rest") {
				t.Fatalf("the prompt read past its line: %d bytes left", in.Len())
			}
		})
	}
}

func TestAskText(t *testing.T) {
	got := askText(askDecision)
	want := "chainrun: policy decision: ask\n" +
		"  segment 2 \"git tag v1\" asks: no rule matches\n" +
		"  to allow it, add to permissions.allow: \"Bash(git tag:*)\"\n"
	if got != want {
		t.Fatalf("askText:\n%s\nwant:\n%s", got, want)
	}
}

// TestWriteRunJSON: a chain that did not run prints the whole report on
// one line, with chainrun's exit status and the decision its denial
// carries.
func TestWriteRunJSON(t *testing.T) {
	var out bytes.Buffer
	c := &cli{stdout: &out}
	denied := &chain.DeniedError{Segment: 1, Text: "git tag v1", Reason: "not approved", Decision: askDecision}
	if err := c.writeRunJSON(nil, denied); err != nil {
		t.Fatal(err)
	}
	want := `{"exit_code":3,"timed_out":false,"stdout_omitted":0,"stderr_omitted":0,"stdout":"","stderr":"",` +
		`"duration_ms":0,"segments":[],"error":{"kind":"denied","message":"denied: segment 2 \"git tag v1\": not approved"},` +
		`"decision":"ask","reasons":[{"segment":0,"verdict":"allow","rule":"show-argv:*","reasons":null},` +
		`{"segment":1,"verdict":"ask","reasons":["no rule matches"]}],"chain_reasons":[],"suggestions":["Bash(git tag:*)"]}` + "\n"
	if got := out.String(); got != want {
		t.Errorf("run JSON:\n%s\nwant:\n%s", got, want)
	}
}

// TestUnapproved: only a denial whose decision asked is an unapproved ask;
// the CLI tells it from a deny verdict by the decision, not by the text.
func TestUnapproved(t *testing.T) {
	deny := &chain.Decision{Verdict: chain.Deny}
	for _, tc := range []struct {
		err  error
		want *chain.Decision
	}{
		{err: nil},
		{err: errors.New("boom")},
		{err: &chain.DeniedError{Segment: -1, Reason: "no decision"}},
		{err: &chain.DeniedError{Segment: 0, Decision: deny}},
		{err: fmt.Errorf("wrapped: %w", &chain.DeniedError{Segment: 1, Decision: askDecision}), want: askDecision},
	} {
		if got := unapproved(tc.err); got != tc.want {
			t.Errorf("unapproved(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
