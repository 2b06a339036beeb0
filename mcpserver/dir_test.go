package mcpserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/policy"
)

// fsmonitorRepo makes a git repository whose core.fsmonitor runs
// make-file on marker: git status there runs it.
func fsmonitorRepo(t *testing.T, marker string) string {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		testprog.SkipUnderWine(t, "no git for Windows in the Wine prefix")
		t.Skip("git is not installed: the repository's configuration cannot be tried")
	}
	repo := filepath.Join(testprog.TempDir(t), "other")
	for _, args := range [][]string{{"init", "-q", repo}, {"-C", repo, "config", "core.fsmonitor", "make-file " + quote(marker)}} {
		if out, err := exec.Command(git, args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return repo
}

func dirPolicy(t *testing.T) *policy.Policy {
	t.Helper()
	p, _, err := policy.Parse([]byte(`{"permissions":{"allow":["Bash(git status)","Bash(echo:*)"]}}`), "settings.json")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDirJudgedAsCd: a call's dir is judged as `cd DIR && …` would be:
// git status in another repository asks before its fsmonitor can run,
// and a dir outside the roots asks. Approved, the same call runs the
// repository's fsmonitor: what the question guards is real.
func TestDirJudgedAsCd(t *testing.T) {
	marker := filepath.Join(testprog.TempDir(t), "fsmonitor-ran")
	repo := fsmonitorRepo(t, marker)
	for _, approve := range []bool{false, true} {
		el := &elicitor{action: "decline"}
		if approve {
			el = &elicitor{action: "accept", approve: true}
		}
		c := connect(t, Config{Env: testEnv(), Authorizer: dirPolicy(t)}, &mcp.ClientOptions{ElicitationHandler: el.handle}, "2025-11-25")
		res := c.call("run", map[string]any{"command": "git status", "dir": repo}, nil)
		msg, _ := el.message.Load().(string)
		if el.asked.Load() != 1 {
			t.Fatalf("approve %v: asked %d times, want 1:\n%s", approve, el.asked.Load(), text(res))
		}
		for _, w := range []string{"git after the call's dir argument moved the chain to", "leaves the roots"} {
			if !strings.Contains(msg, w) {
				t.Errorf("the question lacks %q:\n%s", w, msg)
			}
		}
		_, err := os.Stat(marker)
		if ran := err == nil; ran != approve {
			t.Errorf("approve %v: fsmonitor ran %v\n%s", approve, ran, text(res))
		}
		if res.IsError == approve {
			t.Errorf("approve %v: isError %v\n%s", approve, res.IsError, text(res))
		}
	}
}

// TestCarriedDirCountsAsCd: a cd in one call and git in the next are
// judged as the one chain `cd sub/nested && git status` is: git asks in
// the directory the session was moved to, a repository of its own, and
// explain says so; what runs no git there does not ask, and back where the
// session started git is allowed again.
func TestCarriedDirCountsAsCd(t *testing.T) {
	el := &elicitor{action: "decline"}
	dir := testprog.TempDir(t)
	mkdirs(t, dir, "sub/nested/.git")
	c := connect(t, Config{Dir: dir, Authorizer: dirPolicy(t)}, &mcp.ClientOptions{ElicitationHandler: el.handle}, "2025-11-25")
	for _, step := range []struct {
		cmd   string
		asked int32
		says  string
	}{
		{"cd sub/nested", 0, ""},
		{"echo hi", 0, ""},
		{"git status", 1, "git after the session's directory (a cd in an earlier call) moved the chain to"},
		{"cd ../..", 1, ""},
		{"git status", 1, ""},
	} {
		res := c.call("run", map[string]any{"command": step.cmd}, nil)
		if got := el.asked.Load(); got != step.asked {
			t.Fatalf("%s: asked %d times in all, want %d\n%s", step.cmd, got, step.asked, text(res))
		}
		if msg, _ := el.message.Load().(string); step.says != "" && !strings.Contains(msg, step.says) {
			t.Errorf("%s: the question lacks %q:\n%s", step.cmd, step.says, msg)
		}
		if step.cmd == "cd sub/nested" {
			var plan struct {
				Decision string `json:"decision"`
			}
			c.call("explain", map[string]any{"command": "git status"}, &plan)
			if plan.Decision != "ask" {
				t.Errorf("explain git status after cd sub/nested: %q, want ask", plan.Decision)
			}
		}
	}
}
