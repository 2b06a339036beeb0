package mcpserver

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/policy"
)

// TestEnvJudged: the variables a call's env argument sets are judged as
// NAME=v in front of the command is: a safe-listed name passes, any other
// asks, naming the variable and where it came from. A variable carried
// from an earlier call was judged by the export that set it and is not
// asked about again; the policy still knows it is exported, so a later
// NAME=v alone is judged as an export.
func TestEnvJudged(t *testing.T) {
	dir := testprog.TempDir(t)
	p, _, err := policy.Parse([]byte(`{"permissions":{"allow":["Bash(echo:*)","Bash(export:*)"]}}`), "settings.json")
	if err != nil {
		t.Fatal(err)
	}
	el := &elicitor{action: "accept", approve: true}
	c := connect(t, Config{Dir: dir, Authorizer: p}, &mcp.ClientOptions{ElicitationHandler: el.handle}, "2025-11-25")
	for _, step := range []struct {
		name  string
		cmd   string
		env   map[string]string
		asked int32
		says  []string
	}{
		{"a safe-listed env argument passes", "echo a", map[string]string{"LANG": "C"}, 0, nil},
		{"PATH in the env argument asks", "echo b", map[string]string{"PATH": dir}, 1, []string{"the env argument puts PATH", "not on the safe-list"}},
		{"LD_PRELOAD in the env argument asks", "echo c", map[string]string{"LD_PRELOAD": "x.so"}, 2, []string{"LD_PRELOAD", "loads a library"}},
		{"a safe-listed export passes and carries", "export LANG=C", nil, 2, nil},
		{"a carried safe-listed variable passes", "echo d", nil, 2, nil},
		{"exporting GIT_TRACE asks", "export GIT_TRACE=" + dir + "/trace", nil, 3, []string{"export puts GIT_TRACE"}},
		{"GIT_TRACE, carried, is not asked about again", "echo e", nil, 3, nil},
		{"assigning the carried GIT_TRACE asks, as it is exported", "GIT_TRACE=" + dir + "/t2", nil, 4, []string{"GIT_TRACE"}},
	} {
		args := map[string]any{"command": step.cmd}
		if step.env != nil {
			args["env"] = step.env
		}
		var out RunResult
		res := c.call("run", args, &out)
		if res.IsError {
			t.Errorf("%s: %s", step.name, text(res))
		}
		if got := el.asked.Load(); got != step.asked {
			t.Errorf("%s: asked %d times in all, want %d\n%s", step.name, got, step.asked, text(res))
		}
		msg, _ := el.message.Load().(string)
		for _, w := range step.says {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: the question lacks %q:\n%s", step.name, w, msg)
			}
		}
	}
}
