package report

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
)

// line encodes v as Write does, without the trailing newline.
func line(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, v); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	if !strings.HasSuffix(s, "\n") || strings.Count(s, "\n") != 1 {
		t.Fatalf("not one line: %q", s)
	}
	return strings.TrimSuffix(s, "\n")
}

var askDecision = &chain.Decision{
	Verdict: chain.Ask,
	Segments: []chain.SegmentDecision{
		{Segment: 0, Verdict: chain.Allow, Rule: "git log:*", Reasons: []string{"allowed"}},
		{Segment: 1, Verdict: chain.Ask, Reasons: []string{"no rule matches"}},
	},
	Chain:       []string{"cd combined with git"},
	Suggestions: []string{"Bash(head:*)"},
}

// TestFromResult pins the run report byte for byte, field order included:
// the order is the wire's and only ever grows at the end.
func TestFromResult(t *testing.T) {
	ranOK := &engine.Result{
		ExitCode: 141, StdoutOmitted: 7, Duration: 1500*time.Microsecond + 400,
		Segments: []engine.SegmentResult{
			{Index: 0, Args: []string{"git", "log"}, Path: "/usr/bin/git", Kind: "native", BytesOut: 9,
				Redirects: []chain.Redirect{{Fd: 2, Op: chain.RedirDupOut, Target: "1", Span: chain.Span{Start: 7, End: 11}}},
				Duration:  time.Millisecond},
			{Index: 1, Args: []string{"head"}, Path: "/usr/bin/head", Kind: "native", ExitCode: 141, Signal: 13,
				Signalled: true, RawExitCode: 3, Warning: "no job object", Duration: 2*time.Millisecond + 600},
		},
		Decision: askDecision,
	}
	notFound := &engine.Result{ExitCode: 127, Segments: []engine.SegmentResult{
		{Index: 0, ExitCode: 127, Error: `segment 1 "x": not found in PATH`},
	}}
	refusal := &chain.ParseError{Kind: chain.KindUnsupported, Message: "globs are refused", Offset: 3, Source: "ls *"}
	for _, tc := range []struct {
		name string
		res  *engine.Result
		err  error
		want string
	}{
		{"ran, with a decision", ranOK, nil, `{"exit_code":141,"timed_out":false,"stdout_omitted":7,"stderr_omitted":0,` +
			`"stdout":"","stderr":"","duration_ms":1.5,"segments":[` +
			`{"index":0,"argv":["git","log"],"path":"/usr/bin/git","kind":"native","exit_code":0,"signal":0,"skipped":false,` +
			`"bytes_out":9,"bytes_err":0,"redirects":[{"fd":2,"op":">&","target":"1","span":[7,11]}],"duration_ms":1},` +
			`{"index":1,"argv":["head"],"path":"/usr/bin/head","kind":"native","exit_code":141,"raw_exit_code":3,"signal":13,` +
			`"signalled":true,"skipped":false,"bytes_out":0,"bytes_err":0,"redirects":[],"warning":"no job object","duration_ms":2.001}],` +
			`"error":null,"decision":"ask","reasons":[{"segment":0,"verdict":"allow","rule":"git log:*","reasons":["allowed"]},` +
			`{"segment":1,"verdict":"ask","reasons":["no rule matches"]}],"chain_reasons":["cd combined with git"],"suggestions":["Bash(head:*)"]}`},
		{"segment not found, no policy", notFound, nil, `{"exit_code":127,"timed_out":false,"stdout_omitted":0,"stderr_omitted":0,` +
			`"stdout":"","stderr":"","duration_ms":0,"segments":[{"index":0,"argv":[],"path":"","exit_code":127,"signal":0,` +
			`"skipped":false,"bytes_out":0,"bytes_err":0,"redirects":[],"error":"segment 1 \"x\": not found in PATH","duration_ms":0}],` +
			`"error":null}`},
		{"refused", nil, refusal, `{"exit_code":2,"timed_out":false,"stdout_omitted":0,"stderr_omitted":0,"stdout":"","stderr":"",` +
			`"duration_ms":0,"segments":[],"error":{"kind":"unsupported","message":"globs are refused","offset":3}}`},
		{"denied, decision from the denial", nil, fmt.Errorf("run: %w", &chain.DeniedError{Segment: -1, Reason: "no", Decision: &chain.Decision{Verdict: chain.Deny}}),
			`{"exit_code":3,"timed_out":false,"stdout_omitted":0,"stderr_omitted":0,"stdout":"","stderr":"","duration_ms":0,` +
				`"segments":[],"error":{"kind":"denied","message":"run: denied: no"},"decision":"deny","reasons":[],"chain_reasons":[],"suggestions":[]}`},
		{"timed out and canceled", &engine.Result{ExitCode: 124, TimedOut: true, Canceled: true}, chain.ErrTimeout,
			`{"exit_code":124,"timed_out":true,"canceled":true,"stdout_omitted":0,"stderr_omitted":0,"stdout":"","stderr":"",` +
				`"duration_ms":0,"segments":[],"error":{"kind":"timeout","message":"timed out"}}`},
		{"internal", nil, errors.New("boom"), `{"exit_code":125,"timed_out":false,"stdout_omitted":0,"stderr_omitted":0,` +
			`"stdout":"","stderr":"","duration_ms":0,"segments":[],"error":{"kind":"internal","message":"boom"}}`},
	} {
		if got := line(t, FromResult(tc.res, tc.err)); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// TestRunChainReasons: a chain denied for a chain-wide reason alone says
// why in its run report, as its plan does.
func TestRunChainReasons(t *testing.T) {
	d := &chain.Decision{Verdict: chain.Ask,
		Segments: []chain.SegmentDecision{{Segment: 0, Verdict: chain.Allow}, {Segment: 1, Verdict: chain.Allow}},
		Chain:    []string{"cd combined with git: the new directory's repository configuration can run programs"}}
	err := &chain.DeniedError{Segment: -1, Reason: "needs approval", Decision: d}
	run := line(t, FromResult(nil, err))
	c, perr := chain.ParseDialect("cd sub && git status", chain.POSIX)
	if perr != nil {
		t.Fatal(perr)
	}
	p := NewPlan(c, nil)
	p.Judge(d)
	plan := line(t, p)
	want := `"chain_reasons":["cd combined with git: the new directory's repository configuration can run programs"]`
	for name, got := range map[string]string{"run": run, "plan": plan} {
		if !strings.Contains(got, want) {
			t.Errorf("%s report %s lacks %s", name, got, want)
		}
	}
}

// TestDecisionText pins the one text rendering of a decision.
func TestDecisionText(t *testing.T) {
	d := NewDecision(&chain.Decision{Verdict: chain.Ask,
		Segments: []chain.SegmentDecision{
			{Segment: 0, Text: "git log", Verdict: chain.Allow, Rule: "Bash(git log:*)", Reasons: []string{"allowed"}},
			{Segment: 1, Text: "git tag v1", Verdict: chain.Ask, Reasons: []string{"no rule matches", "tags"}},
			{Segment: 2, Text: "rm x", Verdict: chain.Deny, Rule: "Bash(rm:*)"},
		},
		Chain:       []string{"cd combined with git"},
		Suggestions: []string{"Bash(git tag:*)", "Edit(./x)"}})
	tail := `  segment 2 "git tag v1" asks: no rule matches; tags` + "\n" +
		`  segment 3 "rm x" is denied (rule "Bash(rm:*)")` + "\n" +
		"  chain: cd combined with git\n" +
		`  to allow it, add to permissions.allow: "Bash(git tag:*)" "Edit(./x)"` + "\n"
	if got, want := d.Text(false), "decision: ask\n"+tail; got != want {
		t.Errorf("Text(false):\n%s\nwant\n%s", got, want)
	}
	every := "decision: ask\n" + `  segment 1 "git log" is allowed (rule "Bash(git log:*)"): allowed` + "\n" + tail
	if got := d.Text(true); got != every {
		t.Errorf("Text(true):\n%s\nwant\n%s", got, every)
	}
	d.Verdict = chain.Deny
	if got := d.Text(false); strings.Contains(got, "permissions.allow") {
		t.Errorf("a denied chain offers rules to allow it:\n%s", got)
	}
}

// TestNewPlan pins the plan byte for byte: refusals, warnings, the
// implicit 2>&1 of |&, and each policy field absent when empty.
func TestNewPlan(t *testing.T) {
	allow := &chain.Decision{Verdict: chain.Allow, Segments: []chain.SegmentDecision{{Verdict: chain.Allow}}, Suggestions: []string{}}
	for _, tc := range []struct {
		src     string
		dialect chain.Dialect
		d       *chain.Decision
		want    string
	}{
		{"A=1 make >out.txt && echo done", chain.POSIX, nil, `{"segments":[` +
			`{"argv":["make"],"env":{"A":"1"},"redirects":[{"fd":1,"op":">","target":"out.txt","span":[9,17]}],"builtin":false,"span":[0,17]},` +
			`{"argv":["echo","done"],"env":{},"redirects":[],"builtin":true,"span":[21,30]}],"ops":["&&"],"warnings":[],"error":null}`},
		{"a |& b", chain.POSIX, allow, `{"segments":[` +
			`{"argv":["a"],"env":{},"redirects":[{"fd":2,"op":">&","target":"1","span":[2,4],"implicit":true}],"builtin":false,"span":[0,1]},` +
			`{"argv":["b"],"env":{},"redirects":[],"builtin":false,"span":[5,6]}],"ops":["|"],"warnings":[],"error":null,` +
			`"decision":"allow","reasons":[{"segment":0,"verdict":"allow","reasons":null}],"chain_reasons":[],"suggestions":[]}`},
		{`type C:\a.txt`, chain.Windows, askDecision, `{"segments":[{"argv":["type","C:\\a.txt"],"env":{},"redirects":[],` +
			`"builtin":false,"span":[0,13]}],"ops":[],"warnings":[{"offset":5,"message":"C:\\a.txt reads as «C:\\a.txt» in the ` +
			`windows dialect but as «C:a.txt» in the posix dialect"}],"error":null,"decision":"ask","reasons":[` +
			`{"segment":0,"verdict":"allow","rule":"git log:*","reasons":["allowed"]},{"segment":1,"verdict":"ask","reasons":` +
			`["no rule matches"]}],"chain_reasons":["cd combined with git"],"suggestions":["Bash(head:*)"]}`},
		{"time -p a | b; time c; d", chain.POSIX, nil, `{"segments":[` +
			`{"argv":["a"],"env":{},"redirects":[],"builtin":false,"span":[8,9],"timed":true,"time_posix":true},` +
			`{"argv":["b"],"env":{},"redirects":[],"builtin":false,"span":[12,13],"timed":true,"time_posix":true},` +
			`{"argv":["c"],"env":{},"redirects":[],"builtin":false,"span":[20,21],"timed":true},` +
			`{"argv":["d"],"env":{},"redirects":[],"builtin":false,"span":[23,24]}],"ops":["|",";",";"],"warnings":[],"error":null}`},
		{"echo `echo \\$x`", chain.POSIX, nil, `{"segments":[],"ops":[],"warnings":[],"error":{"kind":"unsupported",` +
			`"message":"a backslash inside backticks is read twice by bash; write the substitution as $(…) instead",` +
			`"offset":5}}`},
		{"x=$(a; b | c) `d $(e)`", chain.POSIX, nil, `{"segments":[{"argv":["` + "`d $(e)`" + `"],"env":{"x":"$(a; b | c)"},"redirects":[],"builtin":false,"span":[0,22],` +
			`"words":[{"text":"` + "`d $(e)`" + `","expanded":["` + "`d $(e)`" + `"],"runtime":true}],` +
			`"substitutions":[{"span":[2,13],"argv":[["a"],["b"],["c"]],"ops":[";","|"]},{"span":[14,22],"argv":[["d","$(e)"]],"ops":[]},` +
			`{"span":[17,21],"argv":[["e"]],"ops":[]}]}],"ops":[],"warnings":[],"error":null}`},
		{"a && && b", chain.POSIX, nil, ""},
		{"cat <<'EOF' 3<<<hi >f\nsecret body\nEOF", chain.POSIX, nil, `{"segments":[{"argv":["cat"],"env":{},"redirects":[` +
			`{"fd":0,"op":"<<","target":"","span":[4,11],"delimiter":"'EOF'","body_bytes":12,"body_span":[22,34]},` +
			`{"fd":3,"op":"<<<","target":"","span":[12,18],"body_bytes":3,"body_span":[16,18]},` +
			`{"fd":1,"op":">","target":"f","span":[19,21]}],"builtin":false,"span":[0,21]}],"ops":[],"warnings":[],"error":null}`},
	} {
		c, err := chain.ParseDialect(tc.src, tc.dialect)
		p := NewPlan(c, err)
		p.Judge(tc.d)
		got := line(t, p)
		if tc.want == "" {
			if p.Error == nil || p.Error.Kind != chain.KindSyntax || p.Error.Offset == nil || len(p.Segments) != 0 {
				t.Errorf("%s: %s", tc.src, got)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

func TestNewError(t *testing.T) {
	off := func(n int) *int { return &n }
	for _, tc := range []struct {
		err  error
		want *Error
	}{
		{nil, nil},
		{&chain.ParseError{Kind: chain.KindSyntax, Message: "unterminated quote", Offset: 5, Source: "echo 'a"},
			&Error{Kind: chain.KindSyntax, Message: "unterminated quote", Offset: off(5)}},
		{&chain.DeniedError{Segment: 0, Text: "curl x", Rule: "curl:*"},
			&Error{Kind: chain.KindDenied, Message: `denied: segment 1 "curl x" by rule "curl:*"`}},
		{fmt.Errorf("%w after 1s", chain.ErrTimeout), &Error{Kind: chain.KindTimeout, Message: "timed out after 1s"}},
		{&engine.SegmentError{Kind: chain.KindUnsupported, Text: "pushd x", Err: errors.New("refused")},
			&Error{Kind: chain.KindUnsupported, Message: `segment 1 "pushd x": refused`}},
	} {
		if got := NewError(tc.err); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("NewError(%v) = %+v, want %+v", tc.err, got, tc.want)
		}
	}
}

func TestMillis(t *testing.T) {
	for d, want := range map[time.Duration]float64{
		0:                       0,
		1500 * time.Microsecond: 1.5,
		1499:                    0.001,
		499:                     0,
		2*time.Second + 500:     2000.001,
	} {
		if got := Millis(d); got != want {
			t.Errorf("Millis(%d) = %v, want %v", d, got, want)
		}
	}
}

// TestWriteNoHTMLEscaping: output and operators read as written.
func TestWriteNoHTMLEscaping(t *testing.T) {
	got := line(t, Redirect{Fd: 1, Op: chain.RedirBoth, Target: "<a&b>\u2028"})
	want := `{"fd":1,"op":"&>","target":"<a&b>\u2028","span":[0,0]}`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestPlainWireTypes: the wire types marshal through their fields only,
// so a JSON-schema generator describes exactly what is printed.
func TestPlainWireTypes(t *testing.T) {
	marshaler := reflect.TypeFor[json.Marshaler]()
	textMarshaler := reflect.TypeFor[encoding.TextMarshaler]()
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(ty reflect.Type) {
		if seen[ty] {
			return
		}
		seen[ty] = true
		for _, impl := range []reflect.Type{ty, reflect.PointerTo(ty)} {
			if impl.Implements(marshaler) || impl.Implements(textMarshaler) {
				t.Errorf("%s has a custom marshaler", ty)
			}
		}
		switch ty.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			walk(ty.Elem())
		case reflect.Struct:
			for _, f := range reflect.VisibleFields(ty) {
				if f.Anonymous && f.Type != reflect.TypeFor[*Decision]() {
					t.Errorf("%s embeds %s", ty, f.Type)
				}
				if f.IsExported() && !f.Anonymous && f.Tag.Get("json") == "" {
					t.Errorf("%s.%s has no json tag", ty, f.Name)
				}
				walk(f.Type)
			}
		}
	}
	walk(reflect.TypeFor[Run]())
	walk(reflect.TypeFor[Plan]())
}
