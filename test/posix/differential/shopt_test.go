//go:build unix

package differential

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// shoptSeed is the shopt suite's default seed.
const shoptSeed = 19

// trickyShopts are hand-written chains with the shopt options chainrun
// runs, compared with bash.
var trickyShopts = []runCase{
	{Src: `shopt -s globstar; echo **/*.txt`}, {Src: `shopt -s globstar; echo sub/**`}, {Src: `shopt -s globstar; echo **`},
	{Src: `shopt -s nullglob; echo *.nomatch x; echo $?`}, {Src: `shopt -s nullglob; wc -l *.none < nums`},
	{Src: `printf x > .dotf; echo *; shopt -s dotglob; echo *; echo sub/*`}, {Src: `shopt -s nocaseglob; echo A* N*`},
	{Src: `shopt -q globstar; echo $?; shopt -s globstar; shopt -q globstar; echo $?`},
	{Src: `shopt globstar nullglob; echo $?; shopt -s nullglob; shopt globstar nullglob; echo $?`},
	{Src: `shopt -p dotglob; shopt -s dotglob; shopt -p dotglob`}, {Src: `shopt -s nosuch; echo $?`},
	{Src: `shopt -s globstar; shopt -u globstar; echo **/*.txt`}, {Src: `shopt -s nullglob | cat; echo *.none`},
	{Src: `shopt -s globstar dotglob; printf x > sub/.d; echo **/.d **/*`}, {Src: `shopt -s nullglob; echo "*.none" *.none`},
	{Src: `shopt -s globstar; echo $(echo **/c.txt) <(true)`},
}

// TestShoptDifferentialTable runs the hand-written shopt chains.
func TestShoptDifferentialTable(t *testing.T) {
	runSuite(t, "shopt table", 0, len(trickyShopts), stderrText, func(i int) runCase { return trickyShopts[i] })
}

// TestShoptDifferential runs generated chains that turn the glob options
// on and off between globs.
func TestShoptDifferential(t *testing.T) {
	seed, n := seedAndCount(t, shoptSeed, 150)
	runSuite(t, "shopt", seed, n, stderrText, func(i int) runCase {
		r := rand.New(rand.NewPCG(seed^0x5407, 0x94d049bb133111eb^uint64(i)))
		var b strings.Builder
		b.WriteString("printf x > .dot; printf y > sub/.in")
		globstar := false // ** is written only after shopt -s globstar
		for range 2 + r.IntN(4) {
			b.WriteString(pick(r, "; ", " && "))
			if r.IntN(2) == 0 {
				on := pick(r, "-s", "-u")
				opt := pick(r, "globstar", "nullglob", "dotglob", "nocaseglob", "globstar nullglob")
				globstar = globstar || on == "-s" && strings.HasPrefix(opt, "globstar")
				b.WriteString("shopt " + on + " " + opt)
				continue
			}
			pats := []string{"*", "sub/*", "*.none", "A*", ".*", "S*/*"}
			if globstar {
				pats = append(pats, "**", "**/*.txt", "sub/**", "**/.in")
			}
			b.WriteString(pick(r, "echo", "ls -d", "printf '<%s>'") + " " + pick(r, pats...) + "; echo")
		}
		return runCase{Src: b.String()}
	})
}
