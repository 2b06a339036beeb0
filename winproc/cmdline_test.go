package winproc

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/chainrun/chainrun/resolve"
)

// The golden lines of Rust's std (the prefix is the same for all).
func TestBatchCommandLineGolden(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{nil, `""script.bat""`},
		{[]string{"hello"}, `""script.bat" hello"`},
		{[]string{"hello world"}, `""script.bat" "hello world""`},
		{[]string{""}, `""script.bat" """`},
		{[]string{`say "hi"`}, `""script.bat" "say ""hi""""`},
		{[]string{`a\`}, `""script.bat" "a\\""`},
		{[]string{"one", "two", "three"}, `""script.bat" one two three"`},
		{[]string{"%PATH%"}, `""script.bat" "%%cd:~,%PATH%%cd:~,%""`},
		{[]string{`"`}, `""script.bat" """""`},
		{[]string{"a=b"}, `""script.bat" "a=b""`},
	}
	for _, tt := range tests {
		got, err := BatchCommandLine("script.bat", tt.args)
		if err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		if want := "cmd.exe /e:ON /v:OFF /d /c " + tt.want; got != want {
			t.Errorf("%q:\n got %s\nwant %s", tt.args, got, want)
		}
	}
}

func TestBatchCommandLineRefuses(t *testing.T) {
	tests := []struct {
		script string
		args   []string
		index  int
		reason string
	}{
		{`C:\t\x.bat`, []string{"ok", "a\nb"}, 2, "line feed"},
		{`C:\t\x.bat`, []string{"a\rb"}, 1, "carriage return"},
		{`C:\t\x.bat`, []string{"a\x00b"}, 1, "NUL"},
		{`C:\t\"x.bat`, nil, 0, "double quote"},
		{`C:\100%\x.bat`, nil, 0, "%"},
		{`C:\t\`, nil, 0, "backslash"},
		{"", nil, 0, "empty"},
		{`C:\t\x.bat`, []string{"short", strings.Repeat("%", 1100)}, 2, "8191"},
	}
	for _, tt := range tests {
		_, err := BatchCommandLine(tt.script, tt.args)
		var ae *ArgError
		if !errors.As(err, &ae) || !errors.Is(err, ErrRefused) {
			t.Errorf("%q %q: got %v, want an *ArgError", tt.script, tt.args, err)
			continue
		}
		if ae.Index != tt.index || !strings.Contains(ae.Error(), tt.reason) {
			t.Errorf("%q %q: got index %d %q, want index %d mentioning %q", tt.script, tt.args, ae.Index, ae.Error(), tt.index, tt.reason)
		}
		if CheckBatchArgs(tt.script, tt.args) == nil {
			t.Errorf("CheckBatchArgs accepted %q %q", tt.script, tt.args)
		}
	}
	// Just under and over the limit, in UTF-16 units: 'ä' is one unit,
	// '😀' two.
	base, _ := BatchCommandLine(`x.bat`, []string{" "})
	room := MaxCmdLine - utf16Len(base)
	if _, err := BatchCommandLine(`x.bat`, []string{" " + strings.Repeat("ä", room)}); err != nil {
		t.Errorf("line of exactly %d units refused: %v", MaxCmdLine, err)
	}
	if _, err := BatchCommandLine(`x.bat`, []string{" " + strings.Repeat("ä", room-1) + "😀"}); err == nil {
		t.Errorf("line of %d units accepted", MaxCmdLine+1)
	}
}

// Paths that must work as scripts: cmd reads them inside quotes.
func TestBatchCommandLineScriptPaths(t *testing.T) {
	for _, p := range []string{`C:\Program Files (x86)\t\x.cmd`, `C:\a&b\x.bat`, `C:\a^b\x.bat`, `C:\日本\x.bat`} {
		got, err := BatchCommandLine(p, []string{"a"})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if want := `cmd.exe /e:ON /v:OFF /d /c ""` + p + `" a"`; got != want {
			t.Errorf("got %s want %s", got, want)
		}
	}
}

// npm and npx are .cmd shims that hand %* to node: ordinary arguments
// stay bare and read naturally.
func TestBatchCommandLineShim(t *testing.T) {
	got, err := BatchCommandLine(`C:\Program Files\nodejs\npm.cmd`, []string{"install", "--save-dev", "left-pad@1.3.0", "--registry=https://r.example/x"})
	if err != nil {
		t.Fatal(err)
	}
	want := `cmd.exe /e:ON /v:OFF /d /c ""C:\Program Files\nodejs\npm.cmd" install --save-dev left-pad@1.3.0 "--registry=https://r.example/x""`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	assertBatchRoundTrip(t, []string{"-y", "create-vite@latest", "my app", "--template", "react-ts"})
}

// batchInner undoes what cmd.exe does to a batch line before the batch
// file's %* reaches a program: the /c quote pair is stripped and every
// %%cd:~,% expands to a single %. The result is the command line such a
// program sees after its own quoted path.
func batchInner(t testing.TB, line string) string {
	t.Helper()
	rest, ok := strings.CutPrefix(line, batchPrefix)
	if !ok || !strings.HasSuffix(rest, `"`) {
		t.Fatalf("malformed batch line %q", line)
	}
	return strings.ReplaceAll(rest[:len(rest)-1], percentEscape, "%")
}

func assertBatchRoundTrip(t testing.TB, args []string) {
	t.Helper()
	line, err := BatchCommandLine(`C:\t\script.bat`, args)
	if err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	got := ParseCommandLine(batchInner(t, line))
	if len(got) == 0 || got[0] != `C:\t\script.bat` || !slices.Equal(got[1:], args) && !(len(args) == 0 && len(got) == 1) {
		t.Errorf("round trip of %q:\nline %s\n got %q", args, line, got)
	}
}

// vectors are the batch argument vectors of the design notes, in
// testdata/batch-vectors.json; the same file drives the integration tests
// through real cmd.exe in test/windows.
// It is read on first use, not at init: the test binary also runs as a
// helper program from other directories, where the path does not resolve.
var vectors = sync.OnceValue(func() [][]string { return loadVectors("testdata/batch-vectors.json") })

func loadVectors(path string) [][]string {
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	var v [][]string
	if err := json.Unmarshal(b, &v); err != nil {
		panic(fmt.Sprintf("%s: %v", path, err))
	}
	return v
}

func TestBatchRoundTripVectors(t *testing.T) {
	for _, v := range vectors() {
		assertBatchRoundTrip(t, v)
	}
}

func TestEscapeArg(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{"a", "a"},
		{"a b", `"a b"`},
		{"a\tb", "\"a\tb\""},
		{`a\b`, `a\b`},
		{`a\`, `a\`},
		{`a b\`, `"a b\\"`},
		{`a"b`, `a\"b`},
		{`a\"b`, `a\\\"b`},
		{`a \"b`, `"a \\\"b"`},
		{`"`, `\"`},
		{`C:\Program Files\`, `"C:\Program Files\\"`},
		{"&|<>%^", "&|<>%^"},
	}
	for _, tt := range tests {
		if got := EscapeArg(tt.in); got != tt.want {
			t.Errorf("EscapeArg(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestComposeCommandLine(t *testing.T) {
	got, err := ComposeCommandLine([]string{`C:\Program Files\Git\cmd\git.exe`, "commit", "-m", `fix "x"`, ""})
	if err != nil {
		t.Fatal(err)
	}
	if want := `"C:\Program Files\Git\cmd\git.exe" commit -m "fix \"x\"" ""`; got != want {
		t.Errorf("got %s want %s", got, want)
	}
	// argv0 is quoted even without spaces; the rest of the line parses
	// back under both argv0 rules.
	got, _ = ComposeCommandLine([]string{`C:\x.exe`, `a\\`})
	if got != `"C:\x.exe" a\\` {
		t.Errorf("got %s", got)
	}
	for _, bad := range [][]string{nil, {`C:\a"b.exe`}, {`C:\x.exe`, "a\x00"}, {`C:\x.exe`, strings.Repeat("x", MaxCommandLine)}} {
		if _, err := ComposeCommandLine(bad); !errors.Is(err, ErrRefused) {
			t.Errorf("%.40q: got %v, want a refusal", bad, err)
		}
	}
}

func TestParseCommandLine(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{``, nil},
		{`x.exe`, []string{"x.exe"}},
		{`"C:\a b\x.exe" a`, []string{`C:\a b\x.exe`, "a"}},
		{`C:\a\x.exe  a   b `, []string{`C:\a\x.exe`, "a", "b"}},
		{`x "a b" c`, []string{"x", "a b", "c"}},
		{`x a"b c"d`, []string{"x", "ab cd"}},
		{`x ""`, []string{"x", ""}},
		{`x a\\\"b`, []string{"x", `a\"b`}},
		{`x a\\"b c"`, []string{"x", `a\b c`}},
		{`x a\\b`, []string{"x", `a\\b`}},
		// post-2008: "" inside quotes is a quote and quoting goes on.
		{`x "a""b c"`, []string{"x", `a"b c`}},
		{`x key="foo bar"`, []string{"x", `key=foo bar`}},
		{`x "key=""foo bar"""`, []string{"x", `key="foo bar"`}},
		{`x """"`, []string{"x", `"`}},
		{`x "unterminated`, []string{"x", "unterminated"}},
		{"x\ta\tb", []string{"x", "a", "b"}},
	}
	for _, tt := range tests {
		if got := ParseCommandLine(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("ParseCommandLine(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestBuiltinCommandLine(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"ver", nil, `ver`},
		{"type", []string{"package.json"}, `type package.json`},
		{"type", []string{`C:\my dir\a.txt`}, `type "C:\my dir\a.txt"`},
		{"dir", []string{`/b`, `C:\Windows`}, `dir /b C:\Windows`},
		{"copy", []string{"a&b.txt", "c"}, `copy a^&b.txt c`},
		{"type", []string{"a|b", "(x)", "x^y", `q"`}, `type a^|b ^(x^) x^^y q^"`},
		{"type", []string{"a & b"}, `type "a & b"`},
		{"type", []string{"%PATH%.txt"}, `type %%cd:~,%PATH%%cd:~,%.txt`},
		{"ren", []string{"a,b", ""}, `ren "a,b" ""`},
		{"type", []string{"日本語.txt"}, `type 日本語.txt`},
	}
	for _, tt := range tests {
		got, err := BuiltinCommandLine(tt.name, tt.args)
		if err != nil {
			t.Fatalf("%s %q: %v", tt.name, tt.args, err)
		}
		if want := `cmd.exe /d /u /e:ON /v:OFF /s /c "` + tt.want + `"`; got != want {
			t.Errorf("%s %q:\n got %s\nwant %s", tt.name, tt.args, got, want)
		}
	}
	if got, _ := BuiltinCommandLineCP("type", []string{"a b.txt"}); got != `cmd.exe /d /e:ON /v:OFF /s /c "type "a b.txt""` {
		t.Errorf("CP form: %s", got)
	}
	if BuiltinUnicodeSafe("TYPE") || !BuiltinUnicodeSafe("dir") {
		t.Error("BuiltinUnicodeSafe")
	}
	for _, bad := range []struct {
		name string
		args []string
	}{{"type", []string{"a\nb"}}, {"type", []string{`a "b"`}}, {"ty pe", nil}, {"type", []string{"x\r"}}} {
		if err := CheckBuiltinArgs(bad.name, bad.args); !errors.Is(err, ErrRefused) {
			t.Errorf("%s %q: got %v, want a refusal", bad.name, bad.args, err)
		}
	}
}

func TestArgErrorMessage(t *testing.T) {
	_, err := BatchCommandLine(`C:\t\x.bat`, []string{"fine", "bad\nline"})
	want := `argument 2 "bad\nline" refused: contains a line feed, which ends the command cmd.exe runs`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// fuzzAlphabet holds the characters cmd.exe and argv parsers treat
// specially, plus some that are not special at all.
const fuzzAlphabet = "\"\\%^&|<>()!,;=` \tab日é~:"

// fuzzInput reads a fuzz input as arguments: raw bytes mapped onto the
// alphabet cmd.exe cares about, or valid UTF-8 split at NUL.
func fuzzInput(data []byte, raw bool) ([]string, bool) {
	if raw {
		return fuzzArgs(data), true
	}
	if !utf8.Valid(data) {
		return nil, false
	}
	return strings.Split(string(data), "\x00"), true
}

func fuzzArgs(data []byte) []string {
	alpha := []rune(fuzzAlphabet)
	var args []string
	var cur []rune
	for _, c := range data {
		if c%(byte(len(alpha))+1) == byte(len(alpha)) {
			args = append(args, string(cur))
			cur = nil
			continue
		}
		cur = append(cur, alpha[int(c)%(len(alpha)+1)])
	}
	return append(args, string(cur))
}

func FuzzBatchRoundTrip(f *testing.F) {
	for _, v := range vectors() {
		f.Add([]byte(strings.Join(v, "\x00")), false)
	}
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8}, true)
	f.Fuzz(func(t *testing.T, data []byte, raw bool) {
		args, ok := fuzzInput(data, raw)
		if !ok {
			return
		}
		line, err := BatchCommandLine(`C:\t\script.bat`, args)
		if err != nil {
			var ae *ArgError
			if !errors.As(err, &ae) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if strings.ContainsAny(line, "\r\n\x00") {
			t.Fatalf("line carries CR/LF/NUL: %q", line)
		}
		got := ParseCommandLine(batchInner(t, line))
		if !slices.Equal(got[1:], args) {
			t.Fatalf("round trip of %q:\nline %s\n got %q", args, line, got[1:])
		}
		// Outside quotes no metacharacter may appear: cmd would act on it.
		inner := line[len(batchPrefix) : len(line)-1]
		inQuote := false
		for _, r := range inner {
			if r == '"' {
				inQuote = !inQuote
			} else if !inQuote && strings.ContainsRune("&|<>()^%!", r) {
				t.Fatalf("%q outside quotes in %s", r, line)
			}
		}
		if inQuote {
			t.Fatalf("unbalanced quotes in %s", line)
		}
	})
}

func FuzzEscapeArg(f *testing.F) {
	for _, v := range vectors() {
		f.Add([]byte(strings.Join(v, "\x00")), false)
	}
	f.Add([]byte{9, 1, 2, 3, 4}, true)
	f.Fuzz(func(t *testing.T, data []byte, raw bool) {
		args, ok := fuzzInput(data, raw)
		if !ok {
			return
		}
		line, err := ComposeCommandLine(append([]string{`C:\Program Files\x.exe`}, args...))
		if err != nil {
			return
		}
		got := ParseCommandLine(line)
		if got[0] != `C:\Program Files\x.exe` || !slices.Equal(got[1:], args) {
			t.Fatalf("round trip of %q:\nline %s\n got %q", args, line, got)
		}
	})
}

func TestCheck(t *testing.T) {
	ok := []struct {
		kind resolve.Kind
		path string
		args []string
	}{
		{"batch", `C:\n\npm.cmd`, []string{"npm", "install", "a b"}},
		{"cmd-builtin", "dir", []string{"dir", "/b"}},
		{"native", `C:\x.exe`, []string{"x", "a\nb"}},
		{"powershell", `C:\s.ps1`, []string{"s"}},
	}
	for _, c := range ok {
		if err := Check(c.kind, c.path, c.args); err != nil {
			t.Errorf("%v: %v", c, err)
		}
	}
	if err := Check("batch", `C:\n\npm.cmd`, []string{"npm", "a\nb"}); !errors.Is(err, ErrRefused) {
		t.Errorf("batch LF: %v", err)
	}
	if err := Check("cmd-builtin", "type", []string{"type", `a "b"`}); !errors.Is(err, ErrRefused) {
		t.Errorf("builtin quote: %v", err)
	}
	if err := Check("native", `C:\x.exe`, []string{"x", "a\x00"}); !errors.Is(err, ErrRefused) {
		t.Errorf("native NUL: %v", err)
	}
}
