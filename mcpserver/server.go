package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/sandbox"
)

// Config is what the server's flags give it. Nothing a client sends can
// change it: the policy and the audit log come only from here.
type Config struct {
	// Dir is where every session starts; "" means the server's directory.
	Dir string
	// Env is the environment chains start with; nil means the server's.
	Env []string
	// Authorizer judges every chain (policy.Policy); nil allows all.
	Authorizer chain.Authorizer
	// PolicyID names the policy's content (a digest of its files), so an
	// approval given on a retried call is bound to the policy that asked.
	PolicyID string
	// PolicyWarnings are what the policy's loader said about its files
	// (entries it left out or read as another); the explain tool's plan
	// carries them.
	PolicyWarnings []string
	// Auditor records every chain, refused and denied ones included.
	Auditor engine.Auditor
	// Sandbox confines every chain's processes (engine.Options.Sandbox);
	// nil runs them unconfined.
	Sandbox *sandbox.Boundary
	// Timeout bounds each foreground chain unless the call sets its own;
	// 0 means none.
	Timeout time.Duration
	// Grace is the time between the polite stop and the kill; 0 means
	// engine.DefaultGrace.
	Grace time.Duration
	// MaxOutput caps each captured stream unless the call sets its own;
	// 0 means DefaultMaxOutput.
	MaxOutput int
	// Dialect is the default dialect; "" means the host's.
	Dialect chain.Dialect
	// ApprovalTimeout bounds the wait for an answer to an approval
	// request; 0 means DefaultApprovalTimeout.
	ApprovalTimeout time.Duration
	// ProgressEvery is the interval of progress notifications; 0 means
	// DefaultProgressEvery.
	ProgressEvery time.Duration
	// Version is reported to clients as the server's version.
	Version string
	// Logger receives the server's own messages (stderr on stdio); nil
	// discards them.
	Logger *slog.Logger
}

// Defaults for Config and the limits of a session.
const (
	// DefaultMaxOutput is smaller than the CLI's 1 MiB: what a tool returns
	// lands in a model's context, twice (structured and text).
	DefaultMaxOutput       = 32 << 10
	DefaultApprovalTimeout = 2 * time.Minute
	// DefaultProgressEvery stays well under the 2 s a client's idle
	// timer may be reset by.
	DefaultProgressEvery = time.Second
	// MaxRunningJobs bounds the background jobs one session runs at once.
	MaxRunningJobs = 16
	// MaxJobs bounds the jobs a session remembers, finished ones included;
	// the oldest finished job is forgotten first.
	MaxJobs = 64
	// JobLogSize is how much of a job's output is kept for job_output:
	// its first and last halves, whatever it prints.
	JobLogSize = 256 << 10
)

// Server serves chainrun's tools over MCP. One Server may serve several
// connections, each with its own session.
type Server struct {
	cfg     Config
	schemas *mcp.SchemaCache
}

// New checks cfg and fills in its defaults.
func New(cfg Config) (*Server, error) {
	dir := cfg.Dir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		dir = wd
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("--dir %s: not a directory", cfg.Dir)
	}
	cfg.Dir = dir
	if cfg.Dialect == "" {
		cfg.Dialect = chain.HostDialect()
	}
	if cfg.MaxOutput <= 0 {
		cfg.MaxOutput = DefaultMaxOutput
	}
	if cfg.Grace <= 0 {
		cfg.Grace = engine.DefaultGrace
	}
	if cfg.ApprovalTimeout <= 0 {
		cfg.ApprovalTimeout = DefaultApprovalTimeout
	}
	if cfg.ProgressEvery <= 0 {
		cfg.ProgressEvery = DefaultProgressEvery
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Server{cfg: cfg, schemas: mcp.NewSchemaCache()}, nil
}

// Serve runs one session over t until the client disconnects or ctx ends.
// When it returns, every chain and background job of the session has
// ended, whole tree: a vanished client leaves nothing running.
func (s *Server) Serve(ctx context.Context, t mcp.Transport) error {
	sess := newSession(s)
	defer sess.close()
	ss, err := s.newMCPServer(sess).Connect(ctx, &cancelFilter{t: t}, nil)
	if err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { ss.Close() })
	defer stop()
	err = ss.Wait()
	if errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, io.EOF) {
		err = nil
	}
	return err
}

// ServeStdio serves one session over the process's stdin and stdout.
func (s *Server) ServeStdio(ctx context.Context) error {
	return s.ServeIO(ctx, os.Stdin, os.Stdout)
}

// ServeIO serves one session of newline-delimited JSON-RPC read from r
// and written to w, as stdio servers speak it. A line from the client
// that is no JSON-RPC message gets an error response, and the session
// goes on (lineTransport). w is not closed.
func (s *Server) ServeIO(ctx context.Context, r io.Reader, w io.Writer) error {
	return s.Serve(ctx, &lineTransport{r: r, w: w, max: mcp.DefaultMaxLineLength})
}

