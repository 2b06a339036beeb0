package policy

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/expand"
	"github.com/chainrun/chainrun/internal/testprog"
)

// moveDirs makes a root repository holding sub/nested, a repository of
// its own, and repo.git, a bare one, and a directory outside it.
func moveDirs(t *testing.T) (root, outside string) {
	t.Helper()
	root, outside = testprog.TempDir(t), testprog.TempDir(t)
	for _, d := range []string{"sub/nested/.git", ".git", "repo.git/objects", "repo.git/refs"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "repo.git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, outside
}

// judgeAfter judges src started in m.To after the move m (none when m.To
// is ""), from root.
func judgeAfter(t *testing.T, p *Policy, m Move, src string) *chain.Decision {
	t.Helper()
	dir := m.From
	if m.To != "" {
		p, dir = p.After(m), m.To
	}
	d, err := p.Authorize(context.Background(), parse(t, src), dir)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestMoveIsACd: a chain started after a move is judged as `cd TO && …`
// started where the move began: git asks after it when the target belongs
// to another repository, a target outside the roots asks, a sensitive one
// asks in every mode; a move already judged (a session's carried
// directory) still counts for git.
func TestMoveIsACd(t *testing.T) {
	root, outside := moveDirs(t)
	allow := mustRules(t, []string{"git status", "ls", "echo:*"})
	nested := filepath.Join(root, "sub", "nested")
	tests := []struct {
		name string
		m    Move
		mode Mode
		src  string
		want chain.Verdict
		why  string // in the reasons of some segment
	}{
		{"no move", Move{From: root}, "", "git status", chain.Allow, ""},
		{"a move to where it began", Move{From: root, To: root, Via: "dir"}, "", "git status", chain.Allow, ""},
		{"dir then git", Move{From: root, To: nested, Via: "the call's dir argument"}, "", "git status", chain.Ask,
			"git after the call's dir argument moved the chain to"},
		{"dir without git", Move{From: root, To: nested, Via: "dir"}, "", "ls && echo hi", chain.Allow, ""},
		{"dir to the same repository, then git", Move{From: root, To: filepath.Join(root, "sub"), Via: "dir"}, "", "git status",
			chain.Allow, ""},
		{"carried to the same repository, then git", Move{From: root, To: filepath.Join(root, "sub"), Via: "s", Judged: true}, "",
			"git status", chain.Allow, ""},
		{"carried then git", Move{From: root, To: nested, Via: "the session's directory", Judged: true}, "",
			"ls; git status", chain.Ask, "git after the session's directory moved the chain"},
		{"carried outside the roots: judged when it was made", Move{From: root, To: outside, Via: "s", Judged: true}, "",
			"ls", chain.Allow, ""},
		{"dir outside the roots", Move{From: root, To: outside, Via: "dir"}, "", "ls", chain.Ask, "leaves the roots"},
		{"dir outside the roots, bypassPermissions", Move{From: root, To: outside, Via: "dir"}, ModeBypass, "ls",
			chain.Allow, ""},
		{"dir into .git", Move{From: root, To: filepath.Join(root, ".git"), Via: "dir"}, "", "ls", chain.Ask,
			"enters a sensitive directory"},
		{"dir into .git, bypassPermissions", Move{From: root, To: filepath.Join(root, ".git"), Via: "dir"}, ModeBypass,
			"ls", chain.Ask, "enters a sensitive directory"},
		{"dir into .git, dontAsk", Move{From: root, To: filepath.Join(root, ".git"), Via: "dir"}, ModeDontAsk, "ls",
			chain.Deny, ""},
		{"dir into a bare repository, then git", Move{From: root, To: filepath.Join(root, "repo.git"), Via: "dir"}, "",
			"git status", chain.Ask, "git after dir moved the chain"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &Policy{Allow: allow, Roots: []string{root}, Mode: tc.mode}
			d := judgeAfter(t, p, tc.m, tc.src)
			if d.Verdict != tc.want {
				t.Fatalf("verdict %s, want %s: %+v", d.Verdict, tc.want, d)
			}
			if tc.why != "" && !strings.Contains(reasonsOf(d), tc.why) {
				t.Errorf("reasons %q, want %q", reasonsOf(d), tc.why)
			}
		})
	}
}

func reasonsOf(d *chain.Decision) string {
	var all []string
	for _, sd := range d.Segments {
		all = append(all, sd.Reasons...)
	}
	return strings.Join(append(all, d.Chain...), "|")
}

// TestMoveAsInChain: for commands that write nothing, a chain after a
// move to TO gets the verdict the plan of `cd TO && chain` gets from
// where the move began.
func TestMoveAsInChain(t *testing.T) {
	root, outside := moveDirs(t)
	p := &Policy{Allow: mustRules(t, []string{"git status", "git log:*", "ls", "echo:*"}), Roots: []string{root}}
	targets := []string{filepath.Join(root, "sub", "nested"), filepath.Join(root, "sub"), filepath.Join(root, "repo.git"), outside,
		filepath.Join(root, ".git")}
	cmds := []string{"git status", "ls", "echo hi", "ls && git log -1", "make"}
	for _, to := range targets {
		for _, cmd := range cmds {
			moved := judgeAfter(t, p, Move{From: root, To: to, Via: "dir"}, cmd)
			planned, err := expand.Plan(parse(t, "cd "+quoteArg(to)+" && "+cmd), tableShell(root, outside, nil))
			if err != nil {
				t.Fatal(err)
			}
			inChain, err := p.Authorize(context.Background(), planned, root)
			if err != nil {
				t.Fatal(err)
			}
			if moved.Verdict != inChain.Verdict {
				t.Errorf("%s after a move to %s: %s; `cd %s && %s`: %s", cmd, to, moved.Verdict, to, cmd, inChain.Verdict)
			}
		}
	}
}

// TestMoveJudgedAgain: a segment judged again as it starts, alone, from
// where it starts, meets the verdict it had in the whole chain, so a
// chain approved as a whole is not stopped halfway by the move's asks.
func TestMoveJudgedAgain(t *testing.T) {
	root, _ := moveDirs(t)
	p := &Policy{Allow: mustRules(t, []string{"git status", "ls"}), Roots: []string{root}}
	m := Move{From: root, To: filepath.Join(root, "sub"), Via: "dir"}
	whole := judgeAfter(t, p, m, "ls && git status")
	for i, src := range []string{"ls", "git status"} {
		alone := judgeAfter(t, p, m, src)
		if alone.Verdict != whole.Segments[i].Verdict {
			t.Errorf("%s alone: %s; in the chain: %s", src, alone.Verdict, whole.Segments[i].Verdict)
		}
	}
}

// TestMoveClassifier: the classifier does not lift what the move asks,
// as it does not lift the chain-wide checks.
func TestMoveClassifier(t *testing.T) {
	root, _ := moveDirs(t)
	p := &Policy{Allow: mustRules(t, []string{"git status"}), Roots: []string{root},
		Classifier: ClassifierFunc(func(context.Context, *chain.Segment, *chain.SegmentDecision) (chain.Verdict, error) {
			return chain.Allow, nil
		})}
	d := judgeAfter(t, p, Move{From: root, To: filepath.Join(root, "sub", "nested"), Via: "dir"}, "git status")
	if d.Verdict != chain.Ask {
		t.Errorf("classifier lifted git after a move: %+v", d)
	}
}

// TestMoveRoots: a policy without roots keeps the directory the move
// began in as its root.
func TestMoveRoots(t *testing.T) {
	root, outside := moveDirs(t)
	p := &Policy{Allow: mustRules(t, []string{"ls"})}
	if d := judgeAfter(t, p, Move{From: root, To: outside, Via: "dir"}, "ls"); d.Verdict != chain.Ask {
		t.Errorf("ls after a move out of the start directory: %+v", d)
	}
	if d := judgeAfter(t, p, Move{From: root, To: filepath.Join(root, "sub"), Via: "dir"}, "ls"); d.Verdict != chain.Allow {
		t.Errorf("ls after a move inside the start directory: %+v", d)
	}
}
