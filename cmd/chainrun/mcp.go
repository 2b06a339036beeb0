package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/mcpserver"
	"github.com/chainrun/chainrun/policy"
	"github.com/chainrun/chainrun/report"
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

Example client configuration (Claude Code, .mcp.json):
  {"mcpServers": {"chainrun": {"command": "chainrun",
    "args": ["mcp", "--policy", ".claude/settings.json"]}}}
`

// mcpConfig is what the mcp subcommand's flags give.
type mcpConfig struct {
	policies        []string
	audit           auditConfig
	dir             string
	timeout         time.Duration
	grace           time.Duration
	maxOut          int
	dialect         chain.Dialect
	approvalTimeout time.Duration
}

// mcp runs `chainrun mcp`: it wires the flags into mcpserver.Config and
// serves one session on the standard streams until the client goes away
// or a signal asks the server to stop; either way every chain and job the
// session started has ended when it returns.
func (c *cli) mcp(args []string) int {
	cfg, status, ok := c.parseMCPArgs(args)
	if !ok {
		return status
	}
	scfg := mcpserver.Config{
		Dir: cfg.dir, Timeout: cfg.timeout, Grace: cfg.grace, MaxOutput: cfg.maxOut,
		Dialect: cfg.dialect, ApprovalTimeout: cfg.approvalTimeout, Version: versionString(),
		Logger: slog.New(slog.NewTextHandler(c.stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	if len(cfg.policies) > 0 {
		auth, st, ok := c.loadPolicy(&config{policies: cfg.policies})
		if !ok {
			return st
		}
		if err := rootPolicy(auth, cfg.dir); err != nil {
			fmt.Fprintf(c.stderr, "chainrun: %v\n", err)
			return exitUsage
		}
		scfg.Authorizer, scfg.PolicyID = auth, policyID(cfg.policies)
	}
	if cfg.audit.path != "" {
		auditor, closeAudit, err := newAuditor(cfg.audit)
		if err != nil {
			fmt.Fprintf(c.stderr, "chainrun: audit log: %v\n", err)
			return exitUsage
		}
		defer closeAudit()
		scfg.Auditor = auditor
	}
	srv, err := mcpserver.New(scfg)
	if err != nil {
		fmt.Fprintf(c.stderr, "chainrun: %v\n", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := srv.ServeIO(ctx, c.stdin, c.stdout); err != nil && ctx.Err() == nil {
		fmt.Fprintf(c.stderr, "chainrun: mcp: %v\n", err)
		return report.ExitInternal
	}
	return 0
}

// rootPolicy makes the server's directory the root of a policy that names
// none, so a session that cd's into a subdirectory keeps the whole tree
// it started in, and a cd out of it asks.
func rootPolicy(auth chain.Authorizer, dir string) error {
	p, ok := auth.(*policy.Policy)
	if !ok || len(p.Roots) > 0 {
		return nil
	}
	abs, err := startDir(dir)
	if err != nil {
		return err
	}
	p.Roots = []string{abs}
	return nil
}

// policyID digests the policy files' names and contents, so an approval
// given on a retried call names the policy that asked for it.
func policyID(paths []string) string {
	h := sha256.New()
	for _, p := range paths {
		data, _ := os.ReadFile(p)
		abs, _ := filepath.Abs(p)
		fmt.Fprintf(h, "%s\x00%d\x00", abs, len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// parseMCPArgs reads the mcp subcommand's flags; it takes no arguments.
func (c *cli) parseMCPArgs(args []string) (cfg *mcpConfig, status int, ok bool) {
	cfg = &mcpConfig{dialect: chain.HostDialect(), maxOut: mcpserver.DefaultMaxOutput, approvalTimeout: mcpserver.DefaultApprovalTimeout}
	fs := flag.NewFlagSet("chainrun mcp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.Var((*listValue)(&cfg.policies), "policy", "")
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
