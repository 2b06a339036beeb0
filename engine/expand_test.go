package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
	"github.com/chainrun/chainrun/policy"
)

// The tests here run only engine built-ins, so they mean the same on
// every OS and run under Wine too.

// auditFunc adapts a function to Auditor.
type auditFunc func(*AuditRecord)

func (f auditFunc) Audit(r *AuditRecord) { f(r) }

// expandDir is a fresh directory for one test (removable under Wine too),
// its symbolic links resolved, with the named files created empty.
func expandDir(t *testing.T, files ...string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(testprog.TempDir(t))
	if err != nil {
		t.Fatal(err)
	}
	testprog.MakeTree(t, dir, files...)
	return dir
}

// TestExpansionRuns: the forms agents write, run end to end, give bash's
// output (checked against bash 5.2 by hand and by the differential suite).
func TestExpansionRuns(t *testing.T) {
	dir := expandDir(t, "a.go", "b.go", ".hidden.go", "sub/", "sub/c.txt", "my file.txt")
	env := []string{"HOME=" + dir, "EMPTY=", "SPACED=a  b", "PATH=" + os.Getenv("PATH")}
	for _, tc := range []struct{ name, cmd, want string }{
		{"variable", "echo $HOME", dir + "\n"},
		{"unset is empty", "echo [$NOPE]", "[]\n"},
		{"default", "echo ${NOPE:-def} ${EMPTY:-e} ${EMPTY-u}", "def e\n"},
		{"splitting", "printf '<%s>' $SPACED \"$SPACED\"", "<a><b><a  b>"},
		{"glob sorted, no dotfiles", "echo *.go", "a.go b.go\n"},
		{"glob with a space in a name", "printf '<%s>' *.txt", "<my file.txt>"},
		{"glob in a directory", "echo sub/*", "sub/c.txt\n"},
		{"no match stays", "echo *.none x?y.[dev]", "*.none x?y.[dev]\n"},
		{"quoted glob stays", "echo '*.go' \\*.go", "*.go *.go\n"},
		{"tilde", "echo ~ ~/x a=~/y", dir + " " + dir + "/x a=" + dir + "/y\n"},
		{"braces", "echo {a,b}{1..2} {01..03}", "a1 a2 b1 b2 01 02 03\n"},
		{"ansi-c", "printf '%s|' $'a\\tb' $'\\x41'", "a\tb|A|"},
		{"arithmetic", "echo $((2*3+1)) $(( 7 % 4 ))", "7 3\n"},
		{"status", "false; echo $?; true; echo $?", "1\n0\n"},
		{"chain variable", "X=1; echo $X", "1\n"},
		{"assignment before a command uses the old value", "X=old; X=new echo $X", "old\n"},
		{"pipeline stage is a subshell", "X=1 | true; echo [$X]", "[]\n"},
		{"export", "export Y=2 && echo $Y", "2\n"},
		{"unset", "X=1; unset X; echo [$X]", "[]\n"},
		{"cd moves PWD and the glob base", "cd sub && echo $PWD *", filepath.Join(dir, "sub") + " c.txt\n"},
		{"OLDPWD", "cd sub; echo $OLDPWD", dir + "\n"},
		{"heredoc expands", "cat <<EOF\n$HOME \\$x $((1+1))\nEOF", dir + " $x 2\n"},
		{"here-string", "cat <<< \"[$SPACED]\"", "[a  b]\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if strings.Contains(tc.cmd, "cat") && runtime.GOOS == "windows" {
				t.Skip("no cat on Windows: test/windows/heredoc_test.go runs these with its helper program")
			}
			res, err := RunString(context.Background(), tc.cmd, Options{Dir: dir, Env: env, Dialect: chain.POSIX})
			if err != nil {
				t.Fatal(err)
			}
			if got := string(res.Stdout); got != tc.want {
				t.Errorf("stdout %q, want %q", got, tc.want)
			}
		})
	}
}

// TestExpansionState: what export, unset and NAME=value leave is in the
// result, for a session to carry over, and Options.Vars seeds it.
func TestExpansionState(t *testing.T) {
	dir := expandDir(t)
	res, err := RunString(context.Background(), "A=1; export B=2; export C; unset D; E=5 | true",
		Options{Dir: dir, Env: []string{"D=4", "C=3"}, Vars: map[string]string{"F": "6"}, Dialect: chain.POSIX})
	if err != nil {
		t.Fatal(err)
	}
	if res.Vars["A"] != "1" || res.Vars["F"] != "6" || len(res.Vars) != 2 {
		t.Errorf("Vars %v", res.Vars)
	}
	for _, want := range []string{"B=2", "C=3"} {
		if !slices.Contains(res.Env, want) {
			t.Errorf("Env %v lacks %s", res.Env, want)
		}
	}
	if slices.ContainsFunc(res.Env, func(kv string) bool { return strings.HasPrefix(kv, "D=") || strings.HasPrefix(kv, "E=") }) {
		t.Errorf("Env %v keeps D or E", res.Env)
	}
}

