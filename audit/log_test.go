package audit

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/internal/testprog"
)

func readLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 4<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("not a JSON line: %q: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

func TestAuditLogRecord(t *testing.T) {
	dir := testprog.TempDir(t)
	path := filepath.Join(dir, "audit.log")
	l := NewLog(Config{Path: path})
	c, err := chain.ParseDialect("git log -1 | head -1", chain.POSIX)
	if err != nil {
		t.Fatal(err)
	}
	// The decision a policy allowing "git log:*" makes of the chain.
	d := &chain.Decision{Verdict: chain.Ask, Segments: []chain.SegmentDecision{
		{Segment: 0, Verdict: chain.Allow, Rule: "git log:*", Reasons: []string{`allowed by rule "git log:*"`}},
		{Segment: 1, Verdict: chain.Ask, Reasons: []string{"no rule matches"}},
	}}
	res := &engine.Result{ExitCode: 0, Duration: 1500 * time.Microsecond, Segments: []engine.SegmentResult{
		{Index: 0, Args: []string{"git", "log", "-1"}, ExitCode: 0, Duration: time.Millisecond},
		{Index: 1, Args: []string{"head", "-1"}, ExitCode: 141, Signal: 13, Duration: 2 * time.Millisecond},
	}}
	l.Audit(&engine.AuditRecord{Command: c.Source, Dir: dir, Decision: d, Result: res})
	l.Audit(&engine.AuditRecord{Command: "curl x", Dir: dir, Err: &chain.DeniedError{}})
	l.Audit(&engine.AuditRecord{Command: "ls", Dir: dir, Err: errors.New("boom")})
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	lines := readLines(t, path)
	if len(lines) != 3 {
		t.Fatalf("%d lines", len(lines))
	}
	first := lines[0]
	for _, k := range []string{"time", "dir", "command", "decision", "reasons", "segments", "duration_ms", "exit_code"} {
		if _, ok := first[k]; !ok {
			t.Errorf("missing %q in %v", k, first)
		}
	}
	if first["command"] != "git log -1 | head -1" || first["decision"] != "ask" || first["duration_ms"] != 1.5 {
		t.Errorf("first line %v", first)
	}
	segs := first["segments"].([]any)
	s1 := segs[1].(map[string]any)
	if s1["exit_code"] != 141.0 || s1["signal"] != 13.0 || s1["duration_ms"] != 2.0 {
		t.Errorf("segment 1 %v", s1)
	}
	reasons := first["reasons"].([]any)
	if r0 := reasons[0].(map[string]any); r0["verdict"] != "allow" || r0["rule"] != "git log:*" {
		t.Errorf("reasons %v", reasons)
	}
	if lines[1]["error_kind"] != "denied" || lines[1]["decision"] != "none" {
		t.Errorf("second line %v", lines[1])
	}
	if lines[2]["error"] != "boom" {
		t.Errorf("third line %v", lines[2])
	}
}

// TestAuditLogLine pins one whole line (but its time) byte for byte: the
// log's keys, their order and the reasons' shape, which it shares with
// the report package.
func TestAuditLogLine(t *testing.T) {
	path := filepath.Join(testprog.TempDir(t), "audit.log")
	l := NewLog(Config{Path: path})
	d := &chain.Decision{Verdict: chain.Ask, Segments: []chain.SegmentDecision{
		{Segment: 0, Verdict: chain.Allow, Rule: "cd:*", Reasons: []string{"cd stays inside the roots"}},
		{Segment: 1, Verdict: chain.Allow, Reasons: []string{"read-only"}},
	}, Chain: []string{"cd combined with git"}, Suggestions: []string{"git status"}}
	res := &engine.Result{ExitCode: 124, TimedOut: true, Duration: 100*time.Millisecond + 1500*time.Microsecond,
		Segments: []engine.SegmentResult{
			{Index: 0, Args: []string{"cd", "sub"}, Duration: 3 * time.Microsecond},
			{Index: 1, Args: []string{"git", "status"}, ExitCode: 143, Signal: 15, Duration: 100 * time.Millisecond},
			{Index: 2, Args: []string{"nosuch"}, ExitCode: 127, Skipped: true, Error: `segment 3 "nosuch": not found in PATH`},
		}}
	l.Audit(&engine.AuditRecord{Command: "cd sub && git status; nosuch <x>&", Dir: "/w", Decision: d, Result: res,
		Err: fmt.Errorf("%w after 100ms", chain.ErrTimeout)})
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := regexp.MustCompile(`^\{"time":"[^"]+",`).ReplaceAllString(string(b), "{")
	want := `{"level":"INFO","msg":"chain","dir":"/w","command":"cd sub && git status; nosuch <x>&","decision":"ask",` +
		`"reasons":[{"segment":0,"verdict":"allow","rule":"cd:*","reasons":["cd stays inside the roots"]},` +
		`{"segment":1,"verdict":"allow","reasons":["read-only"]}],"chain_reasons":["cd combined with git"],` +
		`"suggestions":["git status"],"exit_code":124,"segments":[{"index":0,"argv":["cd","sub"],"exit_code":0,"duration_ms":0.003},` +
		`{"index":1,"argv":["git","status"],"exit_code":143,"signal":15,"duration_ms":100},` +
		`{"index":2,"argv":["nosuch"],"exit_code":127,"skipped":true,"duration_ms":0,"error":"segment 3 \"nosuch\": not found in PATH"}],` +
		`"duration_ms":101.5,"timed_out":true,"error":"timed out after 100ms","error_kind":"timeout"}` + "\n"
	if got != want {
		t.Errorf("audit line:\n%s\nwant:\n%s", got, want)
	}
}

func TestAuditLogRotates(t *testing.T) {
	dir := testprog.TempDir(t)
	path := filepath.Join(dir, "audit.log")
	l := NewLog(Config{Path: path, MaxSizeMB: 1, MaxBackups: 2})
	big := strings.Repeat("x", 100<<10)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				l.Audit(&engine.AuditRecord{Command: "echo " + big, Dir: dir})
			}
		}()
	}
	wg.Wait()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	// lumberjack removes old backups in a goroutine after rotation.
	var backups []string
	for i := 0; i < 100; i++ {
		backups, _ = filepath.Glob(filepath.Join(dir, "audit-*.log"))
		if len(backups) <= 2 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(backups) == 0 || len(backups) > 2 {
		t.Fatalf("backups %q, want 1 or 2", backups)
	}
	total := 0
	for _, f := range append(backups, path) {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() > 1<<20 {
			t.Errorf("%s is %d bytes, over 1 MB", f, fi.Size())
		}
		total += len(readLines(t, f))
	}
	if total < 10 {
		t.Errorf("only %d records kept", total)
	}
}

func TestAuditLogNil(t *testing.T) {
	var l *Log
	l.Audit(&engine.AuditRecord{})
	NewLog(Config{Path: filepath.Join(testprog.TempDir(t), "a.log")}).Audit(nil)
}
