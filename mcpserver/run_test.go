package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chainrun/chainrun/environ"
	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestToolsList: the tools, their annotations and declared output schemas
// are the contract.
func TestToolsList(t *testing.T) {
	c := connect(t, Config{}, nil, "")
	res, err := c.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		got[tool.Name] = tool
	}
	for _, tc := range []struct {
		name      string
		readOnly  bool
		destroys  bool
		outFields []string
	}{
		{"run", false, true, []string{"exit_code", "stdout", "segments", "error", "cwd", "job", "decision", "chain_reasons", "suggestions"}},
		{"explain", true, false, []string{"segments", "ops", "warnings", "error", "decision", "chain_reasons", "suggestions"}},
		{"job_output", true, false, []string{"output", "next_offset", "running", "exit_code", "omitted"}},
		{"job_kill", false, true, []string{"exit_code", "cwd", "job"}},
		{"job_list", true, false, []string{"jobs"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tool := got[tc.name]
			if tool == nil {
				t.Fatalf("no tool %q in %v", tc.name, res.Tools)
			}
			a := tool.Annotations
			if a == nil || a.ReadOnlyHint != tc.readOnly || (!tc.readOnly && (a.DestructiveHint == nil || *a.DestructiveHint != tc.destroys)) {
				t.Errorf("annotations %+v", a)
			}
			b, _ := json.Marshal(tool.OutputSchema)
			for _, f := range tc.outFields {
				if !strings.Contains(string(b), `"`+f+`"`) {
					t.Errorf("output schema has no %q: %s", f, b)
				}
			}
		})
	}
	if len(got) != 5 {
		t.Errorf("%d tools, want 5", len(got))
	}
}

// TestRun covers the run tool's results: output, statuses as data,
// refusals, timeouts and bad arguments as errors, stdin and its absence,
// the output cap and its marker.
func TestRun(t *testing.T) {
	c := connect(t, Config{MaxOutput: 64}, nil, "")
	for _, tc := range []struct {
		name    string
		args    map[string]any
		isError bool
		exit    int
		stdout  string   // exact, when not ""
		text    []string // in the text block
	}{
		{"pipeline", map[string]any{"command": "lines 3 | first-line && echo done"}, false, 0, "1\ndone\n", []string{"exit 0", "--- stdout ---\n1\ndone\n"}},
		{"non-zero status is data", map[string]any{"command": "echo x | first-line && false"}, false, 1, "x\n", []string{"exit 1"}},
		{"not found is data", map[string]any{"command": "no-such-program-xyz"}, false, 127, "", []string{"exit 127", "not found"}},
		{"syntax refusal", map[string]any{"command": "echo a && && b"}, true, 2, "", []string{"refused (syntax, exit 2); nothing ran", "^"}},
		{"unsupported refusal with the fix", map[string]any{"command": "echo a; eval date"}, true, 2, "", []string{"refused (unsupported", "run the program directly instead", "  echo a; eval date\n          ^"}},
		{"an && list in the background is refused", map[string]any{"command": "true && hang &"}, true, 2, "", []string{"refused", "background=true"}},
		{"timeout", map[string]any{"command": "echo s && hang", "timeout": "300ms"}, true, 124, "s\n", []string{"timed out", "exit 124", `stopped segment 2 "hang"`}},
		{"stdin argument", map[string]any{"command": "cat-stdin | first-line", "stdin": "a\nb\n"}, false, 0, "a\n", nil},
		{"no stdin is EOF, never the server's", map[string]any{"command": "cat-stdin && echo after"}, false, 0, "after\n", nil},
		{"env argument", map[string]any{"command": "print-env CHAINRUN_X", "env": map[string]any{"CHAINRUN_X": "y z"}}, false, 0, "CHAINRUN_X=y z\n", nil},
		{"output cap with head, tail and marker", map[string]any{"command": "lines 100"}, false, 0, "", []string{"--- stdout ---\n1\n2\n3\n", "\n… 228 bytes omitted …\n", "98\n99\n100\n"}},
		{"max_output argument", map[string]any{"command": "lines 10", "max_output": 4}, false, 0, "1\n0\n", []string{"1\n… 17 bytes omitted …\n0\n"}},
		{"pipefail", map[string]any{"command": "exit-with 3 | lines 1", "pipefail": true}, false, 3, "1\n", nil},
		{"windows dialect", map[string]any{"command": `echo a\b`, "dialect": "windows"}, false, 0, "a\\b\n", nil},
		{"bad timeout", map[string]any{"command": "true", "timeout": "soon"}, true, 2, "", []string{"timeout \"soon\""}},
		{"bad dialect", map[string]any{"command": "true", "dialect": "cmd"}, true, 2, "", []string{"dialect \"cmd\""}},
		{"missing dir", map[string]any{"command": "true", "dir": "nowhere"}, true, 2, "", []string{"dir \"nowhere\""}},
		{"empty command", map[string]any{"command": " "}, true, 2, "", []string{"command is empty"}},
		{"no command (the input schema's)", map[string]any{"timeout": "1s"}, true, 2, "", []string{"command"}},
		{"a number for the command (the input schema's)", map[string]any{"command": 5}, true, 2, "", []string{"command"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out RunResult
			res := c.call("run", tc.args, &out)
			txt := text(res)
			if res.IsError != tc.isError {
				t.Errorf("isError %v, want %v\n%s", res.IsError, tc.isError, txt)
			}
			if res.StructuredContent == nil {
				t.Errorf("no structured content\n%s", txt)
			}
			if tc.isError && (out.Error == nil || out.Error.Message == "") {
				t.Errorf("an error result whose structured content names no error\n%s", txt)
			}
			if out.ExitCode != tc.exit {
				t.Errorf("exit_code %d, want %d\n%s", out.ExitCode, tc.exit, txt)
			}
			if tc.stdout != "" && out.Stdout != tc.stdout {
				t.Errorf("stdout %q, want %q", out.Stdout, tc.stdout)
			}
			for _, w := range tc.text {
				if !strings.Contains(txt, w) {
					t.Errorf("text lacks %q:\n%s", w, txt)
				}
			}
		})
	}
}

