//go:build unix

package differential

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// paramsSeed is the positional-parameter suite's default seed.
const paramsSeed = 10

// trickyParams are hand-written chains with positional parameters,
// compared with bash (and dash, where POSIX).
var trickyParams = []runCase{
	{Src: `set -- a b c; shift 2; echo $# $@`}, {Src: `set -- "a b" c; printf "<%s>" "$@" $@ "$*" $*; echo`},
	{Src: `set -- 1 2 3 4 5 6 7 8 9 10 11; echo $10 ${10} ${11} $#`}, {Src: `set -u; set -- a; echo $1 $2; echo after`},
	{Src: `set -- a b; echo $1 | cat; shift | cat; echo $1`}, {Src: `set -- x y; echo $(echo $2) ${#1}`},
	{Src: `shift; echo $?`}, {Src: `set -- a; shift 2; echo $? $1`}, {Src: `set -- a; shift x; echo $?`},
	{Src: `set -- a; shift -1; echo $?`}, {Src: `set -- a b; shift 1 2; echo $?`}, {Src: `set --; echo $# "[$*]"`},
	{Src: `set -e a b; echo $1 $#`}, {Src: `set -- '*.txt' sub; echo $1; echo "$1"; ls $2`},
	{Src: `set -- a b; IFS=:; echo "$*"`}, {Src: `set -- "" ""; echo $#; printf '<%s>' "$@" $@; echo`},
	{Src: `false && set -- x; echo $# $1`}, {Src: `set -- a.txt nums; cat "$@" | wc -l`},
	{Src: `set -- a b c; shift; shift; shift; shift; echo $? $#`}, {Src: `set -- ${X:-d e}; echo $#`},
	{Src: `set -- a b; echo "${@:2}" "${1:-none}" "${3:-none}"`},
}

// TestParamsDifferentialTable runs the hand-written chains.
func TestParamsDifferentialTable(t *testing.T) {
	runSuite(t, "params table", 0, len(trickyParams), stderrText, func(i int) runCase { return tableCase(trickyParams[i]) })
}

// TestParamsDifferential runs generated chains of set --, shift and the
// positional parameters in every form.
func TestParamsDifferential(t *testing.T) {
	seed, n := seedAndCount(t, paramsSeed, 200)
	runSuite(t, "params", seed, n, stderrText, func(i int) runCase {
		r := rand.New(rand.NewPCG(seed^0x7a3, 0xd1b54a32d192ed03^uint64(i)))
		return paramsChain(r)
	})
}

var paramWords = []string{"a", "'b c'", `""`, "'*.txt'", "sub", "-n", "x y", "$X", "a.txt"}

var paramUses = []string{`echo $1 $2`, `echo "$1" "$3"`, `echo $#`, `printf '<%s>' "$@"; echo`, `printf '<%s>' $@; echo`,
	`echo "$*"`, `echo $*`, `echo ${1:-none} ${#2}`, `echo "${@:2}"`, `echo ${10:-ten}`, `cat $1 2>/dev/null; echo $?`}

func paramsChain(r *rand.Rand) runCase {
	var b strings.Builder
	b.WriteString("X='p q'; set --")
	for range r.IntN(5) {
		b.WriteString(" " + pick(r, paramWords...))
	}
	for range 1 + r.IntN(4) {
		switch r.IntN(4) {
		case 0:
			b.WriteString("; shift" + pick(r, "", " 0", " 1", " 2", " 5") + "; echo $?")
		default:
			b.WriteString(pick(r, "; ", " && ", " || ") + pick(r, paramUses...))
		}
	}
	src := b.String()
	return runCase{Src: src, POSIX: !strings.Contains(src, "${@:") && !strings.Contains(src, "${#")}
}
