//go:build windows

package engine

import (
	"bytes"
	"strings"

	"github.com/chainrun/chainrun/winconsole"
)

// decodeCaptured turns a captured stream into UTF-8 and names what it was
// decoded from. A stream is usually one encoding (winconsole.Decode: BOM,
// UTF-16 sniffing, UTF-8 per line, else the code page the console had
// before the first segment). But the stages of a chain share the capture,
// and a cmd.exe built-in run with /u writes UTF-16LE between other
// programs' UTF-8 or code-page lines, so runs of UTF-16LE lines are found
// first and decoded on their own; the encoding then reads
// "mixed:utf-16le+utf-8" and so on.
func decodeCaptured(raw []byte) (text []byte, encoding string) {
	if len(raw) == 0 {
		return raw, ""
	}
	fallback := winconsole.FallbackFor(consoleAtStart())
	if bytes.IndexByte(raw, 0) < 0 {
		return winconsole.Decode(raw, fallback)
	}
	var encs []string
	for _, r := range splitUTF16Runs(raw) {
		var t []byte
		var enc string
		if r.utf16 {
			d := winconsole.Decoder{UTF16: true, Fallback: fallback}
			t = d.Flush(d.Append(nil, r.b))
			enc = d.Encoding()
		} else {
			t, enc = winconsole.Decode(r.b, fallback)
		}
		text = append(text, t...)
		for _, e := range strings.Split(strings.TrimPrefix(enc, "mixed:"), "+") {
			if e != "" && !contains(encs, e) {
				encs = append(encs, e)
			}
		}
	}
	if len(encs) > 1 {
		return text, "mixed:" + strings.Join(encs, "+")
	}
	return text, strings.Join(encs, "")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// textRun is a stretch of a captured stream in one family of encodings.
type textRun struct {
	b     []byte
	utf16 bool
}

// splitUTF16Runs cuts raw, at line starts, into runs of UTF-16LE lines and
// runs of byte-oriented lines (UTF-8 or a code page).
func splitUTF16Runs(raw []byte) []textRun {
	var runs []textRun
	start, i := 0, 0
	for i < len(raw) {
		if n := utf16LineLen(raw[i:]); n > 0 {
			if i > start {
				runs = append(runs, textRun{b: raw[start:i]})
			}
			j := i
			for n > 0 {
				j += n
				n = utf16LineLen(raw[j:])
			}
			runs = append(runs, textRun{b: raw[i:j], utf16: true})
			start, i = j, j
			continue
		}
		nl := bytes.IndexByte(raw[i:], '\n')
		if nl < 0 {
			break
		}
		i += nl + 1
	}
	if start < len(raw) {
		runs = append(runs, textRun{b: raw[start:]})
	}
	return runs
}

// utf16LineLen returns the length of the UTF-16LE line p starts with (up
// to and including its "\n\x00"), or of all of p if it is an unterminated
// UTF-16LE tail, or 0 when p does not start with UTF-16LE text. Text in
// bytes never holds NUL, UTF-16LE of a line always does (its line end, and
// every ASCII character).
func utf16LineLen(p []byte) int {
	end := -1
	for k := 0; k+1 < len(p); k += 2 {
		if p[k] == '\n' && p[k+1] == 0 {
			end = k + 2
			break
		}
		if p[k+1] == '\n' {
			// A byte line ends here (U+0A00-U+0AFF, Gurmukhi and
			// Gujarati, are the price of this rule).
			return 0
		}
	}
	terminated := end > 0
	if !terminated {
		if len(p) < 2 || len(p)%2 != 0 {
			return 0
		}
		end = len(p)
	}
	odd, even := 0, 0
	for k := 0; k+1 < end; k += 2 {
		if p[k] == 0 {
			even++
		}
		if p[k+1] == 0 {
			odd++
		}
	}
	pairs := end / 2
	switch {
	case odd == 0 || even >= odd:
		return 0
	case !terminated && odd*10 < pairs*4:
		return 0 // an unterminated tail must look like UTF-16 on its own
	}
	return end
}