// TestSessionDir: a top-level cd carries over to the next call, a dir
// argument applies to one call, a cd in a pipeline stage does not count,
// and a session whose directory vanished goes back to its start.
func TestSessionDir(t *testing.T) {
	root := testprog.TempDir(t)
	mkdirs(t, root, "a/b", "c", "gone")
	c := connect(t, Config{Dir: root}, nil, "")
	steps := []struct {
		name    string
		args    map[string]any
		wantOut string // show-dir's output: the directory the chain ran in
		wantCwd string // the session's directory afterwards, relative to root
	}{
		{"starts at --dir", map[string]any{"command": "show-dir"}, filepath.Base(root) + "\n", "."},
		{"cd carries over", map[string]any{"command": "cd a"}, "", "a"},
		{"the next call runs there", map[string]any{"command": "show-dir"}, "a\n", "a"},
		{"relative cd from there", map[string]any{"command": "cd b && show-dir"}, "b\n", "a/b"},
		{"cd in a pipeline stage does not count", map[string]any{"command": "cd .. | true"}, "", "a/b"},
		{"dir argument is for one call", map[string]any{"command": "show-dir && cd ..", "dir": filepath.Join(root, "c")}, "c\n", "a/b"},
		{"relative dir argument", map[string]any{"command": "show-dir", "dir": ".."}, "a\n", "a/b"},
		{"a failing chain still moves", map[string]any{"command": "cd " + quote(filepath.Join(root, "gone")) + " && exit-with 1"}, "", "gone"},
		{"a refused chain does not", map[string]any{"command": "cd .. && eval x"}, "", "gone"},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			var out RunResult
			c.call("run", st.args, &out)
			if st.wantOut != "" && out.Stdout != st.wantOut {
				t.Errorf("stdout %q, want %q", out.Stdout, st.wantOut)
			}
			if want := filepath.Join(root, st.wantCwd); out.Cwd != want {
				t.Errorf("cwd %q, want %q", out.Cwd, want)
			}
		})
	}
	t.Run("a removed directory resets the session", func(t *testing.T) {
		if err := os.Remove(filepath.Join(root, "gone")); err != nil {
			t.Fatal(err)
		}
		var out RunResult
		res := c.call("run", map[string]any{"command": "show-dir"}, &out)
		if out.Cwd != root || out.Stdout != filepath.Base(root)+"\n" || !strings.Contains(text(res), "no longer exists") {
			t.Errorf("cwd %q stdout %q\n%s", out.Cwd, out.Stdout, text(res))
		}
	})
}

