package winconsole

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/chainrun/chainrun/internal/testprog"
)

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

func mustCP(t testing.TB, n int) CodePage {
	t.Helper()
	cp := CodePageByNumber(n)
	if cp == nil {
		t.Fatalf("code page %d unavailable", n)
	}
	return cp
}

// decodeChunks runs a Decoder over raw cut into pieces of size n.
func decodeChunks(raw []byte, d Decoder, n int) ([]byte, string) {
	var out []byte
	for len(raw) > 0 {
		k := min(n, len(raw))
		out = d.Append(out, raw[:k])
		raw = raw[k:]
	}
	out = d.Flush(out)
	return out, d.Encoding()
}

func TestDecode(t *testing.T) {
	cp437, cp1252, cp936, cp932 := mustCP(t, 437), mustCP(t, 1252), mustCP(t, 936), mustCP(t, 932)
	long := strings.Repeat("é", 40) // 80 bytes of UTF-8, longer than the sniff window
	for _, tt := range []struct {
		name     string
		raw      []byte
		fallback CodePage
		utf16    bool
		maxLine  int
		want     string
		enc      string
	}{
		{name: "empty", raw: nil, fallback: cp437, want: "", enc: ""},
		{name: "ASCII", raw: []byte("hello\r\nworld\n"), fallback: cp437, want: "hello\r\nworld\n", enc: "utf-8"},
		{name: "short ASCII without newline", raw: []byte("ok"), fallback: cp437, want: "ok", enc: "utf-8"},
		{name: "UTF-8", raw: []byte("héllo wörld ✓\n"), fallback: cp437, want: "héllo wörld ✓\n", enc: "utf-8"},
		{name: "UTF-8 BOM stripped", raw: []byte("\xEF\xBB\xBFé\n"), fallback: cp437, want: "é\n", enc: "utf-8"},
		{name: "UTF-8 BOM only", raw: []byte("\xEF\xBB\xBF"), fallback: cp437, want: "", enc: "utf-8"},
		{name: "cp437", raw: []byte("caf\x82\r\n"), fallback: cp437, want: "café\r\n", enc: "cp437"},
		{name: "cp1252", raw: []byte("caf\xE9\n"), fallback: cp1252, want: "café\n", enc: "cp1252"},
		{name: "cp936", raw: []byte("\xC4\xE3\xBA\xC3\n"), fallback: cp936, want: "你好\n", enc: "cp936"},
		{name: "cp932", raw: []byte("\x93\xFA\x96\x7B\x8C\xEA\n"), fallback: cp932, want: "日本語\n", enc: "cp932"},
		{name: "mixed lines", raw: []byte("héllo\n\x82t\x82\nplain\n"), fallback: cp437,
			want: "héllo\nété\nplain\n", enc: "mixed:utf-8+cp437"},
		{name: "ASCII and legacy is not mixed", raw: []byte("plain\n\x82t\x82\n"), fallback: cp437,
			want: "plain\nété\n", enc: "cp437"},
		{name: "BOM then legacy line", raw: []byte("\xEF\xBB\xBFok\n\x82\n"), fallback: cp437, want: "ok\né\n", enc: "mixed:utf-8+cp437"},
		{name: "invalid without fallback", raw: []byte("a\xFFb\n"), want: "a\uFFFDb\n", enc: "replacement"},
		{name: "invalid among UTF-8 without fallback", raw: []byte("é\na\xC3(\n"), want: "é\na\uFFFD(\n", enc: "mixed:utf-8+replacement"},
		{name: "UTF-8 cut at the end", raw: []byte("ab\xE2\x9C"), fallback: cp437, want: "ab\uFFFD", enc: "mixed:utf-8+replacement"},
		{name: "overlong encoding is not UTF-8", raw: []byte("\xC0\xAF\n"), fallback: cp1252, want: "À¯\n", enc: "cp1252"},
		{name: "surrogate in UTF-8 is not UTF-8", raw: []byte("\xED\xA0\x80\n"), fallback: cp1252, want: "í\u00a0€\n", enc: "cp1252"},
		{name: "UTF-16LE BOM", raw: cat([]byte{0xFF, 0xFE}, testprog.UTF16LE("héllo ✓\r\n")), fallback: cp437, want: "héllo ✓\r\n", enc: "utf-16le"},
		{name: "UTF-16LE sniffed", raw: testprog.UTF16LE("Volume in drive C has no label.\r\n"), fallback: cp437,
			want: "Volume in drive C has no label.\r\n", enc: "utf-16le"},
		{name: "UTF-16LE sniffed, short", raw: testprog.UTF16LE("dir\r\n"), fallback: cp437, want: "dir\r\n", enc: "utf-16le"},
		{name: "UTF-16LE surrogate pair", raw: testprog.UTF16LE("a😀b"), utf16: true, want: "a😀b", enc: "utf-16le"},
		{name: "UTF-16LE odd byte at the end", raw: cat(testprog.UTF16LE("ab"), []byte{'c'}), utf16: true, want: "ab\uFFFD", enc: "utf-16le"},
		{name: "UTF-16LE lone high surrogate at the end", raw: cat(testprog.UTF16LE("ab"), []byte{0x3D, 0xD8}), utf16: true, want: "ab\uFFFD", enc: "utf-16le"},
		{name: "UTF-16LE lone low surrogate", raw: cat(testprog.UTF16LE("a"), []byte{0x00, 0xDE}, testprog.UTF16LE("b")), utf16: true, want: "a\uFFFDb", enc: "utf-16le"},
		{name: "UTF-16 forced, BOM stripped", raw: cat([]byte{0xFF, 0xFE}, testprog.UTF16LE("x")), utf16: true, want: "x", enc: "utf-16le"},
		{name: "UTF-16 forced, CJK", raw: testprog.UTF16LE("你好"), utf16: true, want: "你好", enc: "utf-16le"},
		{name: "NUL bytes are not UTF-16 when even ones are NUL too", raw: make([]byte, 80), fallback: cp437,
			want: string(make([]byte, 80)), enc: "utf-8"},
		{name: "long UTF-8 line in pieces", raw: []byte(long + "\n"), fallback: cp437, maxLine: 7,
			want: long + "\n", enc: "utf-8"},
		{name: "long cp936 line never splits a character", raw: []byte(strings.Repeat("\xC4\xE3", 20) + "\n"),
			fallback: cp936, maxLine: 7, want: strings.Repeat("你", 20) + "\n", enc: "cp936"},
		{name: "long cp437 line", raw: []byte(strings.Repeat("\x82", 20)), fallback: cp437, maxLine: 7,
			want: strings.Repeat("é", 20), enc: "cp437"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, chunk := range []int{1 << 20, 1, 2, 3, 5, 64} {
				d := Decoder{Fallback: tt.fallback, UTF16: tt.utf16, MaxLine: tt.maxLine}
				got, enc := decodeChunks(tt.raw, d, chunk)
				if string(got) != tt.want || enc != tt.enc {
					t.Fatalf("chunks of %d: got %q (%s); want %q (%s)", chunk, got, enc, tt.want, tt.enc)
				}
			}
			if tt.maxLine == 0 && !tt.utf16 {
				if got, enc := Decode(tt.raw, tt.fallback); string(got) != tt.want || enc != tt.enc {
					t.Fatalf("Decode: got %q (%s); want %q (%s)", got, enc, tt.want, tt.enc)
				}
			}
		})
	}
}

