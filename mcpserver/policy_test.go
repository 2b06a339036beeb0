package mcpserver

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/policy"
	"github.com/chainrun/chainrun/report"
)

// stubPolicy judges by marker words, so these tests do not depend on the
// policy package's rules: a segment with the argument DENY is denied, one
// with ASK is asked about, anything else is allowed.
type stubPolicy struct{}

func (stubPolicy) Authorize(_ context.Context, c *chain.Chain, _ string) (*chain.Decision, error) {
	d := &chain.Decision{Verdict: chain.Allow, Suggestions: []string{}}
	for _, s := range c.Segments() {
		v := chain.Allow
		switch {
		case slices.Contains(s.Args, "DENY"):
			v = chain.Deny
		case slices.Contains(s.Args, "ASK"):
			v = chain.Ask
			d.Suggestions = append(d.Suggestions, "Bash("+s.Args[0]+":*)")
		}
		d.Segments = append(d.Segments, chain.SegmentDecision{Segment: s.Index, Text: s.Text, Verdict: v, Reasons: []string{"marked " + string(v)}})
		d.Verdict = chain.Stricter(d.Verdict, v)
	}
	return d, nil
}

// auditLog keeps the records the server audits.
type auditLog struct {
	mu   sync.Mutex
	recs []*engine.AuditRecord
}

func (a *auditLog) Audit(r *engine.AuditRecord) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.recs = append(a.recs, r)
}

func (a *auditLog) commands() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []string
	for _, r := range a.recs {
		out = append(out, r.Command)
	}
	return out
}

// elicitor answers elicitation requests as a test case says and counts
// them; block waits for the request's end (a user who never answers).
type elicitor struct {
	action  string
	approve bool
	err     error
	block   bool
	asked   atomic.Int32
	message atomic.Value
}