// TestConcurrentCalls: calls on one connection run side by side: a
// chain waiting for a file finishes only because a second call, made
// while the first runs, creates it.
func TestConcurrentCalls(t *testing.T) {
	root := testprog.TempDir(t)
	flag := filepath.Join(root, "flag")
	c := connect(t, Config{Dir: root}, nil, "")
	var wg sync.WaitGroup
	wg.Add(1)
	var waited RunResult
	go func() {
		defer wg.Done()
		c.call("run", map[string]any{"command": "wait-for " + quote(flag)}, &waited)
	}()
	var made RunResult
	c.call("run", map[string]any{"command": "make-file " + quote(flag)}, &made)
	wg.Wait()
	if made.ExitCode != 0 || waited.ExitCode != 0 {
		t.Errorf("make-file exit %d, wait-for exit %d (%s): the calls did not overlap", made.ExitCode, waited.ExitCode, waited.Stderr)
	}
}

// TestCarryOrder: concurrent chains carry their directory over in the
// order they finish, and a chain that ends where it started leaves the
// session where another one moved it.
func TestCarryOrder(t *testing.T) {
	for _, tc := range []struct {
		name string
		ends []struct{ from, to string } // in completion order
		want string
	}{
		{"last cd to finish wins", []struct{ from, to string }{{"/r", "/r/a"}, {"/r", "/r/b"}}, "/r/b"},
		{"no cd leaves a concurrent cd", []struct{ from, to string }{{"/r", "/r/a"}, {"/r", "/r"}}, "/r/a"},
		{"cd back to the start counts as none", []struct{ from, to string }{{"/r", "/r/a"}, {"/r", "/r"}, {"/r/a", "/r/a"}}, "/r/a"},
		{"a chain that did not run", []struct{ from, to string }{{"/r", ""}}, "/r"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &session{st: state{Dir: "/r"}}
			for _, e := range tc.ends {
				s.carry(state{Dir: e.from}, e.to)
			}
			if s.st.Dir != tc.want {
				t.Errorf("session in %q, want %q", s.st.Dir, tc.want)
			}
		})
	}
}

// TestSessionVars: what a foreground chain exports, unsets or sets at its
// top level carries over to the next calls, as the directory does; an
// exported variable reaches later programs, a shell variable only later
// expansions; a pipeline stage, a call's env argument and a background
// chain carry nothing.
func TestSessionVars(t *testing.T) {
	c := connect(t, Config{Dir: testprog.TempDir(t), Env: environ.Host.Set(testEnv(), "KEEP", "k")}, nil, "")
	steps := []struct {
		name    string
		args    map[string]any
		wantOut string
	}{
		{"export carries over", map[string]any{"command": "export NODE_ENV=test"}, ""},
		{"a program sees it", map[string]any{"command": "print-env NODE_ENV"}, "NODE_ENV=test\n"},
		{"a shell variable carries over", map[string]any{"command": "X=1"}, ""},
		{"later expansions see it", map[string]any{"command": "echo \"x=$X\""}, "x=1\n"},
		{"programs do not", map[string]any{"command": "print-env X"}, "X unset\n"},
		{"unset carries over", map[string]any{"command": "unset KEEP"}, ""},
		{"the variable is gone", map[string]any{"command": "print-env KEEP"}, "KEEP unset\n"},
		{"a pipeline stage carries nothing", map[string]any{"command": "export Y=1 | true"}, ""},
		{"so Y is unset", map[string]any{"command": "echo \"[$Y]\""}, "[]\n"},
		{"the env argument is for one call", map[string]any{"command": "print-env ONCE", "env": map[string]any{"ONCE": "1"}}, "ONCE=1\n"},
		{"and is gone after it", map[string]any{"command": "print-env ONCE"}, "ONCE unset\n"},
		{"variables survive later chains", map[string]any{"command": "echo $NODE_ENV $X"}, "test 1\n"},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			var out RunResult
			c.call("run", st.args, &out)
			if st.wantOut != "" && out.Stdout != st.wantOut {
				t.Errorf("stdout %q, want %q (stderr %q)", out.Stdout, st.wantOut, out.Stderr)
			}
		})
	}
}

// TestExplainCompound: the explain tool's result for a compound command
// passes its output schema (which describes the compound, holding
// segments again, as an object) and carries the compound's parts.
func TestExplainCompound(t *testing.T) {
	c := connect(t, Config{}, nil, "")
	var plan struct {
		Segments []struct {
			Compound *struct {
				Kind  string            `json:"kind"`
				Parts []json.RawMessage `json:"parts"`
			} `json:"compound"`
		} `json:"segments"`
	}
	res := c.call("explain", map[string]any{"command": "for f in a b; do echo $f; done"}, &plan)
	if res.IsError || len(plan.Segments) != 1 || plan.Segments[0].Compound == nil ||
		plan.Segments[0].Compound.Kind != "for" || len(plan.Segments[0].Compound.Parts) == 0 {
		t.Fatalf("explain of a for loop: %+v\n%s", plan, text(res))
	}
}
