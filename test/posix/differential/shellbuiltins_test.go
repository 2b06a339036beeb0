//go:build unix

package differential

import "testing"

// trickyShellBuiltins are hand-written chains with the built-ins that
// keep shell state (read -p, pushd, popd, dirs, local), compared with
// bash.
var trickyShellBuiltins = []runCase{
	{Src: `read -p "Continue? " answer <<< yes; echo "[$answer]"`}, {Src: `read -rp 'x> ' a b < b.txt; echo "$a|$b"`},
	{Src: `echo hi | read -p ">" x; echo "[$x]"`},
}

// TestShellBuiltinsDifferentialTable runs the hand-written chains.
func TestShellBuiltinsDifferentialTable(t *testing.T) {
	runSuite(t, "shell built-ins table", 0, len(trickyShellBuiltins), stderrText, func(i int) runCase { return trickyShellBuiltins[i] })
}
