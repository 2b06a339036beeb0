//go:build unix

package engine

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
)

// TestLikeBash runs each chain under bash and under Run, in the same
// fresh directory and environment, and requires the same stdout, status
// and stderr (without the shells' prefixes): printf's and test's
// directives and operators as bash's built-ins have them, and cd, echo
// and --help as bash does. Rows marked statusOnly compare the status
// (their text is chainrun's own, as help texts).
func TestLikeBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	for _, tt := range []struct {
		name, cmd, locale string
		statusOnly        bool
	}{
		{"printf %s", `printf '%s|%5s|%-5s|%.2s\n' a b c def`, "C", false},
		{"printf reuses the format", `printf '%s-%s\n' a b c`, "C", false},
		{"printf integers", `printf '%d %i %o %u %x %X %#x %#o %+d % d %05d %.3d\n' 42 -7 8 -1 255 255 255 8 5 5 42 7`, "C", false},
		{"printf number forms", `printf '%d|' 0x1F 017 "'A" ' 12' 12abc '' 08 0xg 99999999999999999999`, "C", false},
		{"printf floats", `printf '%e %E %f %g %G %.3f %a %A %#g %g\n' 1.5 1.5 1.5 0.0001 1e20 3.14159 1 255 1.5 100000`, "C", false},
		{"printf inf nan", `printf '%f %e %5.1f|\n' inf -inf nan`, "C", false},
		{"printf star", `printf '%*d|%-*.*f|\n' 5 42 8 2 3.14159`, "C", false},
		{"printf %c", `printf '%c%c|%3c|\n' hello é x`, "C.UTF-8", false},
		{"printf %b", `printf '%b|' 'a\nb' '\0101\x41\101' 'x\cy'; printf after`, "C", false},
		{"printf %q", `printf '%q ' 'a b' '' "it's" é '~x' 'a*' '#a' a# = x=y ! a,b 'tab	x'`, "C", false},
		{"printf %q utf8", `printf '%q %Q %.1Q|' é 'a b' 'a b'`, "C.UTF-8", false},
		{"printf %T", `TZ=UTC printf '%(%Y-%m-%d %H:%M:%S %j %a %b %e %Z %z)T\n' 86400`, "C", false},
		{"printf %b kept escapes", `printf '%b|' '\?' '\"' "\\'" '\101' '\q' '\18' '\1234'`, "C", false},
		{"printf format escapes", `printf '\?|\"|\'"'"'|\101|\0101|\q|\c|\18\n'`, "C", false},
		{"printf missing digits", `printf '%b|\x|\u|' '\x' '\U' '\xq'; echo " $?"`, "C", false},
		{"echo -e escapes", `echo -e '\?|\"|\101|\0101|\x|\u|\q|\18|\c|after'; echo -e 'a\0b'`, "C", false},
		{"printf escapes", `printf '\101\x41\u00e9\t\\\"\n'`, "C.UTF-8", false},
		{"printf bad directive", `printf 'a%kb'`, "C", false},
		{"printf missing directive", `printf 'ab%'`, "C", false},
		{"printf usage", `printf`, "C", false},
		{"printf invalid option", `printf -x`, "C", false},
		{"printf --", `printf -- '%s\n' -x`, "C", false},
		{"printf in a pipeline", `printf '%s\n' b a | sort`, "C", false},
		{"test -v", `V=1 test -v V && [ -v V ] || echo unset; [ -v NOPE_XYZ ] || echo nope`, "C", false},
		{"test string order", `test a \< b && [ b \> a ] && [ a == a ] && echo ok`, "C", false},
		{"test files", `[ -d / -a -f /etc/passwd ] && [ ! -e /nonexistent ] && test -r /etc/passwd && echo ok`, "C", false},
		{"test integers", `[ 1 -lt 2 ] && [ " 3 " -eq 3 ] && [ -1 -gt -2 ] && echo ok; [ a -eq 1 ]`, "C", false},
		{"test argument counts", `[ ]; test; [ -n ]; [ ! ]; [ -z -a -z ]; [ a = ]; test 1 2; [ a b c d e ]`, "C", false},
		{"test parens and not", `[ \( -d / \) ] && [ ! ! -d / ] && test '(' a ')' && echo ok; [ -x a b ]`, "C", false},
		{"test -o", `[ a -o '' ] && [ -o braceexpand ] && echo ok; [ -o errexit ] || echo off`, "C", false},
		{"test -t", `[ -t 1 ] || echo no; [ ! -t 5 -o -t ]`, "C", false},
		{"test missing ]", `[ a`, "C", false},
		{"cd //", `cd // && pwd && cd tmp && pwd; cd /// && pwd; cd //tmp/.. && pwd`, "C", false},
		{"echo surrogate", `echo -e '\ud800|\udfff|\U110000|\U200000|\U7FFFFFFF|\U80000000|'`, "C.UTF-8", false},
		{"cd --help", `cd --help`, "C", true},
		{"pwd --help", `pwd --help`, "C", true},
		{"exit --help", `exit --help; echo after`, "C", true},
		{"printf --help", `printf --help`, "C", true},
		{"CDPATH", `mkdir -p a/sub b && CDPATH=a cd sub && pwd && cd ../.. && CDPATH=:a cd b && pwd`, "C", false},
		{"CDPATH dot", `mkdir -p a/sub b && CDPATH=.:a cd b && pwd; CDPATH=/nonexistent cd a && pwd`, "C", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir, err := filepath.EvalSymlinks(testprog.TempDir(t))
			if err != nil {
				t.Fatal(err)
			}
			env := []string{"PATH=/usr/bin:/bin", "LC_ALL=" + tt.locale, "HOME=" + dir, "PWD=" + dir}
			cmd := exec.Command(bash, "-c", tt.cmd)
			cmd.Args[0] = "bash" // its messages start "bash: line 1: "
			cmd.Dir, cmd.Env = dir, env
			var bout, berr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &bout, &berr
			bstatus := 0
			if err := cmd.Run(); err != nil {
				ee, ok := err.(*exec.ExitError)
				if !ok {
					t.Fatal(err)
				}
				bstatus = ee.ExitCode()
			}
			os.RemoveAll(filepath.Join(dir, "a"))
			os.RemoveAll(filepath.Join(dir, "b"))
			res, err := RunString(context.Background(), tt.cmd, Options{Dir: dir, Env: env, Dialect: "posix"})
			if err != nil {
				t.Fatal(err)
			}
			cout := string(res.Stdout)
			bashErr := strings.ReplaceAll(berr.String(), "bash: line 1: ", "")
			ourErr := strings.ReplaceAll(string(res.Stderr), "chainrun: ", "")
			if res.ExitCode != bstatus || !tt.statusOnly && (cout != bout.String() || ourErr != bashErr) {
				t.Errorf("%s\n bash:     status %d stdout %q stderr %q\n chainrun: status %d stdout %q stderr %q",
					tt.cmd, bstatus, bout.String(), bashErr, res.ExitCode, cout, ourErr)
			}
		})
	}
}

// TestPrintfV: printf -v assigns the output to a chain variable, as
// bash's does, and refuses a name that is not one.
func TestPrintfV(t *testing.T) {
	res := run(t, `printf -v x '%s-%s' a b; echo "[$x]"; printf -vy %d 5; echo $y; printf -v 1bad x; echo $?`, Options{Dialect: chain.POSIX})
	want := "chainrun: printf: `1bad': not a valid identifier\n"
	if string(res.Stdout) != "[a-b]\n5\n2\n" || string(res.Stderr) != want {
		t.Errorf("status %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
}
