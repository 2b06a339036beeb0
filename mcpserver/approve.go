package mcpserver

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chainrun/chainrun/chain"
)

// mrtrVersion is the first protocol revision in which a server cannot ask
// the client in the middle of a call: it returns input requests, and the
// client retries the call with the answers (multi round-trip requests).
const mrtrVersion = "2026-07-28"

// approvalKey names the one input request a run call makes.
const approvalKey = "approval"

// approver settles the policy's ask verdicts for one run call by asking
// the client's user through elicitation. It never waits without a bound,
// and a client that cannot ask gets a refusal at once.
type approver struct {
	s   *session
	ctx context.Context // the request's: asking belongs to the call
	req *mcp.CallToolRequest
	c   *call

	retry *answer // the answer a retried call carries, if any

	// Set by Approve.
	needInput bool              // a 2026-07-28 client must be asked by returning input requests
	params    *mcp.ElicitParams // what to ask it
	reason    string            // why the chain was not approved

	onApproved func() // a background job's gate
}

// answer is the user's word on one approval request.
type answer struct {
	ok     bool
	reason string
}

func (s *session) newApprover(ctx context.Context, req *mcp.CallToolRequest, c *call) *approver {
	a := &approver{s: s, ctx: ctx, req: req, c: c}
	if req.Params.RequestState != "" {
		a.retry = s.takeApproval(req.Params.RequestState, c.digest(s.srv.cfg.PolicyID), req.Params.InputResponses)
	}
	return a
}

// Approve implements chain.Approver.
func (a *approver) Approve(_ context.Context, ch *chain.Chain, d *chain.Decision) (bool, error) {
	ans := a.decide(ch, d)
	a.reason = ans.reason
	if ans.ok && a.onApproved != nil {
		a.onApproved()
	}
	return ans.ok, nil
}

// decide asks, or uses the answer a retried call carries.
func (a *approver) decide(ch *chain.Chain, d *chain.Decision) answer {
	if a.retry != nil {
		return *a.retry
	}
	caps := a.req.ClientCapabilities()
	if caps == nil || caps.Elicitation == nil {
		return answer{reason: "the policy asks, and this client cannot ask its user (it declared no elicitation)"}
	}
	params := elicitParams(ch, d, a.c.dir)
	if a.req.ProtocolVersion() >= mrtrVersion {
		a.needInput, a.params = true, params
		return answer{reason: "waiting for the client's answer"}
	}
	timeout := a.s.srv.cfg.ApprovalTimeout
	ctx, cancel := context.WithTimeout(a.ctx, timeout)
	defer cancel()
	res, err := a.req.Session.Elicit(ctx, params)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return answer{reason: fmt.Sprintf("no answer within %v", timeout)}
		}
		return answer{reason: "asking the user failed: " + err.Error()}
	}
	return readAnswer(res)
}

// readAnswer reads an elicitation result: only accept with approve true
// approves.
func readAnswer(res *mcp.ElicitResult) answer {
	switch {
	case res == nil:
		return answer{reason: "the client sent no answer"}
	case res.Action == "accept" && res.Content["approve"] == true:
		return answer{ok: true}
	case res.Action == "accept":
		return answer{reason: "the user did not approve"}
	case res.Action == "decline":
		return answer{reason: "the user declined"}
	}
	return answer{reason: "the user dismissed the request (" + res.Action + ")"}
}

// elicitParams is the question: the segments the policy asks about, its
// reasons and the rule that would allow them, and a yes/no answer.
func elicitParams(ch *chain.Chain, d *chain.Decision, dir string) *mcp.ElicitParams {
	var b strings.Builder
	fmt.Fprintf(&b, "chainrun: the permission policy asks before running this command in %s:\n\n  %s\n\n", dir, ch.Source)
	b.WriteString(askText(d))
	b.WriteString("\nRun it?")
	return &mcp.ElicitParams{
		Mode:    "form",
		Message: b.String(),
		RequestedSchema: &jsonschema.Schema{
			Type: "object",
			Properties: map[string]*jsonschema.Schema{
				"approve": {Type: "boolean", Title: "Run this command", Description: "true runs the command once, as shown"},
			},
			Required: []string{"approve"},
		},
	}
}

// pendingApproval is an input request handed to a 2026-07-28 client,
// waiting for the retried call that answers it.
type pendingApproval struct {
	digest  string
	expires time.Time
}

// maxPending bounds the approvals a session waits for at once.
const maxPending = 32

// askForInput returns the input request for a 2026-07-28 client. The
// request state is a random handle to a server-side record that binds the
// answer to this exact call (command, arguments, directory, environment,
// policy), expires with the approval timeout and is used once: a client
// cannot swap the command between the question and the retry.
func (s *session) askForInput(c *call, a *approver) *mcp.CallToolResult {
	var raw [16]byte
	rand.Read(raw[:])
	handle := hex.EncodeToString(raw[:])
	now := time.Now()
	s.mu.Lock()
	for k, p := range s.pending {
		if now.After(p.expires) || len(s.pending) >= maxPending {
			delete(s.pending, k)
		}
	}
	s.pending[handle] = pendingApproval{digest: c.digest(s.srv.cfg.PolicyID), expires: now.Add(s.srv.cfg.ApprovalTimeout)}
	s.mu.Unlock()
	return &mcp.CallToolResult{
		InputRequests: mcp.InputRequestMap{approvalKey: a.params},
		RequestState:  handle,
	}
}

// takeApproval redeems a retried call's request state: once, before it
// expires, and only for the call it was made for.
func (s *session) takeApproval(handle, digest string, responses mcp.InputResponseMap) *answer {
	s.mu.Lock()
	p, ok := s.pending[handle]
	delete(s.pending, handle)
	s.mu.Unlock()
	switch {
	case !ok:
		return &answer{reason: "the approval is unknown or was already used; call run again to be asked again"}
	case time.Now().After(p.expires):
		return &answer{reason: "the approval expired; call run again to be asked again"}
	case p.digest != digest:
		return &answer{reason: "the approval was given for a different command, directory, environment or policy"}
	}
	res, _ := responses[approvalKey].(*mcp.ElicitResult)
	ans := readAnswer(res)
	return &ans
}

// digest identifies what an approval covers: every argument of the call,
// the directory it starts in, the environment it adds and the policy.
func (c *call) digest(policyID string) string {
	b, _ := json.Marshal(struct {
		Args   RunArgs
		Dir    string
		Policy string
	}{c.args, c.dir, policyID})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
