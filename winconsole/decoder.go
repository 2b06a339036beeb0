package winconsole

import (
	"bytes"
	"encoding/binary"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

const (
	// DefaultMaxLine is the longest line decoded as one unit; longer lines
	// are decoded in pieces of this size.
	DefaultMaxLine = 64 << 10
	// sniffLen is how much of a stream the UTF-16 sniff looks at.
	sniffLen = 64
)

type decoderMode uint8

const (
	modeSniff decoderMode = iota
	modeLines
	modeUTF16
)

// Decoder turns one output stream of a Windows program into UTF-8, as it
// arrives. Programs on Windows write whatever their runtime picked: UTF-8
// (Go, Rust, Node, Git), UTF-16LE (cmd /u, wmic, PowerShell 5.1 files),
// or a legacy code page (cmd built-ins, Python without PYTHONUTF8, C
// programs). A Decoder
//
//   - strips a UTF-8 BOM (EF BB BF);
//   - treats the stream as UTF-16LE after an FF FE BOM, or when at least
//     40% of the odd bytes of its first 64 bytes are NUL (ASCII text in
//     UTF-16LE), or when UTF16 is set, and decodes it losslessly (pairs
//     and surrogates split across writes are carried over);
//   - otherwise decides per line: a line that is valid UTF-8 is kept as it
//     is, any other is decoded with Fallback.
//
// The zero value is ready to use; with a nil Fallback invalid bytes become
// U+FFFD. A Decoder is not safe for concurrent use.
type Decoder struct {
	// Fallback decodes lines that are not UTF-8: the code page the
	// console had before the program started (see FallbackFor).
	Fallback CodePage
	// UTF16 skips the sniff: the writer is known to emit UTF-16LE
	// (cmd.exe /u).
	UTF16 bool
	// MaxLine caps how many bytes wait for a newline; 0 means
	// DefaultMaxLine.
	MaxLine int

	mode    decoderMode
	pending []byte // undecided bytes: the sniff window, a partial line or UTF-16 unit
	bom     bool   // the stream began with a BOM
	utf8NonASCII,
	legacy, // lines decoded with Fallback
	replaced bool // invalid bytes replaced (no Fallback, or its errors)
}

// Append decodes p, appends the text that is complete to dst and returns
// it. Bytes that may belong to a character, line or sniff window not yet
// complete are kept for the next call or Flush.
func (d *Decoder) Append(dst, p []byte) []byte {
	if d.mode == modeLines && len(d.pending) == 0 {
		// The common case: decode straight from p, keep only the rest.
		dst, rest := d.drainLines(dst, p, false)
		d.pending = append(d.pending, rest...)
		return dst
	}
	d.pending = append(d.pending, p...)
	if d.mode == modeSniff {
		if !d.sniff(false) {
			return dst
		}
	}
	return d.drain(dst, false)
}

// Flush decodes whatever is left at the end of the stream and appends it
// to dst.
func (d *Decoder) Flush(dst []byte) []byte {
	if d.mode == modeSniff {
		d.sniff(true)
	}
	return d.drain(dst, true)
}

// Encoding names what the stream was decoded from: "utf-8", "utf-16le",
// the fallback's name ("cp437") when every non-ASCII line needed it,
// "mixed:utf-8+cp437" when both occurred, "" before any output. Without a
// Fallback, "replacement" stands for lines whose invalid bytes became
// U+FFFD.
func (d *Decoder) Encoding() string {
	switch {
	case d.mode == modeUTF16:
		return "utf-16le"
	case d.mode == modeSniff:
		return ""
	}
	legacy := ""
	if d.legacy {
		legacy = d.Fallback.Name()
	} else if d.replaced {
		legacy = "replacement"
	}
	switch {
	case legacy == "":
		return "utf-8"
	case d.utf8NonASCII || d.bom:
		return "mixed:utf-8+" + legacy
	default:
		return legacy
	}
}

// sniff picks the stream's mode once enough bytes are there (or at the
// end); it reports whether it decided.
func (d *Decoder) sniff(atEOF bool) bool {
	p := d.pending
	switch {
	case d.UTF16:
		d.mode = modeUTF16
		if bytes.HasPrefix(p, []byte{0xFF, 0xFE}) {
			d.pending, d.bom = p[2:], true
		} else if len(p) < 2 && !atEOF {
			d.mode = modeSniff
			return false
		}
		return true
	case bytes.HasPrefix(p, []byte{0xEF, 0xBB, 0xBF}):
		d.mode, d.pending, d.bom = modeLines, p[3:], true
		return true
	case bytes.HasPrefix(p, []byte{0xFF, 0xFE}):
		d.mode, d.pending, d.bom = modeUTF16, p[2:], true
		return true
	case len(p) == 0 || (len(p) < sniffLen && !atEOF):
		return false // wait for the whole window
	}
	if looksUTF16LE(p) {
		d.mode = modeUTF16
	} else {
		d.mode = modeLines
	}
	return true
}

// looksUTF16LE reports whether at least 40% of the odd bytes in the first
// sniffLen bytes of p are NUL while the even ones mostly are not, as in
// UTF-16LE text that is mostly ASCII.
func looksUTF16LE(p []byte) bool {
	p = p[:min(len(p), sniffLen)]
	pairs := len(p) / 2
	if pairs == 0 {
		return false
	}
	odd, even := 0, 0
	for i := 0; i+1 < len(p); i += 2 {
		if p[i] == 0 {
			even++
		}
		if p[i+1] == 0 {
			odd++
		}
	}
	return odd*10 >= pairs*4 && even*2 < odd
}

func (d *Decoder) drain(dst []byte, atEOF bool) []byte {
	if d.mode == modeUTF16 {
		return d.drainUTF16(dst, atEOF)
	}
	dst, rest := d.drainLines(dst, d.pending, atEOF)
	d.pending = append(d.pending[:0], rest...)
	return dst
}

// drainUTF16 decodes whole UTF-16 code units; a trailing odd byte or a
// high surrogate waits for its partner.
func (d *Decoder) drainUTF16(dst []byte, atEOF bool) []byte {
	p := d.pending
	n := len(p) / 2
	units := make([]uint16, n)
	for i := range units {
		units[i] = uint16(p[2*i]) | uint16(p[2*i+1])<<8
	}
	keep := len(p) % 2
	if !atEOF && n > 0 && utf16.IsSurrogate(rune(units[n-1])) && units[n-1] < 0xDC00 {
		units = units[:n-1]
		keep += 2
	}
	for _, r := range utf16.Decode(units) {
		dst = utf8.AppendRune(dst, r)
	}
	if atEOF && keep > 0 {
		dst = utf8.AppendRune(dst, utf8.RuneError)
		keep = 0
	}
	d.pending = append(d.pending[:0], p[len(p)-keep:]...)
	return dst
}

// drainLines decodes every complete line of p, and pieces of a line
// longer than MaxLine, and returns the undecided rest of p.
func (d *Decoder) drainLines(dst, p []byte, atEOF bool) ([]byte, []byte) {
	maxLine := d.MaxLine
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		switch {
		case i >= 0 && i < maxLine:
			dst = d.line(dst, p[:i+1])
			p = p[i+1:]
		case len(p) >= maxLine:
			n := d.cut(p[:maxLine])
			dst = d.line(dst, p[:n])
			p = p[n:]
		case atEOF:
			dst = d.last(dst, p)
			p = nil
		default:
			return dst, p
		}
	}
	return dst, nil
}

