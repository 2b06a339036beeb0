package engine

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/chain"
)

// TestCompoundBypass: a command inside an if, a loop, a case, a group or
// a subshell is judged as it would be written out, before the run and
// again each time it starts: under a deny rule for rm, each form is
// judged stricter than allow before the run, and run with every question
// approved it is denied before x is touched.
func TestCompoundBypass(t *testing.T) {
	cases := []bypassCase{
		{cmd: `for c in rm; do $c -rf x; done`, planDeny: true},
		{cmd: `if true; then rm -rf x; fi`, planDeny: true},
		{cmd: `if rm -rf x; then echo no; fi`, planDeny: true},
		{cmd: `while true; do rm -rf x; done`, planDeny: true},
		{cmd: `until false; do rm -rf x; done`, planDeny: true},
		{cmd: `case x in x) rm -rf x;; esac`, planDeny: true},
		{cmd: `{ rm -rf x; }`, planDeny: true},
		{cmd: `( rm -rf x )`, planDeny: true},
		{cmd: `! rm -rf x`, planDeny: true},
		{cmd: `echo a | while read l; do rm -rf x; done`, planDeny: true},
		{cmd: `for ((i=0; i<2; i++)); do rm -rf x; done`, planDeny: true},
		{cmd: `for f in $(rm -rf x); do echo $f; done`, planDeny: true},
		{cmd: `for c in $(echo rm); do $c -rf x; done`},
		{cmd: `while read c; do $c -rf x; done <<< rm`},
		{cmd: `c=echo; for i in 1 2; do $c x; c=rm; done`, out: "x\n"},
		{cmd: `case rm in *) c=rm;; esac; $c -rf x`},
		{cmd: `{ c=$(printf rm); }; $c -rf x`},
	}
	for _, c := range cases {
		c.victim = "x"
		t.Run(c.cmd, func(t *testing.T) { checkBypass(t, c) })
	}
}

// TestCompoundState: the parts of a compound share the chain's state,
// except a subshell's and a pipeline stage's; statuses are bash's.
func TestCompoundState(t *testing.T) {
	dir := expandDir(t, "sub/")
	for _, c := range []struct{ cmd, out string }{
		{`for f in a b; do x=$f; done; echo $x`, "b\n"},
		{`{ cd sub; }; pwd`, filepath.Join(dir, "sub") + "\n"},
		{`(cd sub); pwd`, dir + "\n"},
		{`(x=1); echo "[$x]"`, "[]\n"},
		{`echo a | while read x; do y=$x; done; echo "[$y]"`, "[]\n"},
		{`if false; then :; fi; echo $?`, "0\n"},
		{`while false; do :; done; echo $?`, "0\n"},
		{`for i in; do :; done; echo $?`, "0\n"},
		{`if false; then :; else echo $?; fi`, "1\n"},
		{`! true; echo $?; ! false; echo $?`, "1\n0\n"},
		{`for i in 1 2 3; do for j in a b; do [ $j = b ] && continue 2; echo $i$j; done; done`, "1a\n2a\n3a\n"},
		{`for i in 1 2; do break 5; done; echo $i`, "1\n"},
		{`break; echo $?`, "0\n"},
		{`set -e; if false; then :; fi; false || echo tested; echo on`, "tested\non\n"},
		{`set -e; while false; do :; done; { false; echo no; }; echo no`, ""},
		{`set -e; { false; echo yes; } || echo or`, "yes\n"},
		{`{ exit 3; }; echo no`, ""},
		{`(exit 3); echo $?`, "3\n"},
		{`case a.go in *.txt) echo t;; *.go) echo go;& x) echo fell;; y) echo no;; esac`, "go\nfell\n"},
		{`case "*" in '*') echo lit;; esac; case x in "*") echo no;; *) echo star;; esac`, "lit\nstar\n"},
		{`for ((i=0; i<3; i++)); do printf $i; done; echo " $i"`, "012 3\n"},
		{`{ echo a; echo b; } | wc -l`, "2\n"},
		{`set -- a b c; while [ $# -gt 0 ]; do printf $1; shift; done; echo " $#"`, "abc 0\n"},
		{`set -- a; if true; then set -- p q; fi; echo $# $2`, "2 q\n"},
		{`set -- a b; (shift); echo $#`, "2\n"},
		{`set -- x y; for a in "$@"; do printf $a; done; echo`, "xy\n"},
		{`{ echo in; } > o.txt; cat o.txt`, "in\n"},
		{`printf 'a\nb\n' > l.txt; while read -r l; do echo "<$l>"; done < l.txt`, "<a>\n<b>\n"},
		{`echo a | for f in $(echo x y); do echo $f; done | wc -l`, "2\n"},
		{`for i in 1 2; do (break); echo $i; done`, "1\n2\n"},
	} {
		res, err := RunString(context.Background(), c.cmd, Options{Dir: dir})
		if err != nil {
			t.Errorf("%s: %v", c.cmd, err)
			continue
		}
		if got := strings.TrimSpace(string(res.Stdout)); got != strings.TrimSpace(c.out) {
			t.Errorf("%s: stdout %q, want %q (stderr %q)", c.cmd, res.Stdout, c.out, res.Stderr)
		}
	}
}

// TestCompoundTimeout: a loop that never ends stops with the chain's
// timeout, whether it runs programs or built-ins only.
func TestCompoundTimeout(t *testing.T) {
	for _, cmd := range []string{`while true; do :; done`, `while true; do sleep 1; done`, `for ((;;)); do true; done`} {
		start := time.Now()
		res, err := RunString(context.Background(), cmd, Options{Timeout: 300 * time.Millisecond, Grace: 300 * time.Millisecond})
		if !errors.Is(err, chain.ErrTimeout) {
			t.Errorf("%s: err %v, want a timeout", cmd, err)
		}
		if res == nil || res.ExitCode != 124 {
			t.Errorf("%s: result %+v", cmd, res)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s: took %v", cmd, d)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	if _, err := RunString(ctx, `while :; do :; done`, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled loop: err %v", err)
	}
}
