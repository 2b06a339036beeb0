package policy

import (
	"strings"
	"sync"
)

// safeEnv are the variables the allow view strips: they change output
// format or locale, never which code runs.
var safeEnv = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"GOEXPERIMENT": true, "GOOS": true, "GOARCH": true, "CGO_ENABLED": true, "GO111MODULE": true,
		"RUST_BACKTRACE": true, "RUST_LOG": true,
		"NODE_ENV":         true,
		"PYTHONUNBUFFERED": true, "PYTHONDONTWRITEBYTECODE": true,
		"PYTEST_DISABLE_PLUGIN_AUTOLOAD": true, "PYTEST_DEBUG": true,
		"ANTHROPIC_API_KEY": true,
		"LANG":              true, "LANGUAGE": true, "LC_ALL": true, "LC_CTYPE": true, "LC_TIME": true, "CHARSET": true,
		"TERM": true, "COLORTERM": true, "NO_COLOR": true, "FORCE_COLOR": true, "TZ": true,
		"LS_COLORS": true, "LSCOLORS": true, "GREP_COLOR": true, "GREP_COLORS": true, "GCC_COLORS": true,
		"TIME_STYLE": true, "BLOCK_SIZE": true, "BLOCKSIZE": true,
	}
})

// codeRunnerEnv are variables that make an ordinary program run other
// code (a pager, an editor, a preloaded library, a startup script).
var codeRunnerEnv = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"PAGER": true, "GIT_PAGER": true, "MANPAGER": true, "SYSTEMD_PAGER": true, "LESSOPEN": true, "LESSCLOSE": true,
		"GIT_SSH_COMMAND": true, "GIT_SSH": true, "GIT_EDITOR": true, "GIT_SEQUENCE_EDITOR": true,
		"GIT_EXTERNAL_DIFF": true, "GIT_ASKPASS": true, "SSH_ASKPASS": true, "GIT_PROXY_COMMAND": true,
		"GIT_EXEC_PATH": true, "GIT_DIR": true, "GIT_WORK_TREE": true, "GIT_TEMPLATE_DIR": true,
		"EDITOR": true, "VISUAL": true, "BROWSER": true,
		"LD_PRELOAD": true, "LD_LIBRARY_PATH": true, "LD_AUDIT": true,
		"NODE_OPTIONS": true, "NODE_PATH": true,
		"PYTHONPATH": true, "PYTHONSTARTUP": true, "PYTHONHOME": true, "PYTHONINSPECT": true, "PYTHONWARNINGS": true,
		"PERL5OPT": true, "PERL5LIB": true, "PERLLIB": true, "RUBYOPT": true, "RUBYLIB": true,
		"BASH_ENV": true, "ENV": true, "PROMPT_COMMAND": true, "SHELLOPTS": true, "BASHOPTS": true,
		"PS4": true, "IFS": true, "PATH": true, "HOME": true, "ZDOTDIR": true, "SHELL": true, "TMPDIR": true,
		"XDG_CONFIG_HOME": true, "GOFLAGS": true, "GOTOOLCHAIN": true, "GOPROXY": true, "RUSTFLAGS": true,
		"RUSTC_WRAPPER": true, "RUSTC": true, "CC": true, "CXX": true, "JAVA_TOOL_OPTIONS": true,
		"_JAVA_OPTIONS": true, "JDK_JAVA_OPTIONS": true, "MAVEN_OPTS": true, "GRADLE_OPTS": true,
		"GCONV_PATH": true, "RIPGREP_CONFIG_PATH": true, "KUBECONFIG": true, "DOCKER_HOST": true,
		"PROMPT": true, "PS1": true, "COMSPEC": true, "PATHEXT": true,
	}
})

// codeRunnerPrefixes are families of such variables.
var codeRunnerPrefixes = []string{"GIT_CONFIG", "DYLD_", "LD_", "NPM_CONFIG_", "CARGO_", "BASH_FUNC_", "PYTHON"}

// isCodeRunnerEnv reports a variable that can make a program run code.
func isCodeRunnerEnv(name string) bool {
	if codeRunnerEnv()[name] {
		return true
	}
	up := strings.ToUpper(name)
	if codeRunnerEnv()[up] {
		return true
	}
	for _, p := range codeRunnerPrefixes {
		if strings.HasPrefix(up, p) && !safeEnv()[name] {
			return true
		}
	}
	return false
}