// cut returns where to end a piece of an over-long line: before an
// incomplete UTF-8 character when the piece is otherwise UTF-8, else
// before a dangling double-byte lead byte.
func (d *Decoder) cut(p []byte) int {
	n := len(p) - incompleteTail(p)
	if utf8.Valid(p[:n]) {
		if n == 0 {
			return len(p)
		}
		return n
	}
	if d.Fallback != nil {
		if k := completePrefix(d.Fallback, p); k > 0 {
			return k
		}
	}
	return len(p)
}

// incompleteTail returns the length of an incomplete UTF-8 character at
// the end of p (0 to 3 bytes).
func incompleteTail(p []byte) int {
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(p[i]) {
			if !utf8.FullRune(p[i:]) {
				return len(p) - i
			}
			return 0
		}
	}
	return 0
}

// last decodes the unterminated end of the stream: a UTF-8 text cut in
// the middle of its last character keeps its UTF-8 and ends in U+FFFD.
func (d *Decoder) last(dst, p []byte) []byte {
	if n := len(p) - incompleteTail(p); n < len(p) && utf8.Valid(p[:n]) {
		dst = d.line(dst, p[:n])
		d.utf8NonASCII, d.replaced = true, true
		return utf8.AppendRune(dst, utf8.RuneError)
	}
	return d.line(dst, p)
}

// line decodes one line (or piece).
func (d *Decoder) line(dst, p []byte) []byte {
	if isASCII(p) {
		return append(dst, p...)
	}
	if utf8.Valid(p) {
		d.utf8NonASCII = true
		return append(dst, p...)
	}
	if d.Fallback != nil {
		if out, err := d.Fallback.Decode(p); err == nil {
			d.legacy = true
			if !utf8.Valid(out) {
				return toValidUTF8(dst, out)
			}
			return append(dst, out...)
		}
	}
	d.replaced = true
	return toValidUTF8(dst, p)
}

func isASCII(p []byte) bool {
	for len(p) >= 8 {
		if binary.LittleEndian.Uint64(p)&0x8080808080808080 != 0 {
			return false
		}
		p = p[8:]
	}
	for _, b := range p {
		if b >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Decode decodes a whole buffer with a fresh Decoder and reports the
// encoding it found (see Decoder.Encoding).
func Decode(raw []byte, fallback CodePage) (text []byte, encoding string) {
	d := Decoder{Fallback: fallback}
	text = d.Append(make([]byte, 0, len(raw)+len(raw)/4), raw)
	text = d.Flush(text)
	return text, d.Encoding()
}

// Writer decodes everything written to it with D and writes the UTF-8
// text to W. Close flushes the end of the stream (it does not close W).
type Writer struct {
	W   io.Writer
	D   Decoder
	buf []byte
}

// NewWriter returns a Writer that decodes into w with the given fallback.
func NewWriter(w io.Writer, fallback CodePage) *Writer {
	return &Writer{W: w, D: Decoder{Fallback: fallback}}
}

// Write decodes p; it reports len(p) written unless W fails.
func (w *Writer) Write(p []byte) (int, error) {
	w.buf = w.D.Append(w.buf[:0], p)
	if len(w.buf) > 0 {
		if _, err := w.W.Write(w.buf); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Close writes what the decoder still holds.
func (w *Writer) Close() error {
	w.buf = w.D.Flush(w.buf[:0])
	if len(w.buf) > 0 {
		_, err := w.W.Write(w.buf)
		return err
	}
	return nil
}
