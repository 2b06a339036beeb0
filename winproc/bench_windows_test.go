//go:build windows

package winproc

import (
	"os/exec"
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
)

// BenchmarkStartWait is one segment's cost: job, CreateProcess with the
// attribute lists, wait, tree check, close. BenchmarkExecCommand is
// os/exec on the same program, for the ratio.
func BenchmarkStartWait(b *testing.B) {
	exe := testprog.Executable(b)
	line, _ := ComposeCommandLine([]string{exe})
	env := testprog.Environ("exit-with")
	for b.Loop() {
		p, err := Start(&Attr{Path: exe, CommandLine: line, Env: env})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := p.Wait(); err != nil {
			b.Fatal(err)
		}
		p.Close()
	}
}

func BenchmarkExecCommand(b *testing.B) {
	exe := testprog.Executable(b)
	env := testprog.Environ("exit-with")
	for b.Loop() {
		c := exec.Command(exe)
		c.Env = env
		if err := c.Run(); err != nil {
			b.Fatal(err)
		}
	}
}