// instructions tell the model what the tools are for and how the session
// behaves; clients put them in the model's context. What they say about
// the syntax comes from syntaxRuns and syntaxRefused, whose examples
// TestInstructionsSyntax gives to the parser.
var instructions = "chainrun runs command lines with bash's syntax (" + constructNames(syntaxRuns) + ") without a " +
	"shell, judged by the user's permission policy before anything starts, and again for each command as it starts. " +
	"Refused with the column and a fix: " + constructNames(syntaxRefused) + ". The session keeps its working " +
	`directory: a top-level cd carries over to the next run call. Chains never read the server's stdin: pass input ` +
	`with "stdin". Long-running programs (dev servers, watchers): start them with & (what still runs when the ` +
	"chain ends becomes a session job, its id in the result) or run with background=true, then job_output, job_kill, job_list."

// A construct is a piece of bash syntax as the instructions name it, with
// command lines that use it.
type construct struct {
	name     string
	examples []string
}

// syntaxRuns is the syntax chainrun runs with bash's meaning.
var syntaxRuns = withProcSubst(runtime.GOOS != "windows", []construct{
	{"pipes", []string{"seq 3 | grep 2", "make |& tee log"}},
	{"&&, ||, ;", []string{"a && b || c; d"}},
	{"redirects", []string{"make > out.log 2>&1", "sort < in.txt >> out.txt", "cmd &> all.log"}},
	{"heredocs", []string{"cat <<'EOF'\nhi\nEOF", "cat <<< word"}},
	{"quoting", []string{`echo 'a b' "c d" e\ f $'g\th'`}},
	{"variables", []string{`echo $HOME "${USER:-me}" ${#PATH}`, "X=1 make", "export A=1 && echo $A"}},
	{"globs", []string{"ls *.go src/[ab]*.txt"}},
	{"braces", []string{"echo {a,b}.txt {1..3}"}},
	{"~", []string{"ls ~/src"}},
	{"$((…))", []string{"echo $((1 + 2))"}},
	{"$(…) and backticks", []string{"echo $(date)", "echo `date`", `V=$(git rev-parse HEAD) && echo "$V"`}},
	{"time, set -euxo pipefail, read, command -v, type", []string{"time make", "set -euo pipefail; make | tee log",
		"read -r first < notes.txt", "command -v go && type ls"}},
	{"if, for, while, until, case, break, continue, { } groups, ( ) subshells, !", []string{"if true; then ls; fi",
		"for f in a b; do ls $f; done", "for ((i=0; i<3; i++)); do echo $i; done", "while true; do ls && break; done",
		"until false; do continue 1; done", "case x in x) ls;; esac", "(cd src && make)", "{ ls; pwd; } > out.txt", "! grep -q x f"}},
	{"& and wait", []string{"npm run dev > dev.log 2>&1 & sleep 3 && curl -s localhost:3000", "make a & make b & wait; echo $!"}},
})

// syntaxRefused is the syntax chainrun refuses before anything runs.
var syntaxRefused = withProcSubst(runtime.GOOS == "windows", []construct{
	{"functions", []string{"f() { ls; }"}},
	{"[[ … ]]", []string{"[[ -f x ]]"}},
})

// backgroundFix is how to keep a program running past the call: what a
// chain leaves running with & becomes a session job, as background=true
// makes the whole chain one.
const backgroundFix = "what a chain leaves running with & (npm run dev &) becomes a session job when the chain ends; " +
	"background=true makes the whole chain one; read jobs with job_output, stop them with job_kill"

// refusedFixes lists, for the run tool's description, each refused
// construct with the parser's own fix for its examples (the text after
// "not supported; " in the refusal), one line each; an example whose fix
// starts as its construct's previous one does is left out.
func refusedFixes() string {
	var b strings.Builder
	for _, c := range syntaxRefused {
		seen := map[string]bool{}
		for _, ex := range c.examples {
			fix := parserFix(ex)
			head, _, _ := strings.Cut(fix, ":")
			if fix == "" || seen[head] {
				continue
			}
			seen[head] = true
			fmt.Fprintf(&b, "\n- %s (%s): %s", c.name, ex, fix)
		}
	}
	return b.String()
}

// parserFix is the fix the parser's refusal of src gives, "" if none.
func parserFix(src string) string {
	var pe *chain.ParseError
	if _, err := chain.ParseDialect(src, chain.POSIX); !errors.As(err, &pe) {
		return ""
	}
	_, fix, _ := strings.Cut(pe.Message, "supported; ")
	return fix
}

// constructNames joins the constructs' names for the instructions.
func constructNames(cs []construct) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.name
	}
	return strings.Join(names, ", ")
}

// newMCPServer builds the MCP server of one session, its tools bound to it.
func (s *Server) newMCPServer(sess *session) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "chainrun", Version: s.cfg.Version}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       s.cfg.Logger,
		SchemaCache:  s.schemas,
	})
	srv.AddReceivingMiddleware(sess.argumentErrors)
	mcp.AddTool(srv, runTool, withErrorResult(sess.run, func(_ RunArgs, err error) RunResult { return sess.runError(err) }))
	mcp.AddTool(srv, explainTool, withErrorResult(sess.explain, explainError))
	mcp.AddTool(srv, jobOutputTool, withErrorResult(sess.jobOutput, jobOutputError))
	mcp.AddTool(srv, jobKillTool, withErrorResult(sess.jobKill, func(_ JobArgs, err error) RunResult { return sess.runError(err) }))
	mcp.AddTool(srv, jobListTool, sess.jobList)
	return srv
}
