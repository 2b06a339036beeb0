package engine

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/posix"
	"github.com/chainrun/chainrun/sandbox"
	"github.com/chainrun/chainrun/tools"
)

// dial-tcp ADDR connects to ADDR and exits 0, or exits 1 printing why.
func init() {
	testprog.Register("dial-tcp", func(args []string) int {
		c, err := net.Dial("tcp", args[0])
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			return 1
		}
		c.Close()
		return 0
	})
}

// sandboxPlace is a test's file system: a root and a temporary directory
// the boundary makes writable, a directory outside both, a denied-write
// tree and a denied-read file outside them, each with a file in it, and
// an allowWrite tree; inside the root, a denied-write directory and a
// denied-read directory and file, which Landlock's rules cannot take out
// of the root (the mount namespace does).
type sandboxPlace struct {
	root, tmp, outside, noWrite, secret string
	b                                   *sandbox.Boundary
}

func newSandboxPlace(t testing.TB) *sandboxPlace {
	base := testprog.TempDir(t)
	p := &sandboxPlace{root: filepath.Join(base, "root"), tmp: filepath.Join(base, "tmp"),
		outside: filepath.Join(base, "outside"), noWrite: filepath.Join(base, "nowrite")}
	for _, d := range []string{p.root, p.tmp, p.outside, p.noWrite, filepath.Join(base, "secret"), filepath.Join(base, "extra")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p.secret = filepath.Join(base, "secret", "key")
	for _, f := range []string{filepath.Join(p.outside, "old"), filepath.Join(p.noWrite, "old"), p.secret, filepath.Join(p.root, "mine")} {
		if err := os.WriteFile(f, []byte("before"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"locked", "hidden"} {
		if err := os.MkdirAll(filepath.Join(p.root, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p.root, d, "old"), []byte("before"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(p.root, ".env"), []byte("before"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := &sandbox.Config{DenyWrite: []string{p.noWrite, filepath.Join(p.root, "locked")},
		DenyRead:   []string{filepath.Dir(p.secret), filepath.Join(p.root, "hidden"), filepath.Join(p.root, ".env")},
		AllowWrite: []string{filepath.Join(base, "extra")}}
	p.b = sandbox.New(cfg, []string{p.root}, p.tmp)
	return p
}

func (p *sandboxPlace) run(t testing.TB, cmd string, b *sandbox.Boundary) *Result {
	t.Helper()
	env := []string{"PATH=" + testprog.BinDir() + string(os.PathListSeparator) + os.Getenv("PATH")}
	res, err := RunString(context.Background(), cmd, Options{Dir: p.root, Env: env, Sandbox: b})
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	return res
}

// TestSandboxConfines runs programs chainrun has no record of inside the
// boundary and checks what the kernel let them do; every refused row
// succeeds without the sandbox (the unconfined run beside it), so the
// refusals are the kernel's.
func TestSandboxConfines(t *testing.T) {
	if posix.LandlockABI() == 0 {
		t.Skip("this kernel has no Landlock")
	}
	p := newSandboxPlace(t)
	tests := []struct {
		name, cmd string
		file      string // the file the command writes, or "" when it reads
		allowed   bool
	}{
		{"write inside the root", "write-file new", filepath.Join(p.root, "new"), true},
		{"change a file inside the root", "write-file mine", filepath.Join(p.root, "mine"), true},
		{"write inside the temp directory", "write-file " + p.tmp + "/new", filepath.Join(p.tmp, "new"), true},
		{"create outside the roots", "write-file " + p.outside + "/new", filepath.Join(p.outside, "new"), false},
		{"change a file outside the roots", "write-file " + p.outside + "/old", filepath.Join(p.outside, "old"), false},
		{"change a file under denyWrite", "write-file " + p.noWrite + "/old", filepath.Join(p.noWrite, "old"), false},
		{"write inside allowWrite", "write-file ../extra/new", filepath.Join(filepath.Dir(p.root), "extra", "new"), true},
		{"read a denyRead file", "read-file " + p.secret, "", false},
		{"change a file under denyWrite inside the root", "write-file locked/old", filepath.Join(p.root, "locked", "old"), false},
		{"create under denyWrite inside the root", "write-file locked/new", filepath.Join(p.root, "locked", "new"), false},
		{"read under denyRead inside the root", "read-file hidden/old", "", false},
		{"read a denyRead file inside the root", "read-file .env", "", false},
		{"write beside denied paths inside the root", "write-file beside", filepath.Join(p.root, "beside"), true},
		{"read a file inside the root", "read-file mine", "", true},
		{"setsid and double fork outside the roots", "detached-write " + p.outside + "/daemon", filepath.Join(p.outside, "daemon"), false},
		{"setsid and double fork inside the root", "detached-write daemon", filepath.Join(p.root, "daemon"), true},
		{"redirect outside the roots", "echo-argv hi > " + p.outside + "/redir", filepath.Join(p.outside, "redir"), false},
		{"built-in's redirect outside the roots", "echo hi >> " + p.outside + "/old", filepath.Join(p.outside, "old"), false},
		{"redirect inside the root", "echo-argv hi > redir", filepath.Join(p.root, "redir"), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, sandboxed := range []bool{true, false} {
				b := p.b
				if !sandboxed {
					b = nil
					if tt.file != "" {
						defer os.WriteFile(tt.file, []byte("before"), 0o644) // the next row sees the file as before
					}
				}
				res := p.run(t, tt.cmd, b)
				ok := res.ExitCode == 0
				if tt.file == "" { // a read does its job when the contents come out (a hidden file reads empty)
					ok = ok && string(res.Stdout) == "before"
				}
				if tt.file != "" {
					data, err := os.ReadFile(tt.file)
					ok = ok && err == nil && string(data) != "before"
					if !ok && err == nil && string(data) != "before" {
						t.Errorf("sandboxed=%v: %s changed %s to %q though it failed", sandboxed, tt.cmd, tt.file, data)
					}
					if sandboxed {
						os.Remove(tt.file)
						os.WriteFile(tt.file, []byte("before"), 0o644)
					}
				}
				if want := tt.allowed || !sandboxed; ok != want {
					t.Errorf("sandboxed=%v: %s: did its job %v, want %v (status %d, stderr %q)", sandboxed, tt.cmd, ok, want, res.ExitCode, res.Stderr)
				}
				if sandboxed && !tt.allowed && strings.Contains(tt.cmd, ">") && !strings.Contains(string(res.Stderr), "sandbox: write outside the allowed paths") {
					t.Errorf("%s: stderr %q does not name the boundary", tt.cmd, res.Stderr)
				}
			}
		})
	}
}

// TestSandboxNetwork checks that a boundary without network refuses a TCP
// connection the same program makes without it.
func TestSandboxNetwork(t *testing.T) {
	if posix.LandlockABI() < 4 {
		t.Skip("this kernel's Landlock cannot restrict TCP (ABI 4)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	p := newSandboxPlace(t)
	for _, b := range []*sandbox.Boundary{nil, p.b} {
		res := p.run(t, "dial-tcp "+l.Addr().String(), b)
		if got, want := res.ExitCode == 0, b == nil; got != want {
			t.Errorf("sandboxed=%v: connected %v, want %v (stderr %q)", b != nil, got, want, res.Stderr)
		}
	}
}

// BenchmarkSandboxSpawn measures chains with and without the sandbox, in
// one sitting: one segment (the whole confinement per run: the ruleset,
// the confined thread, the spawn through it) and ten (each further spawn
// through the same thread), with the default boundary and with the test's
// denied paths ("carved": a denyRead outside the roots, whose ruleset lists
// the directories above it, and denied paths inside the root, which the
// run's one carving helper binds before it forks the segments).
func BenchmarkSandboxSpawn(b *testing.B) {
	if posix.LandlockABI() == 0 {
		b.Skip("this kernel has no Landlock")
	}
	p := newSandboxPlace(b)
	plain := sandbox.New(&sandbox.Config{}, []string{p.root}, p.tmp)
	ten := strings.Repeat("exit-with 0; ", 9) + "exit-with 0"
	env := []string{"PATH=" + testprog.BinDir() + string(os.PathListSeparator) + os.Getenv("PATH")}
	for _, chain := range []struct{ name, cmd string }{{"1seg", "exit-with 0"}, {"10seg", ten}} {
		for _, bb := range []struct {
			name string
			b    *sandbox.Boundary
		}{{"unsandboxed", nil}, {"sandboxed", plain}, {"carved", p.b}} {
			b.Run(chain.name+"/"+bb.name, func(b *testing.B) {
				for b.Loop() {
					res, err := RunString(context.Background(), chain.cmd, Options{Dir: p.root, Env: env, Sandbox: bb.b})
					if err != nil || res.ExitCode != 0 {
						b.Fatal(err, res)
					}
				}
			})
		}
	}
}

// TestSandboxExcluded: a segment of the excludedCommands runs outside the
// sandbox, its redirects too, while the chain's other segments stay in.
func TestSandboxExcluded(t *testing.T) {
	if posix.LandlockABI() == 0 {
		t.Skip("this kernel has no Landlock")
	}
	p := newSandboxPlace(t)
	b := *p.b
	b.Excluded = [][]string{{"write-file"}}
	res := p.run(t, "write-file "+p.outside+"/ex > "+p.outside+"/exout; echo-argv x > "+p.outside+"/in", &b)
	if _, err := os.Stat(filepath.Join(p.outside, "ex")); err != nil {
		t.Errorf("the excluded command was confined: %v (stderr %q)", err, res.Stderr)
	}
	if _, err := os.Stat(filepath.Join(p.outside, "exout")); err != nil {
		t.Errorf("the excluded command's redirect was confined: %v", err)
	}
	if _, err := os.Stat(filepath.Join(p.outside, "in")); err == nil {
		t.Error("a segment not excluded wrote outside the boundary")
	}
	if res.Segments[0].Sandboxed || !strings.Contains(res.Segments[1].Error, "sandbox: write outside the allowed paths") {
		t.Errorf("segment 1 sandboxed %v, segment 2's error %q", res.Segments[0].Sandboxed, res.Segments[1].Error)
	}
}

// TestSandboxNoTools: chainrun's own tools work in its own process, which
// the kernel does not confine, so a sandboxed run starts the real
// programs even where the tools are asked for everywhere.
func TestSandboxNoTools(t *testing.T) {
	if posix.LandlockABI() == 0 {
		t.Skip("this kernel has no Landlock")
	}
	p := newSandboxPlace(t)
	target := filepath.Join(p.outside, "touched")
	env := []string{"PATH=" + os.Getenv("PATH")}
	res, err := RunString(context.Background(), "touch "+target, Options{Dir: p.root, Env: env, Sandbox: p.b, Tools: tools.ModeAlways})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(target); err == nil {
		t.Fatalf("a sandboxed touch wrote outside the boundary (kind %q)", res.Segments[0].Kind)
	}
	if res.Segments[0].Kind == "tool" || res.ExitCode == 0 {
		t.Errorf("kind %q, status %d: want the real touch, refused by the kernel", res.Segments[0].Kind, res.ExitCode)
	}
}
