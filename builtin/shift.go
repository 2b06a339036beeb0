package builtin

import "strconv"

// shift drops the first n positional parameters (1 without n), as bash's
// shift: a count above $# changes nothing and fails with status 1
// silently; a word that is no number, or a negative count, fails with
// bash's message. In a pipeline stage it changes nothing.
func shift(io *IO, args []string, st State, inPipeline bool) int {
	if len(args) > 0 && args[0] == "--help" {
		return help(io, "shift [n]", "Drop the first N positional parameters (default 1).")
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	n := 1
	if len(args) > 1 {
		// bash ends the shell here, as it does for a special built-in's
		// usage error.
		st.Exit()
		return io.fail(1, "shift: too many arguments")
	}
	if len(args) == 1 {
		v, err := strconv.Atoi(args[0])
		if err != nil {
			return io.fail(1, "shift: "+args[0]+": numeric argument required")
		}
		if v < 0 {
			return io.fail(1, "shift: "+args[0]+": shift count out of range")
		}
		n = v
	}
	sh := st.Shell()
	if n > len(sh.Params) {
		return 1
	}
	if !inPipeline {
		sh.Params = sh.Params[n:]
		st.Keep(sh)
	}
	return 0
}
