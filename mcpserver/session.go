package mcpserver

import (
	"context"
	"errors"
	"maps"
	"sync"

	"github.com/chainrun/chainrun/engine"
)

// session is one connection's state, kept between calls as a terminal
// keeps it for a person: the working directory, the background jobs, and
// the approvals handed out on retried calls.
//
// What a chain leaves behind is carried over through state and carry, the
// one place that knows it; chain variables and export (once the expansion
// issue gives chains variables) are meant to join Dir there.
type session struct {
	srv    *Server
	ctx    context.Context // ends when the session does; jobs run under it
	cancel context.CancelFunc

	mu     sync.Mutex
	st     state
	closed bool
	calls  sync.WaitGroup // tool calls in flight and running jobs

	jobs    map[string]*job
	jobSeq  int
	pending map[string]pendingApproval // by request state
}

// state is what carries over from one chain to the next.
type state struct {
	// Dir is the session's working directory.
	Dir string
	// Exports are the environment variables chains exported or unset;
	// Vars the shell variables they set (NAME=value alone).
	Exports map[string]varChange
	Vars    map[string]string
}

// clone copies the maps, so a snapshot does not change with the session.
func (st state) clone() state {
	st.Exports, st.Vars = maps.Clone(st.Exports), maps.Clone(st.Vars)
	return st
}

func newSession(s *Server) *session {
	ctx, cancel := context.WithCancel(context.Background())
	return &session{
		srv: s, ctx: ctx, cancel: cancel,
		st:      state{Dir: s.cfg.Dir},
		jobs:    map[string]*job{},
		pending: map[string]pendingApproval{},
	}
}

// errClosed answers calls that arrive while the session ends.
var errClosed = errors.New("the session is closing")

// enter registers a call or a job with the session, so close waits for
// it; it fails once the session is closing. Each enter needs a leave.
func (s *session) enter() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	s.calls.Add(1)
	return nil
}

func (s *session) leave() { s.calls.Done() }

// close ends the session: every chain and job under it is stopped, whole
// tree, and close returns once all of them have ended.
func (s *session) close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	s.calls.Wait()
}

// snapshot returns the state a new chain starts from.
func (s *session) snapshot() state {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.clone()
}

// carry applies what a finished chain left: its final directory, when it
// differs from the one it started in. Concurrent chains therefore apply
// in the order they finish, and a chain that did not cd leaves alone the
// directory another one moved to meanwhile.
func (s *session) carry(from state, dir string) state {
	s.mu.Lock()
	defer s.mu.Unlock()
	if dir != "" && dir != from.Dir {
		s.st.Dir = dir
	}
	return s.st.clone()
}

// carryRun applies a finished foreground chain: its directory, unless the
// call named one, and its variables.
func (s *session) carryRun(c *call, res *engine.Result) {
	if c.args.Dir == "" {
		s.carry(c.from, res.Dir)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.carryVars(c.opts, res)
}
