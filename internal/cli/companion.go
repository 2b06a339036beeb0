package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"

	"github.com/chainrun/chainrun/report"
)

// companionName is the program that serves `chainrun mcp`. The MCP server
// lives in a program of its own because linking it (the MCP SDK and,
// through it, net/http, crypto and JSON schema) into chainrun more than
// doubled chainrun's size and added 69 package initialisers to every
// start; docs/mcp.md and docs/benchmarks.md give the figures.
const companionName = "chainrun-mcp"

// mcp runs `chainrun mcp ARGS` as `chainrun-mcp ARGS`: the program beside
// chainrun's own executable (where go install and the release archives
// put both), else the first on PATH.
func (c *cli) mcp(args []string) int {
	path, err := findCompanion()
	if err != nil {
		fmt.Fprintf(c.stderr, "chainrun: mcp: %s is not installed beside chainrun or on PATH (%v)\n", companionName, err)
		fmt.Fprintf(c.stderr, "  install it with: go install %s@%s\n", companionPackage, moduleVersion())
		return report.ExitInternal
	}
	return c.runCompanion(path, args)
}

// companionPackage is the companion's import path, for the install hint.
const companionPackage = "github.com/chainrun/chainrun/cmd/" + companionName

// findCompanion finds chainrun-mcp beside the running executable, then on
// PATH (exec.LookPath, which does not take one from the current
// directory).
func findCompanion() (string, error) {
	name := companionName
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, nil
		}
	}
	return exec.LookPath(companionName)
}

// moduleVersion is the version chainrun was installed at, so the install
// hint names the same release; "latest" for a build from a checkout.
func moduleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "latest"
}