// TestDecoderStreams checks that complete lines come out as soon as they
// are complete, and a partial line waits.
func TestDecoderStreams(t *testing.T) {
	d := Decoder{Fallback: mustCP(t, 437)}
	head := strings.Repeat("x", sniffLen) + "\n"
	if got := d.Append(nil, []byte(head+"caf\x82\nhalf")); string(got) != head+"café\n" {
		t.Fatalf("first write: %q", got)
	}
	if got := d.Append(nil, []byte(" line\xE2\x9C")); len(got) != 0 {
		t.Fatalf("partial line decoded early: %q", got)
	}
	if got := d.Append(nil, []byte("\x93\n")); string(got) != "half line✓\n" {
		t.Fatalf("completed line: %q", got)
	}
	if enc := d.Encoding(); enc != "mixed:utf-8+cp437" {
		t.Fatalf("encoding %q", enc)
	}
}

func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b, mustCP(t, 1252))
	for _, p := range [][]byte{[]byte("caf"), []byte("\xE9\nna"), []byte("\xEFve")} {
		if n, err := w.Write(p); n != len(p) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if b.String() != "café\nnaïve" || w.D.Encoding() != "cp1252" {
		t.Fatalf("got %q (%s)", b.String(), w.D.Encoding())
	}
}

func TestCodePages(t *testing.T) {
	for _, tt := range []struct {
		n    int
		raw  string
		want string
	}{
		{437, "\x82\x9C\xE1\xB0", "é£ß░"}, {850, "\x82\xD0", "éð"}, {852, "\xA5", "ą"}, {866, "\x8F\xE0\xA8", "При"},
		{1250, "\xB9", "ą"}, {1251, "\xCF\xF0\xE8", "При"}, {1252, "\xE9\x80", "é€"}, {1253, "\xE1", "α"},
		{1254, "\xFE", "ş"}, {1255, "\xF9", "ש"}, {1256, "\xC7", "ا"}, {1257, "\xE0", "ą"}, {1258, "\xE9", "é"},
		{932, "\x93\xFA\x96\x7B", "日本"}, {936, "\xC4\xE3\xBA\xC3", "你好"}, {949, "\xC7\xD1", "한"}, {950, "\xA4\xA4", "中"},
		{65001, "\xC3\xA9\xFF", "é\uFFFD"},
	} {
		cp := mustCP(t, tt.n)
		got, err := cp.Decode([]byte(tt.raw))
		if err != nil || string(got) != tt.want {
			t.Errorf("cp%d.Decode(%q) = %q, %v; want %q", tt.n, tt.raw, got, err, tt.want)
		}
		if want := cpName(tt.n); tt.n != 65001 && cp.Name() != want {
			t.Errorf("Name() = %q; want %q", cp.Name(), want)
		}
	}
	for _, n := range []int{0, -1, 1, 99999} {
		if cp := CodePageByNumber(n); cp != nil {
			t.Errorf("CodePageByNumber(%d) = %s; want nil", n, cp.Name())
		}
	}
}

