//go:build unix

package engine

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
)

func run(t *testing.T, cmd string, opts Options) *Result {
	t.Helper()
	res, err := RunString(context.Background(), cmd, opts)
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	return res
}

func statuses(r *Result) []int {
	var s []int
	for _, sr := range r.Segments {
		s = append(s, sr.ExitCode)
	}
	return s
}

func TestSemantics(t *testing.T) {
	dir := testprog.TempDir(t)
	tests := []struct {
		cmd    string
		stdout string
		exit   int
		segs   []int // every segment's status, when given
	}{
		{"echo hi", "hi\n", 0, nil},
		{"true && echo a", "a\n", 0, nil},
		{"false && echo a", "", 1, []int{1, 0}},
		{"false || echo b", "b\n", 0, nil},
		{"true || echo b", "", 0, nil},
		{"false ; echo c", "c\n", 0, nil},
		{"false || false && echo x", "", 1, nil},
		{"true || false && echo x", "x\n", 0, nil}, // (true || false) && echo
		{"false && true || echo y", "y\n", 0, nil}, // (false && true) || echo
		{"false; true && false || echo z", "z\n", 0, nil},
		{"exit 3; echo no", "", 3, nil},
		{"false; exit", "", 1, nil},
		{"exit 300", "", 44, nil},
		{"exit foo", "", 2, nil},
		{"exit 1 2", "", 1, nil},
		{"echo a | exit 4; echo after", "after\n", 0, nil},
		{"echo a | exit 4", "", 4, nil},
		{"yes | head -n 1", "y\n", 0, []int{141, 0}},
		{"printf 'a\\nb\\n' | cat | wc -l", "2\n", 0, nil},
		{"true | false | true", "", 0, []int{0, 1, 0}},
		{"nosuchprogram-xyz", "", 127, nil},
		{"nosuchprogram-xyz || echo recovered", "recovered\n", 0, nil},
		{"/etc/passwd", "", 126, nil},
		{"sh -c 'kill -TERM $$'", "", 143, nil},
		{"FOO=bar sh -c 'echo $FOO'; sh -c 'echo ${FOO:-unset}'", "bar\nunset\n", 0, nil},
		{"cd " + dir + " && pwd", dir + "\n", 0, nil},
		{"cd " + dir + " | true; pwd", mustWd(t) + "\n", 0, nil},
		{"cd /nonexistent-dir-xyz; echo $?x", "1x\n", 0, []int{1, 0}},
		{"cd /nonexistent-dir-xyz", "", 1, nil},
		{"cd " + dir + " && cd - && pwd", mustWd(t) + "\n" + mustWd(t) + "\n", 0, nil},
		{"HOME=" + dir + " cd && pwd", dir + "\n", 0, nil},
		{"cd " + dir + " && sh -c 'echo $PWD'", dir + "\n", 0, nil},
		{"echo -n a; echo b", "ab\n", 0, nil},
		{"echo -e 'a\\tb'", "a\tb\n", 0, nil},
		{"echo -E 'a\\tb'", "a\\tb\n", 0, nil},
		{"echo -ne 'a\\n'", "a\n", 0, nil},
		{"echo -nE -ex 'a\\tb'", "-ex a\\tb", 0, nil},
		{"echo -- -n", "-- -n\n", 0, nil},
		{"echo -e 'a\\cb' c; echo d", "ad\n", 0, nil},
		{"echo -e '\\0101\\x41\\u00e9\\101'", "AAé\\101\n", 0, nil},
		{"echo - -n", "- -n\n", 0, nil},
		{"pwd | cat", mustWd(t) + "\n", 0, nil},
		{"echo hi | tr a-z A-Z", "HI\n", 0, nil},
		{"seq 1 5 | grep 3 | wc -l", "1\n", 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			res := run(t, tt.cmd, Options{})
			if got := strings.TrimSpace(string(res.Stdout)); got != strings.TrimSpace(tt.stdout) || string(res.Stdout) != tt.stdout {
				t.Errorf("stdout %q, want %q (stderr %q)", res.Stdout, tt.stdout, res.Stderr)
			}
			if res.ExitCode != tt.exit {
				t.Errorf("exit %d, want %d (stderr %q)", res.ExitCode, tt.exit, res.Stderr)
			}
			if tt.segs != nil && !slices.Equal(statuses(res), tt.segs) {
				t.Errorf("segment statuses %v, want %v", statuses(res), tt.segs)
			}
		})
	}
}

