//go:build !windows

package winconsole

import (
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

// tables maps Windows code page numbers to x/text encodings. OEM pages
// x/text lacks (720, 737, 775, 857, 861, 864, 869) are only available on
// Windows.
var tables = map[int]encoding.Encoding{
	437: charmap.CodePage437, 850: charmap.CodePage850, 852: charmap.CodePage852,
	855: charmap.CodePage855, 858: charmap.CodePage858, 860: charmap.CodePage860,
	862: charmap.CodePage862, 863: charmap.CodePage863, 865: charmap.CodePage865,
	866: charmap.CodePage866, 874: charmap.Windows874,
	1250: charmap.Windows1250, 1251: charmap.Windows1251, 1252: charmap.Windows1252,
	1253: charmap.Windows1253, 1254: charmap.Windows1254, 1255: charmap.Windows1255,
	1256: charmap.Windows1256, 1257: charmap.Windows1257, 1258: charmap.Windows1258,
	932: japanese.ShiftJIS, 936: simplifiedchinese.GBK, 949: korean.EUCKR,
	950: traditionalchinese.Big5, 54936: simplifiedchinese.GB18030,
	20866: charmap.KOI8R, 21866: charmap.KOI8U, 28591: charmap.ISO8859_1,
}

// leadBytes are the lead-byte ranges of the double-byte code pages.
var leadBytes = map[int][][2]byte{
	932: {{0x81, 0x9F}, {0xE0, 0xFC}},
	936: {{0x81, 0xFE}},
	949: {{0x81, 0xFE}},
	950: {{0x81, 0xFE}},
}

// CodePageByNumber returns Windows code page n, or nil if it is unknown
// here. 65001 is UTF-8.
func CodePageByNumber(n int) CodePage {
	if n == 65001 {
		return utf8Page{}
	}
	enc, ok := tables[n]
	if !ok {
		return nil
	}
	t := textPage{n: n, enc: enc}
	if ranges, ok := leadBytes[n]; ok {
		return dbcsTextPage{textPage: t, ranges: ranges}
	}
	return t
}

type textPage struct {
	n   int
	enc encoding.Encoding
}

func (t textPage) Name() string { return cpName(t.n) }

func (t textPage) Decode(p []byte) ([]byte, error) {
	out, err := t.enc.NewDecoder().Bytes(p)
	if err != nil {
		return nil, err
	}
	return out, nil
}

type dbcsTextPage struct {
	textPage
	ranges [][2]byte
}

func (d dbcsTextPage) IsLeadByte(b byte) bool {
	for _, r := range d.ranges {
		if r[0] <= b && b <= r[1] {
			return true
		}
	}
	return false
}
