//go:build unix

package differential

import "testing"

// trickyShellBuiltins are hand-written chains with the built-ins that
// keep shell state (read -p, ${X:=word}), compared with bash.
var trickyShellBuiltins = []runCase{
	{Src: `read -p "Continue? " answer <<< yes; echo "[$answer]"`}, {Src: `read -rp 'x> ' a b < b.txt; echo "$a|$b"`},
	{Src: `echo hi | read -p ">" x; echo "[$x]"`},
	{Src: `echo ${API_URL:=http://localhost:8000}; echo $API_URL`}, {Src: `X=; echo ${X:=a} ${X=b} $X; echo ${Y=} "[$Y]" ${Y:=c}`},
	{Src: `echo ${Z:=z} | cat; echo "[$Z]"`}, {Src: `W=$(echo ${Q:=q}); echo "$W [$Q]"`},
	{Src: `echo "${S:=a b}"; printf '<%s>' $S; echo`}, {Src: `false || echo ${O:=o}; echo $O`}, {Src: `true || echo ${O:=o}; echo "[$O]"`},
	{Src: `N=5; echo ${N:=9} $((N+1))`}, {Src: `echo ${G:=*.txt}; echo $G`},
}

// TestShellBuiltinsDifferentialTable runs the hand-written chains.
func TestShellBuiltinsDifferentialTable(t *testing.T) {
	runSuite(t, "shell built-ins table", 0, len(trickyShellBuiltins), stderrText, func(i int) runCase { return trickyShellBuiltins[i] })
}
