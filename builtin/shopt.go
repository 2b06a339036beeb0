package builtin

import (
	"fmt"

	"github.com/chainrun/chainrun/builtin/spec"
)

// shopt sets, unsets or reports the options that change globbing
// (spec.Shopt), with bash's output and statuses: -q and a plain report
// give 1 when a named option is off. What chainrun does not carry out
// fails with status 1, as an invalid name does in bash. In a pipeline
// stage it changes nothing.
func shopt(io *IO, args []string, st State, inPipeline bool) int {
	if len(args) > 0 && args[0] == "--help" {
		return help(io, "shopt [-pqsu] [optname ...]", "Set (-s), unset (-u) or report the options that change globbing.")
	}
	a, err := spec.Shopt(args)
	if err != nil {
		if err.Invalid {
			return io.fail(1, "shopt: "+err.Error())
		}
		return io.fail(1, "shopt: "+err.Error())
	}
	o := st.Options()
	switch a.Mode {
	case 's', 'u':
		if !inPipeline {
			for _, n := range a.Names {
				o.Glob.Set(n, a.Mode == 's')
			}
		}
		return 0
	}
	code := 0
	for _, n := range a.Names {
		on := o.Glob.Get(n)
		if !on {
			code = 1
		}
		switch a.Mode {
		case 'p':
			flag := "-u"
			if on {
				flag = "-s"
			}
			io.write(1, []byte("shopt "+flag+" "+n+"\n"))
		case 0:
			state := "off"
			if on {
				state = "on"
			}
			io.write(1, []byte(fmt.Sprintf("%-15s\t%s\n", n, state)))
		}
	}
	return code
}
