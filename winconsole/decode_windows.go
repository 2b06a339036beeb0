package winconsole

import (
	"unicode/utf16"
	"unicode/utf8"

	"github.com/chainrun/chainrun/winproc"
	"golang.org/x/sys/windows"
)

// CodePageByNumber returns Windows code page n, decoded by
// MultiByteToWideChar, or nil if the system does not know it. 65001 is
// UTF-8.
func CodePageByNumber(n int) CodePage {
	if n == 65001 {
		return utf8Page{}
	}
	if n <= 0 || n > 0xFFFF {
		return nil
	}
	if !winproc.IsValidCodePage(uint32(n)) {
		return nil
	}
	w := winPage{n: uint32(n)}
	for b := 0x80; b <= 0xFF; b++ {
		if winproc.IsDBCSLeadByteEx(w.n, byte(b)) {
			w.lead[b] = true
			w.dbcs = true
		}
	}
	if w.dbcs {
		return dbcsWinPage{w}
	}
	return w
}

// winPage decodes with MultiByteToWideChar. Without MB_ERR_INVALID_CHARS
// invalid bytes become the code page's default character, never an error.
type winPage struct {
	n    uint32
	dbcs bool
	lead [256]bool
}

func (w winPage) Name() string { return cpName(int(w.n)) }

func (w winPage) Decode(p []byte) ([]byte, error) {
	if len(p) == 0 {
		return nil, nil
	}
	var out []byte
	// MultiByteToWideChar takes an int32 length: convert in slices that
	// never split a double-byte character.
	for len(p) > 0 {
		chunk := p
		if len(chunk) > 1<<20 {
			chunk = chunk[:1<<20]
			if w.dbcs {
				if k := completePrefix(dbcsWinPage{w}, chunk); k > 0 {
					chunk = chunk[:k]
				}
			}
		}
		n, err := windows.MultiByteToWideChar(w.n, 0, &chunk[0], int32(len(chunk)), nil, 0)
		if err != nil {
			return nil, err
		}
		buf := make([]uint16, n)
		n, err = windows.MultiByteToWideChar(w.n, 0, &chunk[0], int32(len(chunk)), &buf[0], n)
		if err != nil {
			return nil, err
		}
		for _, r := range utf16.Decode(buf[:n]) {
			out = utf8.AppendRune(out, r)
		}
		p = p[len(chunk):]
	}
	return out, nil
}

type dbcsWinPage struct{ winPage }

func (d dbcsWinPage) IsLeadByte(b byte) bool { return d.lead[b] }
