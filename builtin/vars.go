package builtin

import (
	"strings"

	"github.com/chainrun/chainrun/builtin/spec"
	"github.com/chainrun/chainrun/chain"
)

// The built-ins that change the chain's variables. In a pipeline stage
// they change nothing after it, as in bash's subshell.

// assign runs a segment of NAME=value words alone (and printf -v).
func assign(as []chain.Assign, st State, inPipeline bool) int {
	if inPipeline {
		return 0
	}
	sh := st.Shell()
	for _, a := range as {
		sh.Assign(a.Name, a.Value)
	}
	st.Keep(sh)
	return 0
}

// export runs export NAME[=value]….
func export(io *IO, args []string, st State, inPipeline bool) int {
	sh, code := st.Shell(), 0
	for _, a := range args {
		name, value, set := strings.Cut(a, "=")
		if !spec.ValidName(name) {
			code = io.fail(1, "export: `"+a+"': not a valid identifier")
			continue
		}
		sh.Export(name, value, set)
	}
	if !inPipeline {
		st.Keep(sh)
	}
	return code
}

// unset runs unset [-v] NAME….
func unset(io *IO, args []string, st State, inPipeline bool) int {
	sh, code := st.Shell(), 0
	for i, a := range args {
		if i == 0 && (a == "-v" || a == "--") {
			continue
		}
		if !spec.ValidName(a) {
			code = io.fail(1, "unset: `"+a+"': not a valid identifier")
			continue
		}
		sh.Unset(a)
	}
	if !inPipeline {
		st.Keep(sh)
	}
	return code
}
