package mcpserver

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/environ"
	"github.com/chainrun/chainrun/report"
)

// call is one run call turned into what the engine needs.
type call struct {
	args RunArgs
	from state  // the session's state when the call started
	dir  string // the absolute directory the chain starts in
	note string // something the caller should know (a reset directory)
	opts engine.Options
}

// run is the run tool: parse, judge, run, report. The policy judges in
// the engine, before anything starts; a refused, denied or unapproved
// chain touches nothing and comes back as an error result that says why.
func (s *session) run(ctx context.Context, req *mcp.CallToolRequest, args RunArgs) (*mcp.CallToolResult, RunResult, error) {
	if err := s.enter(); err != nil {
		return nil, RunResult{}, err
	}
	defer s.leave()
	c, err := s.prepare(args)
	if err != nil {
		return nil, RunResult{}, err
	}
	ap := s.newApprover(ctx, req, c)
	c.opts.Approver = ap
	if args.Background {
		return s.startJob(ctx, c, ap)
	}
	ctx, cancel := s.callContext(ctx)
	defer cancel()
	stopProgress := s.progress(ctx, req, &c.opts)
	res, j, err := s.runAdopting(ctx, c)
	stopProgress()
	if j != nil {
		s.carryRun(c, res)
		return s.adoptedResult(c, res, j, ap)
	}
	if ap.needInput {
		return s.askForInput(c, ap), RunResult{}, nil
	}
	if res != nil && !res.Canceled {
		s.carryRun(c, res)
	}
	return s.result(c, res, err, "", ap)
}

// callContext ends a call's chain when the request is canceled and when
// the session ends, whichever comes first.
func (s *session) callContext(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(s.ctx, cancel)
	return ctx, func() { stop(); cancel() }
}

// prepare checks the arguments and builds the engine's options. Bad
// arguments are tool errors the model can correct.
func (s *session) prepare(args RunArgs) (*call, error) {
	cfg := &s.srv.cfg
	if strings.TrimSpace(args.Command) == "" {
		return nil, argErrorf("command is empty")
	}
	dialect, err := dialectOf(args.Dialect, cfg.Dialect)
	if err != nil {
		return nil, err
	}
	timeout := cfg.Timeout
	if args.Background {
		timeout = 0 // a dev server runs until job_kill unless the call says otherwise
	}
	if args.Timeout != "" {
		if timeout, err = time.ParseDuration(args.Timeout); err != nil || timeout <= 0 {
			return nil, argErrorf("timeout %q: want a positive duration such as 30s or 5m", args.Timeout)
		}
	}
	maxOut := cfg.MaxOutput
	if args.MaxOutput < 0 {
		return nil, argErrorf("max_output %d: want a positive byte count", args.MaxOutput)
	} else if args.MaxOutput > 0 {
		maxOut = args.MaxOutput
	}
	c := &call{args: args}
	if c.from, c.dir, c.note, err = s.startDir(args.Dir); err != nil {
		return nil, err
	}
	env, err := s.env(c.from, args.Env)
	if err != nil {
		return nil, err
	}
	c.opts = engine.Options{
		Dir: c.dir, Env: env, Vars: c.from.Vars, MaxOutput: maxOut, Pipefail: args.Pipefail, Timeout: timeout,
		Grace: cfg.Grace, Dialect: dialect, Sandbox: cfg.Sandbox, Authorizer: judged(cfg.Authorizer, env, args.Env, s.move(args.Dir, c.dir)), Auditor: cfg.Auditor,
	}
	if args.Stdin != "" {
		c.opts.Stdin = strings.NewReader(args.Stdin)
	}
	return c, nil
}

// dialectOf reads a dialect argument; "" is the server's.
func dialectOf(arg string, def chain.Dialect) (chain.Dialect, error) {
	switch d := chain.Dialect(arg); d {
	case "":
		return def, nil
	case chain.POSIX, chain.Windows:
		return d, nil
	}
	return "", argErrorf("dialect %q: want posix or windows", arg)
}

// env is the chain's environment: the server's, with what earlier chains
// exported, and the call's variables set over it; nil when none of those
// applies and the server inherits its own.
func (s *session) env(from state, set map[string]string) ([]string, error) {
	base := from.sessionEnv(s.srv.cfg.Env)
	if len(set) == 0 {
		return base, nil
	}
	if base == nil {
		base = os.Environ()
	}
	sets := make([]string, 0, len(set))
	for _, k := range slices.Sorted(maps.Keys(set)) {
		if k == "" || strings.ContainsAny(k, "=\x00") || strings.Contains(set[k], "\x00") {
			return nil, argErrorf("env %q: want NAME with no = or NUL, and a value with no NUL", k)
		}
		sets = append(sets, k+"="+set[k])
	}
	return environ.Host.With(base, sets...), nil
}

// startDir is where the chain starts: the call's dir, relative to the
// session's directory, or the session's directory itself. A session whose
// directory was removed goes back to where it started, and says so,
// rather than failing every call from then on.
func (s *session) startDir(arg string) (from state, dir, note string, err error) {
	from = s.snapshot()
	if arg == "" {
		if fi, err := os.Stat(from.Dir); err != nil || !fi.IsDir() {
			note = fmt.Sprintf("the session's directory %s no longer exists; back in %s", from.Dir, s.srv.cfg.Dir)
			from = s.reset(from)
		}
		return from, from.Dir, note, nil
	}
	dir = arg
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(from.Dir, dir)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return from, "", "", argErrorf("dir %q: not a directory (from %s)", arg, from.Dir)
	}
	return from, filepath.Clean(dir), "", nil
}

// reset puts a session whose directory vanished back at its start.
func (s *session) reset(from state) state {
	return s.carry(from, s.srv.cfg.Dir)
}

// result renders what a chain did as the tool's result: the report as
// structured content, a text an agent reads well, and isError for what
// kept the chain from running or finishing.
func (s *session) result(c *call, res *engine.Result, err error, job string, ap *approver) (*mcp.CallToolResult, RunResult, error) {
	rep := report.FromResult(res, err)
	out := RunResult{Run: *rep, Cwd: s.snapshot().Dir, Job: job}
	maxOut := s.srv.cfg.MaxOutput
	if c != nil {
		maxOut = c.opts.MaxOutput
	}
	reason := ""
	if ap != nil {
		reason = ap.reason
	}
	text := runText(&out, res, err, maxOut, reason)
	if c != nil && c.note != "" {
		text = "note: " + c.note + "\n" + text
	}
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: text}},
		IsError: err != nil || (res != nil && res.TimedOut),
	}, out, nil
}
