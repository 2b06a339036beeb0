package policy

import (
	"os"
	"strings"
	"sync"

	"github.com/chainrun/chainrun/environ"
)

// Variables reach a program's environment through many channels: a
// NAME=v prefix, env NAME=v, export, an assignment to a name already
// exported, printf -v, the CLI's --env, the MCP server's env argument and
// the variables an MCP session carries between calls. Every channel is
// judged by one function, envAsk: a name on the safe-list passes, any
// other asks. A list of dangerous names can never be complete (GIT_TRACE
// writes a file, TAR_OPTIONS runs a program, OPENSSL_CONF loads one), so
// a variable is trusted only when it is known to change nothing but
// output, locale or a build's target.

// safeEnv is the safe-list: each name with the reason it cannot make a
// program run code or touch files the command line does not name. It
// starts from Claude Code's list (the Go, Rust, Node, Python, pytest,
// locale, terminal, colour and format names) and grows only by a line
// here, reason included. Names match exactly: on Windows, where names
// are case-insensitive, another spelling asks.
var safeEnv = [...]struct{ name, why string }{
	{"GOEXPERIMENT", "switches Go toolchain experiments compiled into the build; no program or file named"},
	{"GOOS", "the target OS of a Go build"},
	{"GOARCH", "the target architecture of a Go build"},
	{"CGO_ENABLED", "turns cgo on or off; the compiler run stays CC's, which is not safe-listed"},
	{"GO111MODULE", "module mode on or off"},
	{"RUST_BACKTRACE", "prints a backtrace on panic"},
	{"RUST_LOG", "log filter of Rust programs: output only"},
	{"NODE_ENV", "the environment name Node programs read (development, production); NODE_OPTIONS is not safe-listed"},
	{"PYTHONUNBUFFERED", "unbuffered standard streams"},
	{"PYTHONDONTWRITEBYTECODE", "Python writes no .pyc files: fewer writes"},
	{"PYTEST_DISABLE_PLUGIN_AUTOLOAD", "pytest loads fewer plugins"},
	{"PYTEST_DEBUG", "pytest traces its plugin machinery to stderr"},
	{"ANTHROPIC_API_KEY", "a credential the program is handed, naming nothing it runs or reads"},
	{"OPENAI_API_KEY", "a credential the program is handed, as ANTHROPIC_API_KEY; OPENAI_BASE_URL, which says where it is sent, is not safe-listed"},
	{"LANG", "locale"},
	{"LANGUAGE", "message language"},
	{"LC_ALL", "locale"},
	{"LC_CTYPE", "character classes of the locale"},
	{"LC_TIME", "date format of the locale"},
	{"CHARSET", "character set"},
	{"TERM", "terminal type"},
	{"COLORTERM", "terminal colour support"},
	{"NO_COLOR", "no colour in output"},
	{"FORCE_COLOR", "colour in output"},
	{"TZ", "time zone"},
	{"LS_COLORS", "ls colours"},
	{"LSCOLORS", "ls colours (BSD)"},
	{"GREP_COLOR", "grep colour"},
	{"GREP_COLORS", "grep colours"},
	{"GCC_COLORS", "gcc diagnostic colours"},
	{"TIME_STYLE", "ls time format"},
	{"BLOCK_SIZE", "block size of df, du and ls output"},
	{"BLOCKSIZE", "block size of df, du and ls output (BSD)"},
	{"CI", "tells tools they run unattended (no prompts, plain output); names no program or file"},
	{"PORT", "the port a development server listens on; names no program or file"},
	{"CUDA_VISIBLE_DEVICES", "which GPUs a program sees"},
}

// safeEnvSet indexes safeEnv, built on the first judgement rather than
// at every start.
var safeEnvSet = sync.OnceValue(func() map[string]bool {
	m := make(map[string]bool, len(safeEnv))
	for _, e := range safeEnv {
		m[e.name] = true
	}
	return m
})

// isSafeEnv reports a name on the safe-list.
func isSafeEnv(name string) bool { return safeEnvSet()[name] }