func mustWd(t *testing.T) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}

func TestPipefail(t *testing.T) {
	for _, tc := range []struct {
		cmd      string
		pipefail bool
		want     int
	}{
		{"yes | head -n 1", false, 0},
		{"yes | head -n 1", true, 141},
		{"false | true", true, 1},
		{"sh -c 'exit 3' | sh -c 'exit 4' | true", true, 4},
		{"true | true", true, 0},
	} {
		res := run(t, tc.cmd, Options{Pipefail: tc.pipefail})
		if res.ExitCode != tc.want {
			t.Errorf("%s (pipefail %v): %d, want %d", tc.cmd, tc.pipefail, res.ExitCode, tc.want)
		}
	}
}

func TestSkippedAndMessages(t *testing.T) {
	res := run(t, "false && echo a || fooo-nothere --x; cd /nonexistent-xyz", Options{})
	if !res.Segments[1].Skipped || res.Segments[0].Skipped || res.Segments[2].Skipped {
		t.Errorf("skipped flags wrong: %+v", res.Segments)
	}
	if want := `segment 3 "fooo-nothere --x": not found in PATH`; res.Segments[2].Error != want {
		t.Errorf("error %q, want %q", res.Segments[2].Error, want)
	}
	var se *SegmentError
	if err := res.Segments[2].Err; !errors.As(err, &se) || chain.KindOf(err) != chain.KindNotFound || se.Segment != 2 {
		t.Errorf("typed error %#v, kind %q", err, chain.KindOf(err))
	}
	if res.Segments[0].Err != nil || res.Decision != nil {
		t.Errorf("segment 0 error %v, decision %v without a policy", res.Segments[0].Err, res.Decision)
	}
	for _, want := range []string{"fooo-nothere: command not found", "cd: /nonexistent-xyz: No such file or directory"} {
		if !strings.Contains(string(res.Stderr), want) {
			t.Errorf("stderr %q lacks %q", res.Stderr, want)
		}
	}
	if res.ExitCode != 1 {
		t.Errorf("exit %d", res.ExitCode)
	}
}

// TestNotFoundRedirects: a program that cannot be found has its redirects
// applied first, as bash applies them before it looks for the program;
// its message goes to fd 2 as they left it, and a skipped segment opens
// nothing.
func TestNotFoundRedirects(t *testing.T) {
	for _, tc := range []struct {
		src, file, want, stderr string
		code                    int
	}{
		{"nosuch-prog-xyz > keep; false && echo x > created", "keep", "", "nosuch-prog-xyz: command not found", 1},
		{"nosuch-prog-xyz 2> keep", "keep", "chainrun: nosuch-prog-xyz: command not found\n", "", 127},
		{"./missing > keep", "keep", "", "./missing: No such file or directory", 127},
		{"./missing 2>> keep", "keep", "preciouschainrun: ./missing: No such file or directory\n", "", 127},
		{"nosuch-prog-xyz 2> keep < missing", "keep", "chainrun: missing: No such file or directory\n", "", 1},
	} {
		dir := testprog.TempDir(t)
		f := filepath.Join(dir, tc.file)
		os.WriteFile(f, []byte("precious"), 0o644)
		res := run(t, tc.src, Options{Dir: dir})
		if res.ExitCode != tc.code {
			t.Errorf("%s: exit %d, want %d", tc.src, res.ExitCode, tc.code)
		}
		if b, _ := os.ReadFile(f); string(b) != tc.want {
			t.Errorf("%s: %s holds %q, want %q", tc.src, tc.file, b, tc.want)
		}
		if !strings.Contains(string(res.Stderr), tc.stderr) || (tc.stderr == "" && len(res.Stderr) > 0) {
			t.Errorf("%s: stderr %q, want %q", tc.src, res.Stderr, tc.stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "created")); err == nil {
			t.Errorf("%s: a skipped segment created its target", tc.src)
		}
	}
}

