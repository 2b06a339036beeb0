package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/policy"
)

// ruleAbs writes an absolute path as a Read or Edit rule names it:
// "//tmp/x", and "//C/x" for C:\x.
func ruleAbs(p string) string {
	p = filepath.ToSlash(p)
	if vol := filepath.VolumeName(p); len(vol) == 2 {
		p = "/" + vol[:1] + p[2:]
	}
	return "/" + p
}

// world is a project directory (the chain's start and its only root)
// beside a secret file and a secret directory outside it, with a policy
// that allows the test programs and denies reading the secrets.
type world struct {
	base, proj string
	pol        *policy.Policy
	env        []string
}

func newWorld(t *testing.T, files ...string) *world {
	t.Helper()
	base := expandDir(t, "secret/", "proj/", "proj/sub/")
	w := &world{base: base, proj: filepath.Join(base, "proj")}
	write(t, filepath.Join(base, "secret.txt"), "SECRET\n")
	write(t, filepath.Join(base, "x.txt"), "SECRET outside the roots\n")
	write(t, filepath.Join(base, "secret", "f.txt"), "SECRET in a directory\n")
	write(t, filepath.Join(w.proj, "x.txt"), "inside\n")
	write(t, filepath.Join(w.proj, "secret.txt"), "inside\n")
	testprog.MakeTree(t, base, "home/", "home/.bashrc")
	testprog.MakeTree(t, w.proj, files...)
	pol, _, err := policy.Parse([]byte(`{"permissions": {
		"allow": ["Bash(link-from:*)", "Bash(rename-file:*)", "Bash(first-line:*)", "Bash(ln:*)", "Bash(mv:*)", "Bash(echo:*)", "Bash(cd:*)", "Bash(true)"],
		"deny": ["Read(`+ruleAbs(filepath.Join(base, "secret.txt"))+`)", "Read(`+ruleAbs(filepath.Join(base, "secret"))+`/**)"]}}`), "test.json")
	if err != nil {
		t.Fatal(err)
	}
	pol.Home = filepath.Join(base, "home")
	pol.Roots = []string{w.proj}
	pol.Mode = policy.ModeAcceptEdits // writes inside the roots are allowed, so an ask is stricter
	w.pol = pol
	w.env = []string{"PATH=" + testprog.BinDir() + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + pol.Home}
	return w
}