// envRisks say what well-known variables can do, for the reason an ask
// gives; a trailing * matches a family. They are words for the user, not
// a list the judgement depends on: a name found nowhere here asks all the
// same, with envRiskOther.
var envRisks = [...]struct{ name, risk string }{
	{"PATH", "chooses the program every later command name runs"},
	{"PATHEXT", "chooses which files Windows runs as programs"},
	{"COMSPEC", "names the shell Windows programs run"},
	{"HOME", "moves the home directory, where programs read their configuration and start-up files"},
	{"XDG_CONFIG_HOME", "moves where programs read their configuration"},
	{"CDPATH", "changes where cd goes"},
	{"TMPDIR", "moves where programs write temporary files"},
	{"SHELL", "names the shell programs start"},
	{"IFS", "changes how shells split words"},
	{"LD_*", "loads a library into every program started"},
	{"DYLD_*", "loads a library into every program started"},
	{"GCONV_PATH", "loads a library into programs that convert character sets"},
	{"GIT_*", "changes what git runs, reads or writes (GIT_TRACE appends to a file, GIT_SSH_COMMAND and GIT_CONFIG_* run programs, GIT_DIR, GIT_COMMON_DIR and GIT_INDEX_FILE switch the repository)"},
	{"*PAGER", "names a program that programs run to page output"},
	{"LESSOPEN", "names a program less runs on every file"},
	{"EDITOR", "names a program that programs run to edit"},
	{"VISUAL", "names a program that programs run to edit"},
	{"BROWSER", "names a program that programs run to open links"},
	{"SSH_ASKPASS", "names a program ssh runs"},
	{"BASH_ENV", "names a script every non-interactive bash runs"},
	{"ENV", "names a script every interactive sh runs"},
	{"BASH_FUNC_*", "defines a shell function that a bash started later runs"},
	{"SHELLOPTS", "sets options of every bash started"},
	{"PS4", "runs command substitutions in a traced bash"},
	{"PROMPT_COMMAND", "runs a command at every bash prompt"},
	{"NODE_OPTIONS", "makes node load other code (--require)"},
	{"NODE_PATH", "changes where node finds modules"},
	{"NPM_CONFIG_*", "sets npm options, among them the shell that runs scripts"},
	{"PYTHON*", "changes the code Python loads or runs at start"},
	{"PERL5*", "makes perl load other code"},
	{"PERLLIB", "makes perl load other code"},
	{"RUBY*", "makes ruby load other code"},
	{"LUA_*", "makes lua run code at start or load other modules"},
	{"GOENV", "makes the go command read another configuration file, which can set GOFLAGS and the toolchain"},
	{"GOROOT", "chooses the Go toolchain the go command runs"},
	{"GOTOOLCHAIN", "makes the go command download and run another toolchain"},
	{"GOFLAGS", "adds flags to every go command (-toolexec runs a program)"},
	{"GOPROXY", "changes where the go command downloads modules from"},
	{"GOPATH", "moves where the go command installs programs and keeps modules"},
	{"GOBIN", "moves where go install writes programs"},
	{"CARGO_*", "changes cargo's configuration, among it the programs it runs"},
	{"RUSTC*", "names the compiler cargo runs"},
	{"RUSTFLAGS", "adds compiler flags, which can load a plug-in"},
	{"CC", "names the C compiler build tools run"},
	{"CXX", "names the C++ compiler build tools run"},
	{"MAKEFLAGS", "adds options to every make (--eval runs code)"},
	{"MFLAGS", "adds options to every make"},
	{"MAKEFILES", "makes every make read other makefiles first"},
	{"TAR_OPTIONS", "adds options to every tar (--to-command runs a program)"},
	{"RSYNC_RSH", "names the program rsync runs to connect"},
	{"OPENSSL_CONF", "makes openssl read another configuration, which can load a module"},
	{"MANOPT", "adds options to every man (-P names a pager it runs)"},
	{"RIPGREP_CONFIG_PATH", "makes rg read options from a file (--pre runs a program)"},
	{"*_OPTIONS", "adds options to a program"},
	{"*_OPTS", "adds options to a program"},
	{"FLASK_APP", "names the module flask imports and runs"},
	{"DJANGO_SETTINGS_MODULE", "names a module Django imports and runs"},
	{"DEBUG", "turns on debug modes, in some frameworks a console that runs code sent to it"},
	{"*_URL", "points a program at a server it sends data to or reads from"},
	{"KUBECONFIG", "points kubectl at another cluster and its credentials"},
	{"DOCKER_HOST", "points docker at another daemon"},
}

// envRiskOther is what an unlisted variable can do.
const envRiskOther = "may be read by a program to choose what it runs, reads or writes"

// envRisk says what variable name can do.
func envRisk(name string) string {
	up := strings.ToUpper(name) // Windows names are case-insensitive
	for _, r := range envRisks {
		switch {
		case r.name == up:
		case strings.HasSuffix(r.name, "*") && strings.HasPrefix(up, r.name[:len(r.name)-1]):
		case strings.HasPrefix(r.name, "*") && strings.HasSuffix(up, r.name[1:]):
		default:
			continue
		}
		return r.risk
	}
	return envRiskOther
}

// envAsk is the judgement of every channel: "" when name is safe-listed,
// else the reason to ask, which says how the variable is set (how: "NAME=v
// before the command", "export", …), names it and says what it can do.
func envAsk(how, name string) string {
	if isSafeEnv(name) {
		return ""
	}
	return how + " puts " + name + " into the environment of programs; " + name + " is not on the safe-list of variables: it " + envRisk(name)
}

// exported reports whether name is exported in the environment chains
// start with, so that an assignment alone changes what later programs
// see, as it does in bash.
func (p *Policy) exported(name string) bool {
	if p.environ == nil {
		_, ok := os.LookupEnv(name)
		return ok
	}
	_, ok := environ.Host.Get(p.environ, name)
	return ok
}