func TestCompletePrefix(t *testing.T) {
	cp936 := mustCP(t, 936)
	for _, tt := range []struct {
		raw  string
		want int
	}{
		{"", 0}, {"ab", 2}, {"\xC4\xE3", 2}, {"\xC4\xE3\xBA", 2}, {"a\xC4", 1}, {"\xC4\xC4\xC4", 2}, {"\xC4\x41", 2},
	} {
		if got := completePrefix(cp936, []byte(tt.raw)); got != tt.want {
			t.Errorf("completePrefix(%q) = %d; want %d", tt.raw, got, tt.want)
		}
	}
	if got := completePrefix(mustCP(t, 437), []byte("\xC4")); got != 1 {
		t.Errorf("single-byte page: %d", got)
	}
}

func TestFallbackFor(t *testing.T) {
	name := func(cp CodePage) string {
		if cp == nil {
			return "<nil>"
		}
		return cp.Name()
	}
	for _, tt := range []struct {
		c    Console
		want string
	}{
		{Console{ACP: 1252, OEMCP: 437, OutputCP: 437, InputCP: 437, HasConsole: true}, "cp437"},
		{Console{ACP: 1252, OEMCP: 437, OutputCP: 850, HasConsole: true}, "cp850"},
		{Console{ACP: 1252, OEMCP: 437, OutputCP: 65001, HasConsole: true}, "cp1252"},
		{Console{ACP: 936, OEMCP: 936, OutputCP: 65001, HasConsole: true}, "cp936"},
		{Console{ACP: 65001, OEMCP: 437, OutputCP: 65001, HasConsole: true}, "cp437"},
		{Console{ACP: 65001, OEMCP: 65001, OutputCP: 65001, HasConsole: true}, "<nil>"},
		{Console{ACP: 1252, OEMCP: 850}, "cp850"},
		{Console{}, "<nil>"},
	} {
		if got := name(FallbackFor(tt.c)); got != tt.want {
			t.Errorf("FallbackFor(%+v) = %s; want %s", tt.c, got, tt.want)
		}
	}
}

func FuzzDecoder(f *testing.F) {
	for _, s := range []string{"", "hello\n", "caf\x82\n", "\xEF\xBB\xBFx", "\xFF\xFEa\x00", "\xC4\xE3\xBA\xC3\n",
		string(testprog.UTF16LE("Volume in drive C\r\n")), "a\x00b\x00\x3D\xD8", "é\n\xFF\n"} {
		f.Add([]byte(s), uint8(3), uint8(0))
	}
	f.Fuzz(func(t *testing.T, raw []byte, chunk, page uint8) {
		pages := []int{0, 437, 1252, 932, 936, 65001}
		var cp CodePage
		if n := pages[int(page)%len(pages)]; n != 0 {
			cp = CodePageByNumber(n)
		}
		whole, enc := Decode(raw, cp)
		if !utf8.Valid(whole) {
			t.Fatalf("invalid UTF-8 out of %q: %q", raw, whole)
		}
		pieces, encPieces := decodeChunks(raw, Decoder{Fallback: cp}, int(chunk)%17+1)
		if !bytes.Equal(whole, pieces) || enc != encPieces {
			t.Fatalf("chunked decode differs for %q: %q (%s) vs %q (%s)", raw, whole, enc, pieces, encPieces)
		}
		small, _ := decodeChunks(raw, Decoder{Fallback: cp, MaxLine: 5}, int(chunk)%17+1)
		if !utf8.Valid(small) {
			t.Fatalf("invalid UTF-8 with MaxLine 5 out of %q: %q", raw, small)
		}
	})
}
