package builtin

import (
	"os"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/builtin/spec"
	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/expand"
)

// TestEveryRecordRuns keeps spec.All and the runner together: a
// built-in declared there and not implemented here would run as
// "command not found".
func TestEveryRecordRuns(t *testing.T) {
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, b := range spec.All {
		seg := &chain.Segment{Args: []string{b.Name, "--help"}, Builtin: chain.Builtin(b.Name)}
		code, _ := Run(Call{Seg: seg, Files: []*os.File{devnull, devnull, w}, InPipeline: true}, fakeState{})
		if code == 127 {
			t.Errorf("%s is declared in spec.All but the runner does not know it", b.Name)
		}
	}
	w.Close()
	msg := make([]byte, 4096)
	n, _ := r.Read(msg)
	if strings.Contains(string(msg[:n]), "not found") {
		t.Errorf("stderr: %s", msg[:n])
	}
}

// fakeState is a chain in the test's directory with no variables.
type fakeState struct{}

func (fakeState) Dir() string                          { return os.TempDir() }
func (fakeState) Status() int                          { return 0 }
func (fakeState) Shell() *expand.Shell                 { return expand.HostShell(nil, os.TempDir()) }
func (fakeState) Keep(*expand.Shell)                   {}
func (fakeState) Chdir(string)                         {}
func (fakeState) Exit()                                {}
func (fakeState) Options() *Options                    { return &Options{} }
func (fakeState) Find(string, []string) (string, bool) { return "", false }
func (fakeState) Hashed(string) (string, bool)         { return "", false }