// TestExpansionError: $((1/0)) ends the chain with status 1 and bash's
// message, as bash -c does.
func TestExpansionError(t *testing.T) {
	res, err := RunString(context.Background(), "echo a; echo $((1/0)); echo after", Options{Dir: expandDir(t), Dialect: chain.POSIX})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 1 || string(res.Stdout) != "a\n" || !strings.Contains(string(res.Stderr), `1/0: division by 0 (error token is "0")`) {
		t.Errorf("status %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	if k := chain.KindOf(res.Segments[1].Err); k != chain.KindExpansion || !res.Segments[2].Skipped {
		t.Errorf("kind %s, segment 3 skipped %v", k, res.Segments[2].Skipped)
	}
}

// TestRunTimeJudgement: a segment whose words are known only at run time
// is judged again on what it expands to; a stricter verdict stops the
// chain there with nothing of that segment started, and the error says
// what it expanded to.
func TestRunTimeJudgement(t *testing.T) {
	pol, _, err := policy.Parse([]byte(`{"permissions": {"allow": ["Bash(echo:*)", "Bash(true)"], "deny": ["Bash(printf:*)"]}}`), "test.json")
	if err != nil {
		t.Fatal(err)
	}
	approve := chain.ApproverFunc(func(context.Context, *chain.Chain, *chain.Decision) (bool, error) { return true, nil })
	for _, tc := range []struct {
		name, cmd string
		plan      chain.Verdict // the verdict before the run
		stopped   bool
	}{
		{"known variable is judged before the run", "X=printf; echo ok > before; $X x > after", chain.Deny, false},
		{"variable set on a branch is judged when it runs", "true && X=printf; echo ok > before; $X x > after", chain.Ask, true},
		{"a harmless value runs", "true && X=echo; echo ok > before; $X x > after", chain.Ask, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := expandDir(t)
			var recs []*AuditRecord
			res, err := RunString(context.Background(), tc.cmd, Options{Dir: dir, Dialect: chain.POSIX,
				Authorizer: pol, Approver: approve, Auditor: auditFunc(func(r *AuditRecord) { recs = append(recs, r) })})
			var de *chain.DeniedError
			_, beforeErr := os.Stat(filepath.Join(dir, "before"))
			_, afterErr := os.Stat(filepath.Join(dir, "after"))
			switch {
			case tc.plan == chain.Deny:
				if !errors.As(err, &de) || res != nil || beforeErr == nil {
					t.Fatalf("want a denial before the run, got %v (before exists: %v)", err, beforeErr == nil)
				}
			case tc.stopped:
				if !errors.As(err, &de) || res == nil || beforeErr != nil || afterErr == nil {
					t.Fatalf("want a stop at run time: err %v, before %v, after %v", err, beforeErr, afterErr)
				}
				if de.Segment != 3 || !strings.Contains(de.Reason, `"printf"`) || chain.KindOf(res.Segments[3].Err) != chain.KindDenied {
					t.Errorf("denial %+v", de)
				}
				if len(recs) != 1 || recs[0].Err == nil {
					t.Errorf("the audit record lacks the denial: %+v", recs)
				}
			default:
				if err != nil || afterErr != nil {
					t.Fatalf("want a run: %v, after %v", err, afterErr)
				}
			}
		})
	}
}

// TestRunTimeDirectory: a segment whose directory the plan cannot know
// (after cd $D with D set on a branch) is judged again where it starts,
// so a path rule the plan could not see stops it there.
func TestRunTimeDirectory(t *testing.T) {
	dir := expandDir(t, "sub/")
	out := filepath.ToSlash(filepath.Join(dir, "sub", "out"))
	if vol := filepath.VolumeName(out); len(vol) == 2 {
		out = "/" + vol[:1] + out[2:] // C:/x is //C/x in a rule
	}
	pol, _, err := policy.Parse([]byte(`{"permissions": {"allow": ["Bash(echo:*)", "Bash(cd:*)"], "deny": ["Edit(/`+out+`)"]}}`), "test.json")
	if err != nil {
		t.Fatal(err)
	}
	pol.Mode = policy.ModeAcceptEdits
	approve := chain.ApproverFunc(func(context.Context, *chain.Chain, *chain.Decision) (bool, error) { return true, nil })
	res, err := RunString(context.Background(), "true && D=sub; cd $D; echo ok > out", Options{Dir: dir, Dialect: chain.POSIX,
		Authorizer: pol, Approver: approve})
	var de *chain.DeniedError
	if !errors.As(err, &de) || res == nil || de.Segment != 3 {
		t.Fatalf("want a stop at run time at segment 3: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "sub", "out")); err == nil {
		t.Error("sub/out was written")
	}
}

// TestExpansionWindows: on Windows, globs match case-insensitively and
// keep the separator they were written with, $Path is $PATH, and ~ is
// USERPROFILE without HOME.
func TestExpansionWindows(t *testing.T) {
	if runtime.GOOS != "windows" {
		t.Skip("Windows rules on a real Windows file system; chain's tests cover them on a fake one everywhere")
	}
	dir := expandDir(t, "sub/", "sub/c.txt", "sub/D.TXT")
	env := []string{"PATH=" + os.Getenv("PATH"), "USERPROFILE=" + dir}
	for _, tc := range []struct{ name, cmd, want string }{
		// Sorted by bytes, as bash under LC_COLLATE=C: D before c.
		{"backslash glob", `echo sub\*`, `sub\D.TXT sub\c.txt` + "\n"},
		{"slash glob keeps slashes", `echo sub/*.txt`, "sub/D.TXT sub/c.txt\n"},
		{"case-insensitive", `echo SUB\*.Txt`, `SUB\D.TXT SUB\c.txt` + "\n"},
		{"names fold", `echo $userprofile`, dir + "\n"},
		{"tilde is USERPROFILE", `echo ~`, dir + "\n"},
		// A value cmd.exe cannot carry, known only when the segment
		// starts, is refused then (the plan's Check cannot see it).
		{"cmd.exe argument refused at run time", "true && X=$'a\\nb'; echo start; dir \"$X\" || echo refused", "start\nrefused\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := RunString(context.Background(), tc.cmd, Options{Dir: dir, Env: env, Dialect: chain.Windows})
			if err != nil {
				t.Fatal(err)
			}
			if got := string(res.Stdout); got != tc.want {
				t.Errorf("stdout %q, want %q", got, tc.want)
			}
		})
	}
}