func (e *elicitor) handle(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	e.asked.Add(1)
	e.message.Store(req.Params.Message)
	if e.block {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	if e.err != nil {
		return nil, e.err
	}
	return &mcp.ElicitResult{Action: e.action, Content: map[string]any{"approve": e.approve}}, nil
}

// TestApproval: deny wins and touches nothing; an ask is put to the
// user through elicitation, in both protocol generations, and anything
// but an accept with approve true leaves the chain unrun; a client that
// cannot ask is told at once.
func TestApproval(t *testing.T) {
	for _, version := range []string{"2025-11-25", ""} {
		name := version
		if name == "" {
			name = "latest"
		}
		t.Run(name, func(t *testing.T) { testApproval(t, version) })
	}
}

func testApproval(t *testing.T, version string) {
	for _, tc := range []struct {
		name    string
		cmd     string
		el      *elicitor // nil: the client declares no elicitation
		legacy  bool      // only where the server asks in the middle of the call
		ran     bool
		asked   int32
		isError bool
		text    []string
	}{
		{"allowed runs", "echo ok > f", &elicitor{}, false, true, 0, false, nil},
		{"denied touches nothing", "echo DENY > f", &elicitor{}, false, false, 0, true, []string{"denied", "exit 3", `segment 1 "echo DENY > f" is denied: marked deny`}},
		{"deny wins over ask, without asking", "echo ASK > f && echo DENY", &elicitor{action: "accept", approve: true}, false, false, 0, true, []string{"denied"}},
		{"no elicitation: refused at once", "echo ASK > f", nil, false, false, 0, true, []string{"not approved (exit 3)", "cannot ask",
			`segment 1 "echo ASK > f" asks: marked ask`, `to allow it, add to permissions.allow: "Bash(echo:*)"`}},
		{"accept with approve runs", "echo ASK > f", &elicitor{action: "accept", approve: true}, false, true, 1, false, nil},
		{"accept without approve", "echo ASK > f", &elicitor{action: "accept", approve: false}, false, false, 1, true, []string{"did not approve"}},
		{"decline", "echo ASK > f", &elicitor{action: "decline"}, false, false, 1, true, []string{"declined"}},
		{"cancel", "echo ASK > f", &elicitor{action: "cancel"}, false, false, 1, true, []string{"dismissed"}},
		{"error", "echo ASK > f", &elicitor{err: errors.New("no UI")}, true, false, 1, true, []string{"asking the user failed"}},
		{"no answer within the timeout", "echo ASK > f", &elicitor{block: true}, true, false, 1, true, []string{"no answer within 300ms"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.legacy && version == "" {
				t.Skip("2026-07-28 clients answer input requests on a retried call; the binding is TestApprovalRetry's")
			}
			dir := testprog.TempDir(t)
			audit := &auditLog{}
			var opts *mcp.ClientOptions
			if tc.el != nil {
				opts = &mcp.ClientOptions{ElicitationHandler: tc.el.handle}
			}
			c := connect(t, Config{Dir: dir, Authorizer: stubPolicy{}, Auditor: audit, ApprovalTimeout: 300 * time.Millisecond}, opts, version)
			var out RunResult
			res := c.call("run", map[string]any{"command": tc.cmd}, &out)
			_, err := os.Stat(filepath.Join(dir, "f"))
			if ran := err == nil; ran != tc.ran {
				t.Errorf("ran %v, want %v\n%s", ran, tc.ran, text(res))
			}
			if res.IsError != tc.isError {
				t.Errorf("isError %v, want %v\n%s", res.IsError, tc.isError, text(res))
			}
			if tc.el != nil && tc.el.asked.Load() != tc.asked {
				t.Errorf("asked %d times, want %d", tc.el.asked.Load(), tc.asked)
			}
			if tc.asked > 0 {
				msg, _ := tc.el.message.Load().(string)
				for _, w := range []string{tc.cmd, "marked ask", "Bash(echo:*)", dir} {
					if !strings.Contains(msg, w) {
						t.Errorf("the question lacks %q:\n%s", w, msg)
					}
				}
			}
			for _, w := range tc.text {
				if !strings.Contains(text(res), w) {
					t.Errorf("text lacks %q:\n%s", w, text(res))
				}
			}
			if out.Decision == nil {
				t.Errorf("no decision in the result: %+v", out)
			}
			if cmds := audit.commands(); len(cmds) == 0 || cmds[len(cmds)-1] != tc.cmd {
				t.Errorf("audited %q, want %q last", cmds, tc.cmd)
			}
		})
	}
}

// TestApprovalRetry: with a 2026-07-28 client the question comes back as
// an input request, and the retried call's answer counts only once, only
// before it expires, and only for the same command, directory and
// arguments: a client cannot swap the command after approval.
func TestApprovalRetry(t *testing.T) {
	yes := mcp.InputResponseMap{approvalKey: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
	for _, tc := range []struct {
		name   string
		retry  map[string]any // arguments of the retried call
		replay bool           // retry a second time with the same state
		wait   time.Duration  // before retrying
		ran    string         // the file the retry created, "" for none
		text   string
	}{
		{"same call runs", map[string]any{"command": "echo ASK > f"}, false, 0, "f", ""},
		{"swapped command", map[string]any{"command": "echo ASK > g"}, false, 0, "", "different command"},
		{"swapped arguments", map[string]any{"command": "echo ASK > f", "env": map[string]any{"X": "1"}}, false, 0, "", "different command"},
		{"used twice", map[string]any{"command": "echo ASK > f"}, true, 0, "f", "already used"},
		{"expired", map[string]any{"command": "echo ASK > f"}, false, 400 * time.Millisecond, "", "expired"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := testprog.TempDir(t)
			el := &elicitor{action: "accept", approve: true}
			opts := &mcp.ClientOptions{ElicitationHandler: el.handle, MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}}
			c := connect(t, Config{Dir: dir, Authorizer: stubPolicy{}, ApprovalTimeout: 200 * time.Millisecond}, opts, "")
			ctx := context.Background()
			first, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": "echo ASK > f"}})
			if err != nil {
				t.Fatal(err)
			}
			if !first.NeedsInput() || first.InputRequests[approvalKey] == nil || first.RequestState == "" {
				t.Fatalf("want an input request, got %+v", first)
			}
			if _, err := os.Stat(filepath.Join(dir, "f")); err == nil {
				t.Fatal("the chain ran before the answer")
			}
			time.Sleep(tc.wait)
			var res *mcp.CallToolResult
			for range map[bool]int{false: 1, true: 2}[tc.replay] {
				res, err = c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: tc.retry, InputResponses: yes, RequestState: first.RequestState})
				if err != nil {
					t.Fatal(err)
				}
			}
			for _, f := range []string{"f", "g"} {
				_, err := os.Stat(filepath.Join(dir, f))
				if ran := err == nil; ran != (f == tc.ran) {
					t.Errorf("%s created: %v", f, ran)
				}
			}
			if tc.text != "" && (!res.IsError || !strings.Contains(text(res), tc.text)) {
				t.Errorf("isError %v, want true with %q:\n%s", res.IsError, tc.text, text(res))
			}
			if el.asked.Load() != 0 {
				t.Error("the server asked in the middle of the call, which 2026-07-28 forbids")
			}
		})
	}
}