func write(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// run runs cmd in the project with the world's policy; every ask is
// approved, so only a verdict stricter than the plan's stops the chain.
func (w *world) run(cmd string, dir string, auth chain.Authorizer) (*Result, error) {
	if auth == nil {
		auth = w.pol
	}
	approve := chain.ApproverFunc(func(context.Context, *chain.Chain, *chain.Decision) (bool, error) { return true, nil })
	return RunString(context.Background(), cmd, Options{Dir: dir, Env: w.env, Dialect: chain.POSIX,
		Authorizer: auth, Approver: approve})
}

// TestJudgedAsItStarts: a segment is judged again as it starts, on a
// fresh resolution of its paths, once anything ran before it, so a link
// an earlier segment made or moved is followed only where the policy
// allows. The chain stops there as denied, nothing of that segment runs,
// and a link that stays inside the roots runs as bash would.
func TestJudgedAsItStarts(t *testing.T) {
	posixTools := runtime.GOOS != "windows"
	for _, tc := range []struct {
		name, cmd, list string
		links           [][2]string // made before the run: name, target
		unix            bool        // runs ln or mv
		stop            int         // the segment stopped at run time, -1 for none
		want            string      // its stdout when it runs
	}{
		{name: "an unpacked link to a Read-denied file", list: "l ../secret.txt",
			cmd: "link-from list.txt && first-line < l > out", stop: 1},
		{name: "an unpacked link to a write outside the roots", list: "l ../x.txt",
			cmd: "link-from list.txt && echo SECRET > l", stop: 1},
		{name: "an unpacked link to a shell start-up file", list: "l ../home/.bashrc",
			cmd: "link-from list.txt && echo SECRET >> l", stop: 1},
		{name: "an unpacked link to a denied directory entered by cd", list: "d ../secret",
			cmd: "link-from list.txt && cd d && first-line < f.txt > out", stop: 1},
		{name: "an unpacked link in a path's middle", list: "up ..",
			cmd: "link-from list.txt && first-line < up/secret.txt > out", stop: 1},
		{name: "a link moved out of its directory", links: [][2]string{{"sub/lnk", "../secret.txt"}},
			cmd: "rename-file sub/lnk top && first-line < top > out", stop: 1},
		{name: "ln -s of a directory, then a read through it", unix: true,
			cmd: "ln -s .. up && first-line < up/secret.txt > out", stop: 1},
		{name: "mv of a link, then read", unix: true, links: [][2]string{{"sub/lnk", "../secret.txt"}},
			cmd: "mv sub/lnk top && first-line < top > out", stop: 1},
		{name: "a link made in a pipeline's earlier pipeline", list: "l ../secret.txt",
			cmd: "echo go | link-from list.txt; true; first-line < l > out", stop: 3},
		{name: "a link inside the roots runs", list: "l x.txt",
			cmd: "link-from list.txt && first-line < l", stop: -1, want: "inside\n"},
		{name: "a pipeline's stages run", list: "l x.txt",
			cmd: "link-from list.txt && first-line < l | first-line", stop: -1, want: "inside\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.unix && !posixTools {
				t.Skip("no ln or mv on Windows: the link-from and rename-file cases stand in for them")
			}
			w := newWorld(t)
			testprog.NeedSymlinks(t, w.proj)
			if tc.list != "" {
				write(t, filepath.Join(w.proj, "list.txt"), tc.list+"\n")
			}
			for _, l := range tc.links {
				if err := os.Symlink(l[1], filepath.Join(w.proj, filepath.FromSlash(l[0]))); err != nil {
					t.Fatal(err)
				}
			}
			res, err := w.run(tc.cmd, w.proj, nil)
			if tc.stop < 0 {
				if err != nil || string(res.Stdout) != tc.want {
					t.Fatalf("want a run printing %q: %v, %+v", tc.want, err, res)
				}
				return
			}
			var de *chain.DeniedError
			if !errors.As(err, &de) || !de.AtRunTime || de.Segment != tc.stop || res == nil {
				t.Fatalf("want a stop at run time at segment %d, got %v", tc.stop, err)
			}
			if k := chain.KindOf(res.Segments[tc.stop].Err); k != chain.KindDenied {
				t.Errorf("segment %d: kind %s", tc.stop, k)
			}
			if strings.Contains(string(res.Stdout)+string(res.Stderr), "SECRET") {
				t.Errorf("the secret was read: %q %q", res.Stdout, res.Stderr)
			}
			if _, err := os.Lstat(filepath.Join(w.proj, "out")); err == nil {
				t.Error("the stopped segment opened its redirect")
			}
			for f, was := range map[string]string{"x.txt": "SECRET outside the roots\n", "home/.bashrc": ""} {
				if b, _ := os.ReadFile(filepath.Join(w.base, filepath.FromSlash(f))); string(b) != was {
					t.Errorf("%s was written: %q", f, b)
				}
			}
			if !strings.Contains(de.Reason, "judged again as it starts") {
				t.Errorf("reason %q", de.Reason)
			}
		})
	}
}