func TestRedirects(t *testing.T) {
	dir := testprog.TempDir(t)
	read := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		return string(b)
	}
	res := run(t, "sh -c 'echo out; echo err >&2' > both 2>&1; sh -c 'echo out; echo err >&2' 2>&1 > only | cat; echo a >> both; mkdir sub && cd sub && echo in > f && cat < f; echo x > /nodir/y || echo failed", Options{Dir: dir})
	if got := read("both"); got != "out\nerr\na\n" {
		t.Errorf("both = %q", got)
	}
	if got := read("only"); got != "out\n" {
		t.Errorf("only = %q", got)
	}
	if got := string(res.Stdout); got != "err\nin\nfailed\n" {
		t.Errorf("stdout %q", got)
	}
	if !strings.Contains(string(res.Stderr), "/nodir/y: No such file or directory") {
		t.Errorf("stderr %q", res.Stderr)
	}
}

func TestCombinedAndLive(t *testing.T) {
	var live bytes.Buffer
	res := run(t, "echo 1; echo 2 >&2; echo 3", Options{Combined: true, Stdout: &live, Stderr: &live})
	if string(res.Stdout) != "1\n2\n3\n" || len(res.Stderr) != 0 {
		t.Errorf("combined stdout %q stderr %q", res.Stdout, res.Stderr)
	}
	if live.String() != "1\n2\n3\n" {
		t.Errorf("live %q", live.String())
	}
	res = run(t, "echo 1; echo 2 >&2", Options{NoCapture: true, Stdout: &live})
	if len(res.Stdout) != 0 {
		t.Errorf("NoCapture captured %q", res.Stdout)
	}
}

func TestStdin(t *testing.T) {
	res := run(t, "cat | tr a-z A-Z", Options{Stdin: strings.NewReader("hello")})
	if string(res.Stdout) != "HELLO" {
		t.Errorf("stdout %q", res.Stdout)
	}
	res = run(t, "cat", Options{})
	if len(res.Stdout) != 0 || res.ExitCode != 0 {
		t.Errorf("empty stdin: %q %d", res.Stdout, res.ExitCode)
	}
	// A first stage that never reads must not block on a large stdin.
	res = run(t, "true", Options{Stdin: bytes.NewReader(make([]byte, 1<<20))})
	if res.ExitCode != 0 {
		t.Errorf("exit %d", res.ExitCode)
	}
}

func TestCapBuf(t *testing.T) {
	var all []byte
	c := newCapBuf(10)
	for i := 0; i < 100; i++ {
		p := bytes.Repeat([]byte{byte('a' + i%26)}, i%7)
		all = append(all, p...)
		c.Write(p)
	}
	got, omitted := c.bytes()
	want := append(append([]byte{}, all[:5]...), all[len(all)-5:]...)
	if !bytes.Equal(got, want) || omitted != int64(len(all)-10) {
		t.Errorf("got %q omitted %d, want %q omitted %d", got, omitted, want, len(all)-10)
	}
	c = newCapBuf(10)
	c.Write([]byte("abc"))
	if got, om := c.bytes(); string(got) != "abc" || om != 0 {
		t.Errorf("small: %q %d", got, om)
	}
}

func TestMaxOutput(t *testing.T) {
	res := run(t, "seq 1 100000", Options{MaxOutput: 1000})
	if len(res.Stdout) != 1000 {
		t.Fatalf("kept %d bytes", len(res.Stdout))
	}
	if !strings.HasPrefix(string(res.Stdout), "1\n2\n3\n") || !strings.HasSuffix(string(res.Stdout), "99999\n100000\n") {
		t.Errorf("head/tail wrong")
	}
	if res.StdoutOmitted != 588895-1000 {
		t.Errorf("omitted %d", res.StdoutOmitted)
	}
	if res.Segments[0].BytesOut != 588895 {
		t.Errorf("bytes out %d", res.Segments[0].BytesOut)
	}
}

