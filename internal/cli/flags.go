package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/environ"
	"github.com/chainrun/chainrun/tools"
)

// config is one invocation's settings, as the flags gave them.
type config struct {
	explain  bool
	json     bool
	dialect  chain.Dialect
	timeout  time.Duration
	grace    time.Duration
	maxOut   int
	dir      string
	env      []string
	combined bool
	pipefail bool
	tools    tools.Mode

	policyFlags
	yes   bool
	audit auditConfig

	command string
}

// auditConfig mirrors the audit log flags.
type auditConfig struct {
	path       string
	maxSizeMB  int
	maxBackups int
	maxAgeDays int
}

const usageText = `Usage: chainrun [flags] [--] COMMAND
       chainrun mcp [flags]

Parse COMMAND, one argument holding a whole command line such as
'seq 10 | grep 5', judge it against the --policy rules, and run it as a
chain of processes without a system shell.

chainrun mcp serves the same as tools over the Model Context Protocol on
stdin and stdout, for agents (chainrun mcp --help for its flags); it runs
chainrun-mcp, installed beside chainrun.

Flags:
  --explain              parse (and with --policy judge) the chain; run nothing
  --json                 print one JSON object on stdout
  --dialect posix|windows
                         how backslashes read (default: the host's, %s)
  --timeout DURATION     stop the whole chain after DURATION (30s, 1m30s;
                         a bare number is seconds; default: none)
  --grace DURATION       time between the polite stop and the kill (default 2s)
  --max-output BYTES     cap each captured stream, keeping head and tail
                         (1048576, 512KiB, 1MiB, 1MB; default 1MiB)
  --dir DIR              start the chain in DIR
  --env K=V              set K=V in the chain's environment (repeatable)
  --combined             capture stdout and stderr as one stream
  --pipefail             a pipeline's status is its rightmost non-zero stage's
  --builtin-tools=WHEN   run chainrun's own ls, cat, rm, … : missing (when not found; Windows' default),
                         always, or never (POSIX's default); CHAINRUN_BUILTIN_TOOLS sets the default
  --policy FILE          judge the chain with the permission rules in FILE
                         (Claude Code settings shape; repeatable, merged)
  --claude-settings[=DIR]
                         judge with the settings Claude Code reads for DIR
                         (default: the start directory): managed, user,
                         project and local files, with their precedence
  --permission-mode MODE default, acceptEdits, plan, dontAsk or
                         bypassPermissions (default: the settings' defaultMode)
  --add-dir DIR          a working directory besides the start directory
                         (repeatable; adds to additionalDirectories)
  --sandbox              confine every program the chain starts to the
                         sandbox (writes only in the roots and the temp
                         directory; Linux Landlock, macOS Seatbelt); also
                         on when the settings set sandbox.enabled
  --yes                  approve chains the policy asks about
  --audit-log FILE       append every chain to FILE as one JSON line
  --audit-max-size MB    rotate the audit log at MB megabytes (default 100)
  --audit-max-backups N  keep N rotated audit logs (default: all)
  --audit-max-age DAYS   remove rotated audit logs older than DAYS (default: never)
  --version              print the version and exit
  -h, --help             print this help and exit

Exit status: the chain's own (127 not found, 126 not executable, 128+N
killed by signal N); 2 when the arguments are wrong or COMMAND is refused;
3 when the policy denies it or an ask is not approved; 124 on timeout;
125 when chainrun itself fails. Refused and denied chains touch nothing.

Examples:
  chainrun 'seq 10 | grep 5'
  chainrun --explain --json -- 'go test ./... 2>&1 > test.log'
  chainrun --policy .claude/settings.json --timeout 5m -- 'git status && go vet ./...'
`

func usage(w io.Writer) error {
	_, err := fmt.Fprintf(w, usageText, chain.HostDialect())
	return err
}

// parseArgs reads the flags and the one COMMAND argument. When it returns
// ok false, chainrun exits at once with status (help, version, errors).
func (c *cli) parseArgs(args []string) (cfg *config, status int, ok bool) {
	cfg = &config{dialect: chain.HostDialect(), grace: engine.DefaultGrace}
	cfg.tools, _ = tools.ParseMode(os.Getenv("CHAINRUN_BUILTIN_TOOLS"))
	// The common call, one command line and no flag, reads as the flag set
	// would read it without defining the set's flags: a tenth of what
	// chainrun itself does on `chainrun true`.
	if len(args) == 1 && !strings.HasPrefix(args[0], "-") {
		cfg.command = args[0]
		return cfg, 0, true
	}
	var version bool

	fs := flag.NewFlagSet("chainrun", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.BoolVar(&cfg.explain, "explain", false, "")
	fs.BoolVar(&cfg.json, "json", false, "")
	fs.Var((*dialectValue)(&cfg.dialect), "dialect", "")
	fs.Var((*durationValue)(&cfg.timeout), "timeout", "")
	fs.Var((*durationValue)(&cfg.grace), "grace", "")
	fs.Var((*sizeValue)(&cfg.maxOut), "max-output", "")
	fs.StringVar(&cfg.dir, "dir", "", "")
	fs.Var((*envValue)(&cfg.env), "env", "")
	fs.BoolVar(&cfg.combined, "combined", false, "")
	fs.BoolVar(&cfg.pipefail, "pipefail", false, "")
	fs.Var((*toolsValue)(&cfg.tools), "builtin-tools", "")
	cfg.policyFlags.define(fs)
	fs.BoolVar(&cfg.yes, "yes", false, "")
	fs.StringVar(&cfg.audit.path, "audit-log", "", "")
	fs.Var((*countValue)(&cfg.audit.maxSizeMB), "audit-max-size", "")
	fs.Var((*countValue)(&cfg.audit.maxBackups), "audit-max-backups", "")
	fs.Var((*countValue)(&cfg.audit.maxAgeDays), "audit-max-age", "")
	fs.BoolVar(&version, "version", false, "")

	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			if err := usage(c.stdout); err != nil {
				return nil, c.outputFailed(err), false
			}
			return nil, 0, false
		}
		// The flag package names flags with one dash; chainrun documents two.
		msg := strings.NewReplacer("flag -", "flag --", "defined: -", "defined: --").Replace(err.Error())
		return nil, c.usageError("%s", msg), false
	}
	if version {
		if _, err := fmt.Fprintln(c.stdout, versionString()); err != nil {
			return nil, c.outputFailed(err), false
		}
		return nil, 0, false
	}
	switch rest := fs.Args(); len(rest) {
	case 1:
		cfg.command = rest[0]
	case 0:
		return nil, c.usageError("no COMMAND given"), false
	default:
		return nil, c.usageError("COMMAND must be one argument, got %d (quote the whole command line: chainrun 'a | b')", len(rest)), false
	}
	return cfg, 0, true
}

