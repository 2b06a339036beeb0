package builtin

import (
	"strconv"

	"github.com/chainrun/chainrun/chain"
)

// Looper is the State of a run inside loops, which break and continue act
// on. A State that is none runs outside every loop.
type Looper interface {
	// Loops is how many loops the run is inside.
	Loops() int
	// Jump leaves n loops (continue: goes on with the n-th one's next
	// iteration) after this segment.
	Jump(cont bool, n int)
}

// loopJump runs break and continue as bash does: n loops (default 1,
// clamped to those it is inside); outside a loop it only warns; a count
// below 1 leaves every loop with status 1; a count that is no number, or
// more than one, ends the chain, as it ends bash.
func loopJump(io *IO, b chain.Builtin, args []string, c Call, st State) int {
	n, code := 1, 0
	switch {
	case len(args) > 1:
		st.Exit()
		return io.fail(1, string(b)+": too many arguments")
	case len(args) == 1:
		v, err := strconv.Atoi(args[0])
		if err != nil {
			st.Exit()
			return io.fail(128, string(b)+": "+args[0]+": numeric argument required")
		}
		n = v
	}
	lp, ok := st.(Looper)
	if !ok || lp.Loops() == 0 {
		return io.fail(0, string(b)+": only meaningful in a `for', `while', or `until' loop")
	}
	cont := b == chain.BuiltinContinue
	if n < 1 {
		// bash leaves every loop it is in, with status 1.
		code = io.fail(1, string(b)+": "+args[0]+": loop count out of range")
		n, cont = lp.Loops(), false
	}
	if !c.InPipeline {
		lp.Jump(cont, n)
	}
	return code
}
