package tools

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
)

// counts are wc's figures for one input, in its column order.
type counts struct{ lines, words, chars, bytes, maxLen int64 }

func (c *counts) add(d counts) {
	c.lines, c.words, c.chars, c.bytes = c.lines+d.lines, c.words+d.words, c.chars+d.chars, c.bytes+d.bytes
	c.maxLen = max(c.maxLen, d.maxLen)
}

// wc prints lines, words and bytes (or the columns asked for) per input,
// and a total for several, in GNU's widths: one figure alone is not
// padded; otherwise every column is as wide as the total size of the
// inputs when all are regular files, and at least 7 when one is not.
func wc(k *task) int {
	want := "lwmcL"
	if !strings.ContainsAny(optKeys(k.opts), "lwcmL") {
		want = "lwc"
	} else {
		want = keep(want, optKeys(k.opts))
	}
	var rows []counts
	var names []string
	status := 0
	for _, name := range k.inputs() {
		r, err := k.open(name)
		var c counts
		if err == nil {
			c, err = countAll(r)
			r.Close()
		}
		if err != nil {
			k.fileError(name, err)
			status = 1
			if r == nil && !errors.Is(err, errIsDir) { // GNU counts a directory it cannot read as empty
				continue
			}
		}
		rows, names = append(rows, c), append(names, name)
	}
	width := wcWidth(k, want)
	var total counts
	for i, c := range rows {
		total.add(c)
		k.wcRow(c, want, width, names[i])
	}
	if len(k.operands) > 1 {
		k.wcRow(total, want, width, "total")
	}
	k.out.flush()
	return status
}

// wcRow prints one row; stdin named by no operand has no name.
func (k *task) wcRow(c counts, want string, width int, name string) {
	vals := map[byte]int64{'l': c.lines, 'w': c.words, 'm': c.chars, 'c': c.bytes, 'L': c.maxLen}
	var b strings.Builder
	for i := 0; i < len(want); i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(padLeft(strconv.FormatInt(vals[want[i]], 10), width))
	}
	if len(k.operands) > 0 {
		b.WriteString(" " + name)
	}
	k.out.WriteString(b.String() + "\n")
}

// wcWidth is GNU's column width (see wc).
func wcWidth(k *task, want string) int {
	if len(want) == 1 && len(k.inputs()) == 1 {
		return 1
	}
	var size int64
	for _, name := range k.inputs() {
		var fi fs.FileInfo
		var err error
		if name == "-" {
			st, ok := k.Stdin.(interface{ Stat() (fs.FileInfo, error) })
			if !ok {
				return 7
			}
			fi, err = st.Stat()
		} else {
			fi, err = os.Stat(k.path(name))
		}
		if err != nil {
			continue
		}
		if !fi.Mode().IsRegular() {
			return 7
		}
		size += fi.Size()
	}
	return len(strconv.FormatInt(size, 10))
}

func countAll(r io.Reader) (counts, error) {
	var c counts
	var lineLen int64
	inWord := false
	buf := make([]byte, 64<<10)
	var carry []byte
	for {
		n, err := r.Read(buf)
		p := append(carry, buf[:n]...)
		carry = nil
		c.bytes += int64(n)
		for i := 0; i < len(p); {
			ru, size := utf8.DecodeRune(p[i:])
			if ru == utf8.RuneError && size == 1 && !utf8.FullRune(p[i:]) && err == nil {
				carry = append(carry, p[i:]...)
				break
			}
			i += size
			if ru != utf8.RuneError || size > 1 {
				c.chars++
			}
			switch ru {
			case '\n':
				c.lines++
				c.maxLen, lineLen = max(c.maxLen, lineLen), 0
			case '\t':
				lineLen += 8 - lineLen%8
			default:
				lineLen++
			}
			space := ru == ' ' || ru >= '\t' && ru <= '\r'
			if !space && !inWord {
				c.words++
			}
			inWord = !space
		}
		if err == io.EOF {
			c.maxLen = max(c.maxLen, lineLen)
			return c, nil
		}
		if err != nil {
			return c, err
		}
	}
}

// optKeys is the keys of opts, in order, as one string.
func optKeys(opts []opt) string {
	var b strings.Builder
	for _, o := range opts {
		b.WriteString(o.key)
	}
	return b.String()
}

// keep returns the letters of order that are in set, in order's order.
func keep(order, set string) string {
	var b strings.Builder
	for i := 0; i < len(order); i++ {
		if strings.IndexByte(set, order[i]) >= 0 {
			b.WriteByte(order[i])
		}
	}
	return b.String()
}