// TestFreshDirectoryResolution: the directory a chain starts in is
// resolved afresh for each judgement, so a call that starts in a
// directory an earlier call replaced with a link is judged where the link
// leads, not where the directory was.
func TestFreshDirectoryResolution(t *testing.T) {
	w := newWorld(t, "d/", "d/f.txt")
	testprog.NeedSymlinks(t, w.proj)
	d := filepath.Join(w.proj, "d")
	if res, err := w.run("first-line < f.txt", d, nil); err != nil || res.ExitCode != 0 {
		t.Fatalf("the first call: %v", err)
	}
	if err := os.Rename(d, d+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(w.base, "secret"), d); err != nil {
		t.Fatal(err)
	}
	res, err := w.run("first-line < f.txt", d, nil)
	var de *chain.DeniedError
	if !errors.As(err, &de) || res != nil {
		t.Fatalf("want a denial before the run, got %v, %+v", err, res)
	}
}

// swapAfter is the policy with a change made to the file system right
// after its n-th judgement: a link swapped in between the judgement and
// the open, as a program running beside the chain could.
type swapAfter struct {
	*policy.Policy
	n, calls int
	swap     func()
}

func (s *swapAfter) Authorize(ctx context.Context, c *chain.Chain, dir string) (*chain.Decision, error) {
	d, err := s.Policy.Authorize(ctx, c, dir)
	if s.calls++; s.calls == s.n {
		s.swap()
	}
	return d, err
}

// TestRedirectSwappedAfterJudgement: a redirect target replaced by a link
// after the policy judged it is refused when it is opened: the chain
// stops there as denied and the file the link leads to is left as it was.
// The first segment's targets are checked against what they were before
// the plan was judged; a later one's against what they were before it was
// judged again.
func TestRedirectSwappedAfterJudgement(t *testing.T) {
	for _, tc := range []struct {
		name, cmd, target, to string
		existing              bool
		n, stop               int // the judgement after which the swap comes, the segment stopped
	}{
		{name: "first segment, a new file", cmd: "echo SECRET > out", target: "out", to: "../home/.bashrc", n: 1, stop: 0},
		{name: "later segment, an existing log", cmd: "true && echo SECRET >> log", target: "log", existing: true,
			to: "../home/.bashrc", n: 2, stop: 1},
		{name: "later segment, an input", cmd: "true && first-line < in > got", target: "in", existing: true,
			to: "../secret.txt", n: 2, stop: 1},
		{name: "later segment, a log replaced by another file", cmd: "true && echo SECRET >> log", target: "log",
			existing: true, n: 2, stop: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			name := filepath.Join(w.proj, tc.target)
			if tc.existing {
				write(t, name, "log\n")
			}
			swap := func() { // another file renamed over the target
				write(t, name+".new", "another\n")
				if err := os.Rename(name+".new", name); err != nil {
					t.Error(err)
				}
			}
			if tc.to != "" {
				testprog.NeedSymlinks(t, w.proj)
				swap = func() {
					os.Remove(name)
					if err := os.Symlink(tc.to, name); err != nil {
						t.Error(err)
					}
				}
			}
			auth := &swapAfter{Policy: w.pol, n: tc.n, swap: swap}
			res, err := w.run(tc.cmd, w.proj, auth)
			var de *chain.DeniedError
			if !errors.As(err, &de) || !de.AtRunTime || de.Segment != tc.stop || res == nil {
				t.Fatalf("want a stop at run time at segment %d, got %v", tc.stop, err)
			}
			if k := chain.KindOf(res.Segments[tc.stop].Err); k != chain.KindDenied || !strings.Contains(de.Reason, "changed after it was judged") {
				t.Errorf("kind %s, reason %q", k, de.Reason)
			}
			if b, _ := os.ReadFile(filepath.Join(w.base, "home", ".bashrc")); len(b) != 0 {
				t.Errorf(".bashrc was written: %q", b)
			}
			if strings.Contains(string(res.Stdout), "SECRET") {
				t.Errorf("the secret was read: %q", res.Stdout)
			}
			if _, err := os.Lstat(filepath.Join(w.proj, "got")); err == nil {
				t.Error("the stopped segment opened its later redirect")
			}
			if b, _ := os.ReadFile(name); tc.to == "" && string(b) != "another\n" {
				t.Errorf("the file renamed in was written: %q", b)
			}
		})
	}
}

