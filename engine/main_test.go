package engine

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
)

// programs are the engine's own test programs, beside the common ones of
// testprog: they change the file system as an unpacked archive would,
// without naming what they make where the policy could see it.
var programs = map[string]testprog.Program{
	// link-from LIST makes the symbolic links LIST names, one
	// "NAME TARGET" a line, as tar does unpacking an archive that holds
	// links.
	"link-from": func(args []string) int {
		b, err := os.ReadFile(args[0])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			name, target, _ := strings.Cut(strings.TrimSpace(line), " ")
			if err := os.Symlink(target, name); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
		}
		return 0
	},
	// rename-file OLD NEW renames OLD to NEW, as mv does.
	"rename-file": func(args []string) int {
		if err := os.Rename(args[0], args[1]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	},
}

// TestMain lets the test binary be the programs the chains run; they find
// them in testprog.BinDir, which the tests that start them put first in
// PATH.
func TestMain(m *testing.M) {
	for name, p := range programs {
		testprog.Register(name, p)
	}
	testprog.Main(m)
}
