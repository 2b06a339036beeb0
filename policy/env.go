package policy

import "strings"

// isSafeEnv reports the variables the allow view strips: they change
// output format or locale, never which code runs.
func isSafeEnv(name string) bool {
	switch name {
	case "GOEXPERIMENT", "GOOS", "GOARCH", "CGO_ENABLED", "GO111MODULE",
		"RUST_BACKTRACE", "RUST_LOG",
		"NODE_ENV",
		"PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE",
		"PYTEST_DISABLE_PLUGIN_AUTOLOAD", "PYTEST_DEBUG",
		"ANTHROPIC_API_KEY",
		"LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_TIME", "CHARSET",
		"TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "TZ",
		"LS_COLORS", "LSCOLORS", "GREP_COLOR", "GREP_COLORS", "GCC_COLORS",
		"TIME_STYLE", "BLOCK_SIZE", "BLOCKSIZE":
		return true
	}
	return false
}

// isCodeRunnerName reports, by exact name, variables that make an
// ordinary program run other code (a pager, an editor, a preloaded
// library, a startup script).
func isCodeRunnerName(name string) bool {
	switch name {
	case "PAGER", "GIT_PAGER", "MANPAGER", "SYSTEMD_PAGER", "LESSOPEN", "LESSCLOSE",
		"GIT_SSH_COMMAND", "GIT_SSH", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR",
		"GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_PROXY_COMMAND",
		"GIT_EXEC_PATH", "GIT_DIR", "GIT_WORK_TREE", "GIT_TEMPLATE_DIR",
		"EDITOR", "VISUAL", "BROWSER",
		"LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT",
		"NODE_OPTIONS", "NODE_PATH",
		"PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "PYTHONINSPECT", "PYTHONWARNINGS",
		"PERL5OPT", "PERL5LIB", "PERLLIB", "RUBYOPT", "RUBYLIB",
		"BASH_ENV", "ENV", "PROMPT_COMMAND", "SHELLOPTS", "BASHOPTS",
		"PS4", "IFS", "PATH", "HOME", "ZDOTDIR", "SHELL", "TMPDIR",
		"XDG_CONFIG_HOME", "GOFLAGS", "GOTOOLCHAIN", "GOPROXY", "RUSTFLAGS",
		"RUSTC_WRAPPER", "RUSTC", "CC", "CXX", "JAVA_TOOL_OPTIONS",
		"_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "MAVEN_OPTS", "GRADLE_OPTS",
		"GCONV_PATH", "RIPGREP_CONFIG_PATH", "KUBECONFIG", "DOCKER_HOST",
		"PROMPT", "PS1", "COMSPEC", "PATHEXT":
		return true
	}
	return false
}

// codeRunnerPrefixes are families of such variables.
var codeRunnerPrefixes = [...]string{"GIT_CONFIG", "DYLD_", "LD_", "NPM_CONFIG_", "CARGO_", "BASH_FUNC_", "PYTHON"}

// isCodeRunnerEnv reports a variable that can make a program run code: by
// name in any case (Windows variables are case-insensitive), or by family
// unless it is a safe one (PYTHONUNBUFFERED).
func isCodeRunnerEnv(name string) bool {
	if isCodeRunnerName(name) {
		return true
	}
	up := strings.ToUpper(name)
	if isCodeRunnerName(up) {
		return true
	}
	for _, p := range codeRunnerPrefixes {
		if strings.HasPrefix(up, p) && !isSafeEnv(name) {
			return true
		}
	}
	return false
}
