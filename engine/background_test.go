package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/tools"
)

// TestBackgroundBypass: & hides nothing from the policy. A background
// pipeline is judged with the chain before anything runs and again as it
// starts; with every question approved each form is denied, and nothing
// it names is touched.
func TestBackgroundBypass(t *testing.T) {
	cases := []bypassCase{
		{cmd: `rm -rf x &`, victim: "x"},
		{cmd: `rm -rf x & wait`, victim: "x"},
		{cmd: `echo hi & rm -rf x`, victim: "x"},
		{cmd: `echo hi | rm -rf x &`, victim: "x"},
		{cmd: `true & $(echo rm) -rf x &`, victim: "x"},
		{cmd: `c=rm; $c -rf y & wait $!`, victim: "y"},
		{cmd: `cat .env > out &`},
		{cmd: `echo pwned > ~/.bashrc &`},
		{cmd: `nohup rm -rf x > log 2>&1 &`, victim: "x"},
	}
	for _, c := range cases {
		t.Run(c.cmd, func(t *testing.T) { checkBypass(t, c) })
	}
}

// TestBackgroundPlan: a background pipeline is a subshell in the plan as
// in the run (its cd and assignments change nothing after it), and $! is
// known only at run time.
func TestBackgroundPlan(t *testing.T) {
	dir := expandDir(t, "sub/")
	ch, err := chain.ParseDialect(`cd sub & V=1 & echo $V $! > f`, chain.POSIX)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := Plan(ch, Options{Dir: dir, Dialect: chain.POSIX})
	if err != nil {
		t.Fatal(err)
	}
	last := plan.Pipelines[2].Segments[0]
	if last.Dir != dir || len(last.Words[1].Fields) != 0 || !last.Words[2].Runtime {
		t.Errorf("planned in %q, words %+v: want %q, $V empty and $! known at run time", last.Dir, last.Words, dir)
	}
	res, err := RunString(context.Background(), `cd sub & V=1 & wait; echo "[$V]" $! | first-line; pwd`, Options{Dir: dir, Dialect: chain.POSIX,
		Env: []string{"PATH=" + testprog.BinDir() + string(os.PathListSeparator) + os.Getenv("PATH")}})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(res.Stdout), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "[] ") || len(lines[0]) < 4 || lines[1] != dir {
		t.Errorf("stdout %q: want [] and a pid, then %s", res.Stdout, dir)
	}
}

// TestNohupTool: where no nohup program is found (Windows), chainrun's
// own runs its command, so the form agents start servers with works.
func TestNohupTool(t *testing.T) {
	dir := testprog.TempDir(t)
	env := []string{"PATH=" + testprog.BinDir() + string(os.PathListSeparator) + os.Getenv("PATH")}
	res, err := RunString(context.Background(), `nohup echo-argv hi > log 2>&1 & wait $!; echo $?; nohup; echo $?`,
		Options{Dir: dir, Env: env, Dialect: chain.POSIX, Tools: tools.ModeAlways})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Stdout) != "0\n125\n" || !strings.Contains(string(res.Stderr), "nohup: missing operand") {
		t.Errorf("stdout %q stderr %q", res.Stdout, res.Stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "log")); string(b) != "hi\n" {
		t.Errorf("log %q", b)
	}
}

// TestBackgroundReadsItsStart: a built-in or a compound run in the
// background reads the chain's state as the pipeline started, while the
// chain goes on changing its own (under -race: no shared writes).
func TestBackgroundReadsItsStart(t *testing.T) {
	dir := expandDir(t)
	for _, c := range []struct{ cmd, out string }{
		{`x=1; echo $x $? & x=2; false; wait; echo $x`, "1 0\n2\n"},
		{`x=1; { echo $x; for i in a b; do echo $i$x; done; } & x=2; true & wait; echo $x`, "1\na1\nb1\n2\n"},
		{`x=1; echo $x | cat & x=2; wait`, "1\n"},
	} {
		res, err := RunString(context.Background(), c.cmd, Options{Dir: dir, Dialect: chain.POSIX,
			Env: []string{"PATH=" + testprog.BinDir() + string(os.PathListSeparator) + os.Getenv("PATH")}})
		if err != nil {
			t.Fatalf("%s: %v", c.cmd, err)
		}
		if string(res.Stdout) != c.out {
			t.Errorf("%s: stdout %q, want %q", c.cmd, res.Stdout, c.out)
		}
	}
}