func TestTimeout(t *testing.T) {
	start := time.Now()
	res, err := RunString(context.Background(), "sleep 10; echo never", Options{Timeout: 200 * time.Millisecond, Grace: 500 * time.Millisecond})
	if !errors.Is(err, chain.ErrTimeout) || chain.KindOf(err) != chain.KindTimeout {
		t.Errorf("err %v", err)
	}
	if res == nil || !res.TimedOut || res.ExitCode != 124 {
		t.Fatalf("result %+v", res)
	}
	if !res.Segments[0].Signalled || res.Segments[0].Signal != 15 || !res.Segments[1].Skipped {
		t.Errorf("segments %+v", res.Segments)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
	// A program ignoring SIGTERM gets SIGKILL after the grace period.
	start = time.Now()
	res, _ = RunString(context.Background(), `sh -c 'trap "" TERM; sleep 10'`, Options{Timeout: 100 * time.Millisecond, Grace: 300 * time.Millisecond})
	if d := time.Since(start); d > 2*time.Second || !res.TimedOut {
		t.Errorf("took %v, %+v", d, res)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	res, err := RunString(ctx, "sleep 10", Options{})
	if !errors.Is(err, context.Canceled) || !res.Canceled || res.TimedOut {
		t.Errorf("err %v res %+v", err, res)
	}
}

func TestSignalsForwarded(t *testing.T) {
	sigs := make(chan os.Signal, 1)
	time.AfterFunc(100*time.Millisecond, func() { sigs <- os.Interrupt })
	res, err := RunString(context.Background(), "sleep 10; echo never", Options{Signals: sigs})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 130 || !res.Segments[1].Skipped {
		t.Errorf("exit %d segments %+v", res.ExitCode, res.Segments)
	}
}

type fakeAuth struct {
	v     chain.Verdict
	calls int
}

func (f *fakeAuth) Authorize(ctx context.Context, c *chain.Chain, dir string) (*chain.Decision, error) {
	f.calls++
	d := &chain.Decision{Verdict: f.v}
	for _, s := range c.Segments() {
		d.Segments = append(d.Segments, chain.SegmentDecision{Segment: s.Index, Verdict: f.v, Rule: "r1", Reasons: []string{"because"}})
	}
	return d, nil
}

func TestPolicyHooks(t *testing.T) {
	dir := testprog.TempDir(t)
	var recs []*AuditRecord
	aud := auditFunc(func(r *AuditRecord) { recs = append(recs, r) })
	for _, tc := range []struct {
		v        chain.Verdict
		approver chain.Approver
		ran      bool
	}{
		{chain.Allow, nil, true},
		{chain.Deny, nil, false},
		{chain.Ask, nil, false},
		{chain.Ask, chain.ApproverFunc(func(context.Context, *chain.Chain, *chain.Decision) (bool, error) { return false, nil }), false},
		{chain.Ask, chain.ApproverFunc(func(context.Context, *chain.Chain, *chain.Decision) (bool, error) { return true, nil }), true},
	} {
		os.Remove(filepath.Join(dir, "f"))
		res, err := RunString(context.Background(), "echo x > f", Options{Dir: dir, Authorizer: &fakeAuth{v: tc.v}, Approver: tc.approver, Auditor: aud})
		_, statErr := os.Stat(filepath.Join(dir, "f"))
		if ran := statErr == nil; ran != tc.ran {
			t.Errorf("%s: ran %v, want %v", tc.v, ran, tc.ran)
		}
		var de *chain.DeniedError
		if !tc.ran && (!errors.As(err, &de) || res != nil || de.Segment != 0 || de.Rule != "r1" || de.Decision == nil || de.Decision.Verdict != tc.v) {
			t.Errorf("%s: err %v res %v", tc.v, err, res)
		}
		if tc.ran && (res == nil || res.Decision == nil || res.Decision.Verdict != tc.v) {
			t.Errorf("%s: the result carries no decision: %+v", tc.v, res)
		}
		if tc.v == chain.Ask && tc.approver == nil && !strings.Contains(err.Error(), "needs approval") {
			t.Errorf("err %v", err)
		}
	}
	if len(recs) != 5 || recs[0].Result == nil || recs[1].Err == nil || recs[1].Decision == nil {
		t.Errorf("audit records %d", len(recs))
	}
}