// TestQuietRuntimeReadJudgedAsItStarts: a read named only at run time, in
// a chain where nothing else writes, is allowed by the plan and judged on
// its real value as its segment starts: a value inside the roots runs; one
// outside the roots or sensitive stops the chain there, before the
// segment reads it, with nothing written. Where something else in the
// chain may write, the plan asks (here, with no approver: refused before
// anything runs).
func TestQuietRuntimeReadJudgedAsItStarts(t *testing.T) {
	w := newWorld(t)
	pol, _, err := policy.Parse([]byte(`{"permissions": {"allow": ["Bash(first-line:*)", "Bash(echo:*)"]}}`), "test.json")
	if err != nil {
		t.Fatal(err)
	}
	pol.Home, pol.Roots, pol.Mode = filepath.Join(w.base, "home"), []string{w.proj}, policy.ModeAcceptEdits
	run := func(cmd string) (*Result, error) {
		return RunString(context.Background(), cmd, Options{Dir: w.proj, Env: w.env, Dialect: chain.POSIX, Authorizer: pol})
	}
	if res, err := run("first-line < $(echo x.txt)"); err != nil || string(res.Stdout) != "inside\n" {
		t.Fatalf("a value inside the roots: %v, %+v", err, res)
	}
	for _, cmd := range []string{"first-line < $(echo ../x.txt)", "first-line < `echo ../home/.bashrc`"} {
		res, err := run(cmd)
		var de *chain.DeniedError
		if !errors.As(err, &de) || !de.AtRunTime || res == nil {
			t.Fatalf("%s: want a stop at run time, got %v", cmd, err)
		}
		if strings.Contains(string(res.Stdout)+string(res.Stderr), "SECRET") {
			t.Errorf("%s: the file was read: %q", cmd, res.Stdout)
		}
	}
	res, err := run("first-line < $(echo ../x.txt) && echo done > out")
	var de *chain.DeniedError
	if !errors.As(err, &de) || de.AtRunTime || res != nil {
		t.Fatalf("another segment writes: want an ask before the run, refused without an approver, got %v, %+v", err, res)
	}
	if _, err := os.Lstat(filepath.Join(w.proj, "out")); err == nil {
		t.Error("out was written")
	}
}

// TestExportUnsetAsItStarts: an export off the safe-list that the chain
// starts with and unsets before any program starts is allowed by the plan
// and not stopped as it starts (judged again alone, it would see no
// unset); later in the chain, or with a program before the unset, the
// plan asks (refused here, without an approver) before anything runs.
func TestExportUnsetAsItStarts(t *testing.T) {
	w := newWorld(t)
	run := func(cmd string) (*Result, error) {
		return RunString(context.Background(), cmd, Options{Dir: w.proj, Env: w.env, Dialect: chain.POSIX, Authorizer: w.pol})
	}
	if res, err := run("export DEBUG=1 && unset DEBUG && first-line < x.txt"); err != nil || string(res.Stdout) != "inside\n" {
		t.Fatalf("unset before any program: %v, %+v", err, res)
	}
	for _, cmd := range []string{"export DEBUG=1 && first-line < x.txt", "cd sub && export DEBUG=1 && unset DEBUG && first-line < ../x.txt",
		"export DEBUG=1 && first-line < x.txt && unset DEBUG"} {
		res, err := run(cmd)
		var de *chain.DeniedError
		if !errors.As(err, &de) || de.AtRunTime || res != nil {
			t.Errorf("%s: want an ask before the run, refused without an approver, got %v, %+v", cmd, err, res)
		} else if why := fmt.Sprint(de.Decision.Segments); !strings.Contains(why, "export puts DEBUG") {
			t.Errorf("%s: refused for another reason: %s", cmd, why)
		}
	}
}
