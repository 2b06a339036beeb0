package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/policy"
	"github.com/chainrun/chainrun/report"
	"github.com/chainrun/chainrun/sandbox"
)

const mcpUsageText = `Usage: chainrun mcp [flags]

Serve chainrun's tools (run, explain, job_output, job_kill, job_list) over
the Model Context Protocol on stdin and stdout, for agents in any language.
stdout carries only protocol messages; the server's own messages go to
stderr. The policy and the audit log come only from these flags: no tool
can read, change or widen them. docs/mcp.md describes the tools.

Flags:
  --policy FILE          judge every chain with the permission rules in FILE
                         (repeatable, merged); an ask is put to the client's
                         user through elicitation
  --claude-settings[=DIR]
                         judge with the settings Claude Code reads for DIR
                         (default: --dir): managed, user, project and local
                         files; a bare "Bash" deny there removes Claude
                         Code's own tool and denies no command here
  --permission-mode MODE default, acceptEdits, plan, dontAsk or
                         bypassPermissions (default: the settings' defaultMode)
  --add-dir DIR          a working directory besides --dir (repeatable)
  --sandbox              confine every chain's programs to the sandbox, as
                         for chainrun
  --audit-log FILE       append every chain to FILE as one JSON line
  --audit-max-size MB, --audit-max-backups N, --audit-max-age DAYS
                         rotation of the audit log, as for chainrun
  --dir DIR              where each session starts (default: the current
                         directory); with a policy that names no roots, DIR
                         is its root
  --timeout DURATION     default timeout of a foreground chain (default: none)
  --grace DURATION       time between the polite stop and the kill (default 2s)
  --max-output BYTES     default cap of each captured stream, head and tail
                         (default 32KiB)
  --dialect posix|windows
                         default dialect (default: the host's, %s)
  --approval-timeout DURATION
                         how long to wait for an approval (default 2m)
  -h, --help             print this help and exit

Example client configuration (Claude Code, .mcp.json), with "deny": ["Bash"]
and "allow": ["mcp__chainrun__run", ...] in .claude/settings.json so every
shell command goes through chainrun:
  {"mcpServers": {"chainrun": {"command": "chainrun",
    "args": ["mcp", "--claude-settings"]}}}
`

// mcpConfig is what the mcp subcommand's flags give.
type mcpConfig struct {
	policyFlags
	audit           auditConfig
	dir             string
	timeout         time.Duration
	grace           time.Duration
	maxOut          int // 0: the server's default
	dialect         chain.Dialect
	approvalTimeout time.Duration // 0: the server's default
}

// MCPSetup is what the mcp flags give the server: chainrun-mcp turns it
// into mcpserver.Config. It is a type of its own because this package
// must not import mcpserver, whose dependencies would then be linked into
// chainrun itself and slow every start.
type MCPSetup struct {
	Dir             string
	Timeout         time.Duration
	Grace           time.Duration
	MaxOutput       int
	Dialect         chain.Dialect
	ApprovalTimeout time.Duration
	Version         string
	Logger          *slog.Logger
	// Authorizer is nil when no policy flag was given.
	Authorizer     chain.Authorizer
	PolicyWarnings []string
	// PolicyFiles (every settings file the policy was read from, present
	// or not), PolicyMode (--permission-mode) and PolicyDirs (the working
	// directories) are what names the policy: the server digests them so
	// an approval is bound to the policy that asked. The digest is taken
	// there, not here, to keep crypto out of chainrun's start.
	PolicyFiles []string
	PolicyMode  string
	PolicyDirs  []string
	Auditor     engine.Auditor
	// Sandbox is the boundary every chain's programs are held to, nil
	// when the sandbox is off.
	Sandbox *sandbox.Boundary
}

// MCPServer serves one MCP session on r and w until the client goes away
// or ctx is done.
type MCPServer func(ctx context.Context, s *MCPSetup, r io.Reader, w io.Writer) error

// ServeMCP is chainrun-mcp's main, also reached as `chainrun mcp`: it
// reads the flags, loads the policy and the audit log as chainrun does,
// and serves one session on the standard streams with serve until the
// client goes away or a signal asks the server to stop; either way every
// chain and job the session started has ended when it returns.
func ServeMCP(args []string, serve MCPServer) int {
	c := &cli{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}
	return c.serveMCP(args, serve)
}

