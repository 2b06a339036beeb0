//go:build windows

package winproc

import (
	"os"
	"os/exec"
	"testing"
)

// BenchmarkStartWait is one segment's cost: job, CreateProcess with the
// attribute lists, wait, tree check, close. BenchmarkExecCommand is
// os/exec on the same program, for the ratio.
func BenchmarkStartWait(b *testing.B) {
	exe, _ := os.Executable()
	line, _ := ComposeCommandLine([]string{exe})
	env := append(os.Environ(), "WINPROC_HELPER=exit")
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
	exe, _ := os.Executable()
	env := append(os.Environ(), "WINPROC_HELPER=exit")
	for b.Loop() {
		c := exec.Command(exe)
		c.Env = env
		if err := c.Run(); err != nil {
			b.Fatal(err)
		}
	}
}