// TestSessionRoots: under a real policy the session never leaves its
// roots silently: a cd out of them asks, and with no way to ask the chain
// does not run and the session stays.
func TestSessionRoots(t *testing.T) {
	root := testprog.TempDir(t)
	mkdirs(t, root, "proj/sub")
	proj := filepath.Join(root, "proj")
	p, _, err := policy.Parse([]byte(`{"permissions":{"allow":["Bash(cd:*)","Bash(show-dir:*)"]},"roots":["`+filepath.ToSlash(proj)+`"]}`), "settings.json")
	if err != nil {
		t.Fatal(err)
	}
	c := connect(t, Config{Dir: proj, Authorizer: p}, nil, "")
	for _, step := range []struct {
		name    string
		cmd     string
		isError bool
		cwd     string
	}{
		{"into a subdirectory", "cd sub && show-dir", false, "proj/sub"},
		{"back to the root", "cd ..", false, "proj"},
		{"out of the root asks", "cd ..", true, "proj"},
		{"an absolute path out asks", "cd " + quote(root), true, "proj"},
	} {
		t.Run(step.name, func(t *testing.T) {
			var out RunResult
			res := c.call("run", map[string]any{"command": step.cmd}, &out)
			if res.IsError != step.isError || out.Cwd != filepath.Join(root, step.cwd) {
				t.Errorf("isError %v cwd %q, want %v %q\n%s", res.IsError, out.Cwd, step.isError, step.cwd, text(res))
			}
			if step.isError && !strings.Contains(text(res), "roots") {
				t.Errorf("the refusal does not name the roots:\n%s", text(res))
			}
		})
	}
}

// TestExplainDecision: the explain tool's text shows the decision as the
// run result and the CLI do (report.Decision.Text), every segment listed,
// and its structured content carries the same decision.
func TestExplainDecision(t *testing.T) {
	c := connect(t, Config{Authorizer: stubPolicy{}}, nil, "")
	var out report.Plan
	res := c.call("explain", map[string]any{"command": "echo a && echo ASK"}, &out)
	want := "decision: ask\n" +
		`  segment 1 "echo a" is allowed: marked allow` + "\n" +
		`  segment 2 "echo ASK" asks: marked ask` + "\n" +
		`  to allow it, add to permissions.allow: "Bash(echo:*)"` + "\n"
	if got := text(res); !strings.HasSuffix(got, want) {
		t.Errorf("text:\n%s\nwant it to end with:\n%s", got, want)
	}
	if out.Decision == nil || out.Verdict != chain.Ask || !slices.Equal(out.Suggestions, []string{"Bash(echo:*)"}) ||
		out.ChainReasons == nil {
		t.Errorf("structured decision %+v", out.Decision)
	}
}
