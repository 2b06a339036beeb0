package audit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/policy"
)

// TestRunWithPolicy runs chains through engine.Run with a policy.Policy and
// a Log: a denied chain touches no file, an ask needs the approver, and
// every chain is one audit line.
func TestRunWithPolicy(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(testprog.TempDir(t))
	deny, ok, err := policy.ParseRule("curl:*")
	if err != nil || !ok {
		t.Fatalf("rule: %v %v", ok, err)
	}
	// acceptEdits: the first chain's redirect is a write, which the
	// default mode asks about (issue 12).
	p := &policy.Policy{Deny: []policy.Rule{deny}, Home: testprog.TempDir(t), Mode: policy.ModeAcceptEdits}
	logPath := filepath.Join(testprog.TempDir(t), "audit.log")
	auditLog := NewLog(Config{Path: logPath})
	run := func(src string, approve bool) (*engine.Result, error) {
		c, err := chain.ParseDialect(src, chain.POSIX)
		if err != nil {
			t.Fatal(err)
		}
		return engine.Run(context.Background(), c, engine.Options{Dir: dir, Authorizer: p, Auditor: auditLog,
			Approver: chain.ApproverFunc(func(context.Context, *chain.Chain, *chain.Decision) (bool, error) {
				return approve, nil
			})})
	}
	if _, err := run("echo hi > out.txt", false); err != nil {
		t.Fatalf("allowed chain: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "out.txt")); err != nil || string(b) != "hi\n" {
		t.Fatalf("out.txt: %q %v", b, err)
	}
	_, err = run("echo hi > denied.txt && curl x", true)
	var de *chain.DeniedError
	if !errors.As(err, &de) || de.Rule != "curl:*" || de.Segment != 1 {
		t.Fatalf("denied chain: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "denied.txt")); !os.IsNotExist(err) {
		t.Fatalf("a denied chain touched a file: %v", err)
	}
	if _, err := run("echo x > asked.txt && make", false); !errors.Is(err, chain.ErrDenied) {
		t.Fatalf("ask without approval: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "asked.txt")); !os.IsNotExist(err) {
		t.Fatalf("an unapproved chain touched a file: %v", err)
	}
	if err := auditLog.Close(); err != nil {
		t.Fatal(err)
	}
	lines := readLines(t, logPath)
	if len(lines) != 3 || lines[0]["decision"] != "allow" || lines[1]["decision"] != "deny" || lines[2]["decision"] != "ask" {
		t.Fatalf("audit lines: %v", lines)
	}
	if lines[1]["error_kind"] != "denied" {
		t.Errorf("denied line: %v", lines[1])
	}
}

// TestRunAuditsRuntimeWordsAsWritten: a segment that never started keeps
// its planned words, and a word known only at run time ($? after a
// command) is logged as written, with no mark and its separators as
// they are: `false && echo out/$?` logs ["echo","out/$?"].
func TestRunAuditsRuntimeWordsAsWritten(t *testing.T) {
	logPath := filepath.Join(testprog.TempDir(t), "audit.log")
	auditLog := NewLog(Config{Path: logPath})
	c, err := chain.ParseDialect(`false && A=$? echo out/$? >"out/$?.log"`, chain.POSIX)
	if err != nil {
		t.Fatal(err)
	}
	res, err := engine.Run(context.Background(), c, engine.Options{Dir: testprog.TempDir(t), Auditor: auditLog})
	if err != nil {
		t.Fatal(err)
	}
	if err := auditLog.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `\u0000`) || strings.ContainsAny(string(b), "\x00\u2215\u2216") {
		t.Errorf("the audit line holds a mark or a look-alike separator: %s", b)
	}
	lines := readLines(t, logPath)
	segs := lines[0]["segments"].([]any)
	if got := fmt.Sprint(segs[1].(map[string]any)["argv"]); got != "[echo out/$?]" {
		t.Errorf("skipped segment's argv = %s, want [echo out/$?]", got)
	}
	skipped := res.Segments[1]
	if !skipped.Skipped || len(skipped.Redirects) != 1 || skipped.Redirects[0].Target != `"out/$?.log"` {
		t.Errorf("skipped segment %+v, want its redirect target as written", skipped)
	}
}