// usageError reports a bad invocation on stderr and returns exitUsage.
func (c *cli) usageError(format string, a ...any) int {
	fmt.Fprintf(c.stderr, "chainrun: "+format+"\n", a...)
	fmt.Fprintln(c.stderr, "usage: chainrun [flags] [--] COMMAND  (chainrun --help for the flags)")
	return exitUsage
}

// versionString names the build: the module version when installed with
// go install, (devel) otherwise.
func versionString() string {
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		v = bi.Main.Version
	}
	return fmt.Sprintf("chainrun %s %s/%s %s", v, runtime.GOOS, runtime.GOARCH, runtime.Version())
}

type dialectValue chain.Dialect

func (d *dialectValue) String() string { return string(*d) }
func (d *dialectValue) Set(s string) error {
	switch chain.Dialect(s) {
	case chain.POSIX, chain.Windows:
		*d = dialectValue(s)
		return nil
	}
	return fmt.Errorf("want posix or windows, not %q", s)
}

// durationValue is a non-negative Go duration; a bare number is seconds.
type durationValue time.Duration

func (d *durationValue) String() string { return time.Duration(*d).String() }
func (d *durationValue) Set(s string) error {
	v, err := parseDuration(s)
	if err != nil {
		return err
	}
	*d = durationValue(v)
	return nil
}

func parseDuration(s string) (time.Duration, error) {
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if f < 0 || f > math.MaxInt64/float64(time.Second) || math.IsNaN(f) {
			return 0, fmt.Errorf("duration %q out of range", s)
		}
		return time.Duration(f * float64(time.Second)), nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("want a duration such as 30s or 1m30s, not %q", s)
	}
	if v < 0 {
		return 0, fmt.Errorf("duration %q is negative", s)
	}
	return v, nil
}

// sizeValue is a byte count with an optional unit.
type sizeValue int

func (v *sizeValue) String() string { return strconv.Itoa(int(*v)) }
func (v *sizeValue) Set(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	*v = sizeValue(n)
	return nil
}

// sizeUnits maps a suffix to its multiplier: K, M and G are binary, as in
// GNU head -c; KB, MB and GB are decimal.
var sizeUnits = []struct {
	suffix string
	mult   int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9},
	{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30},
	{"B", 1},
}

// parseSize reads 1048576, 512KiB, 1MiB, 1MB, 1M, 64k (units are
// case-insensitive). It refuses negative sizes and sizes that overflow int.
func parseSize(s string) (int, error) {
	num, mult := strings.TrimSpace(s), int64(1)
	for _, u := range sizeUnits {
		if len(num) > len(u.suffix) && strings.EqualFold(num[len(num)-len(u.suffix):], u.suffix) {
			num, mult = strings.TrimSpace(num[:len(num)-len(u.suffix)]), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("want a byte count such as 1048576 or 1MiB, not %q", s)
	}
	if n > math.MaxInt/mult {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return int(n * mult), nil
}

// countValue is a non-negative integer.
type countValue int

func (v *countValue) String() string { return strconv.Itoa(int(*v)) }
func (v *countValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("want a non-negative integer, not %q", s)
	}
	*v = countValue(n)
	return nil
}

// listValue collects a repeatable flag.
type listValue []string

func (l *listValue) String() string { return strings.Join(*l, ",") }
func (l *listValue) Set(s string) error {
	if s == "" {
		return errors.New("empty value")
	}
	*l = append(*l, s)
	return nil
}

// envValue collects repeatable K=V settings.
type envValue []string

func (e *envValue) String() string { return strings.Join(*e, " ") }
func (e *envValue) Set(s string) error {
	if k, _, ok := strings.Cut(s, "="); !ok || k == "" {
		return fmt.Errorf("want K=V, not %q", s)
	}
	*e = append(*e, s)
	return nil
}

// chainEnv returns the environment the chain starts with: nil (the
// inherited one) without --env, otherwise the inherited one with the
// --env settings replacing same-named variables (case-insensitively on
// Windows, where names are).
func chainEnv(sets []string) []string {
	if len(sets) == 0 {
		return nil
	}
	return environ.Host.With(os.Environ(), sets...)
}

// toolsValue is --builtin-tools: always, missing or never.
type toolsValue tools.Mode

func (v *toolsValue) String() string { return string(*v) }
func (v *toolsValue) Set(s string) error {
	m, err := tools.ParseMode(s)
	*v = toolsValue(m)
	return err
}