func (c *cli) serveMCP(args []string, serve MCPServer) int {
	cfg, status, ok := c.parseMCPArgs(args)
	if !ok {
		return status
	}
	if err := checkDir(cfg.dir); err != nil {
		return c.mcpUsageError("%v", err)
	}
	setup := &MCPSetup{
		Dir: cfg.dir, Timeout: cfg.timeout, Grace: cfg.grace, MaxOutput: cfg.maxOut,
		Dialect: cfg.dialect, ApprovalTimeout: cfg.approvalTimeout, Version: versionString(),
		Logger: slog.New(slog.NewTextHandler(c.stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	var lpol *policy.Policy
	if cfg.judges() {
		lp, st, ok := c.loadPolicy(&cfg.policyFlags, cfg.dir, cfg.audit.path, false)
		if !ok {
			return st
		}
		if err := rootPolicy(lp.p, cfg.dir); err != nil {
			fmt.Fprintf(c.stderr, "chainrun: %v\n", err)
			return exitUsage
		}
		setup.Authorizer, setup.PolicyWarnings = lp.p, lp.warnings
		setup.PolicyFiles, setup.PolicyMode, setup.PolicyDirs = lp.sources, cfg.mode, lp.p.AdditionalDirectories
		lpol = lp.p
	}
	b, st, ok := c.loadSandbox(&cfg.policyFlags, lpol, cfg.dir)
	if !ok {
		return st
	}
	if setup.Sandbox = b; b != nil {
		setup.PolicyWarnings = append(slices.Clip(setup.PolicyWarnings), sandboxLines(b)...)
	}
	if cfg.audit.path != "" {
		auditor, closeAudit, err := newAuditor(cfg.audit)
		if err != nil {
			fmt.Fprintf(c.stderr, "chainrun: audit log: %v\n", err)
			return exitUsage
		}
		defer closeAudit()
		setup.Auditor = auditor
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serve(ctx, setup, c.stdin, c.stdout); err != nil && ctx.Err() == nil {
		fmt.Fprintf(c.stderr, "chainrun: mcp: %v\n", err)
		return report.ExitInternal
	}
	return 0
}

// rootPolicy makes the server's directory the root of a policy that names
// none, so a session that cd's into a subdirectory keeps the whole tree
// it started in, and a cd out of it asks.
func rootPolicy(p *policy.Policy, dir string) error {
	if len(p.Roots) > 0 {
		return nil
	}
	abs, err := startDir(dir)
	if err != nil {
		return err
	}
	p.Roots = []string{abs}
	return nil
}

// parseMCPArgs reads the mcp subcommand's flags; it takes no arguments.
func (c *cli) parseMCPArgs(args []string) (cfg *mcpConfig, status int, ok bool) {
	cfg = &mcpConfig{dialect: chain.HostDialect()}
	fs := flag.NewFlagSet("chainrun mcp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	cfg.policyFlags.define(fs)
	fs.StringVar(&cfg.audit.path, "audit-log", "", "")
	fs.Var((*countValue)(&cfg.audit.maxSizeMB), "audit-max-size", "")
	fs.Var((*countValue)(&cfg.audit.maxBackups), "audit-max-backups", "")
	fs.Var((*countValue)(&cfg.audit.maxAgeDays), "audit-max-age", "")
	fs.StringVar(&cfg.dir, "dir", "", "")
	fs.Var((*durationValue)(&cfg.timeout), "timeout", "")
	fs.Var((*durationValue)(&cfg.grace), "grace", "")
	fs.Var((*sizeValue)(&cfg.maxOut), "max-output", "")
	fs.Var((*dialectValue)(&cfg.dialect), "dialect", "")
	fs.Var((*durationValue)(&cfg.approvalTimeout), "approval-timeout", "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(c.stdout, mcpUsageText, chain.HostDialect())
			return nil, 0, false
		}
		msg := strings.NewReplacer("flag -", "flag --", "defined: -", "defined: --").Replace(err.Error())
		return nil, c.mcpUsageError("%s", msg), false
	}
	if fs.NArg() > 0 {
		return nil, c.mcpUsageError("mcp takes no arguments, got %q", fs.Args()), false
	}
	return cfg, 0, true
}

// mcpUsageError reports a bad invocation of the subcommand.
func (c *cli) mcpUsageError(format string, a ...any) int {
	fmt.Fprintf(c.stderr, "chainrun: mcp: "+format+"\n", a...)
	fmt.Fprintln(c.stderr, "usage: chainrun mcp [flags]  (chainrun mcp --help for the flags)")
	return exitUsage
}
