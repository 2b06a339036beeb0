package policy

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
)

// TestImportsNoRunner keeps the policy apart from the runner: it reads the
// chain model and the built-ins' declared effects (builtin/spec) and
// judges them, and must not pull in the engine, the built-ins' code, the
// platform layers or x/sys (on any OS), so a program that only judges stays small
// and a change to how chains run cannot change how they are judged.
func TestImportsNoRunner(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		testprog.SkipUnderWine(t, "no Windows go command for go list (the host's go is a Linux program)")
		t.Skip("no go tool on PATH:", err)
	}
	for _, goos := range []string{"linux", "windows", "darwin"} {
		t.Run(goos, func(t *testing.T) {
			cmd := exec.Command(goTool, "list", "-deps", ".")
			cmd.Env = append(cmd.Environ(), "GOOS="+goos)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("go list: %v", err)
			}
			for _, dep := range strings.Fields(string(out)) {
				if strings.HasSuffix(dep, "/chainrun/builtin") {
					t.Errorf("policy depends on %s: it reads the built-ins' effects from builtin/spec", dep)
				}
				for _, banned := range []string{"/engine", "/posix", "/winproc", "/winconsole", "/resolve", "/redirect", "golang.org/x/sys"} {
					if strings.Contains(dep, banned) {
						t.Errorf("policy depends on %s", dep)
					}
				}
			}
		})
	}
}
