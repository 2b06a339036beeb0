package tools

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
)

// The text readers: cat, head, tail and wc, each over its operands in
// order ("-" or none is stdin), reporting an unreadable operand and going
// on to the next, status 1 at the end if any failed.

func registerText() {
	register(&Tool{Name: "cat", Spec: Spec{Flags: "nbsEATvet", LongFlags: map[string]string{"number": "n", "number-nonblank": "b",
		"squeeze-blank": "s", "show-ends": "E", "show-all": "A", "show-tabs": "T", "show-nonprinting": "v"}}, run: cat})
	register(&Tool{Name: "head", Spec: Spec{Flags: "qv", Values: "nc", Digits: true, LongFlags: map[string]string{"quiet": "q",
		"silent": "q", "verbose": "v"}, LongValues: map[string]string{"lines": "n", "bytes": "c"}}, run: head})
	register(&Tool{Name: "tail", Spec: Spec{Flags: "qv", Values: "nc", Digits: true, LongFlags: map[string]string{"quiet": "q",
		"silent": "q", "verbose": "v"}, LongValues: map[string]string{"lines": "n", "bytes": "c"}}, run: tail})
	register(&Tool{Name: "wc", Spec: Spec{Flags: "lwcmL", LongFlags: map[string]string{"lines": "l", "words": "w", "bytes": "c",
		"chars": "m", "max-line-length": "L"}}, run: wc})
}

// eachInput calls f with each input opened, reporting the ones that cannot
// be opened or read; status 1 if any failed.
func (k *task) eachInput(f func(name string, r io.Reader) error) int {
	status := 0
	for _, name := range k.inputs() {
		if k.stopped() {
			break
		}
		r, err := k.open(name)
		if err == nil {
			err = f(name, r)
			r.Close()
		}
		if err != nil && k.out.err == nil {
			k.inputError(name, err, r != nil)
			status = 1
		}
	}
	k.out.flush()
	return status
}

// catShow is what cat -A, -e, -t, -v, -E and -T make visible.
type catShow struct{ ends, tabs, nonprinting bool }

func catShows(opts []opt) catShow {
	var c catShow
	for _, o := range opts {
		switch o.key {
		case "A":
			c = catShow{true, true, true}
		case "e":
			c.ends, c.nonprinting = true, true
		case "t":
			c.tabs, c.nonprinting = true, true
		case "E":
			c.ends = true
		case "T":
			c.tabs = true
		case "v":
			c.nonprinting = true
		}
	}
	return c
}

// inputError reports an input that failed, in the tool's words: head's
// and tail's "cannot open 'x' for reading" and "error reading 'x'", the
// others' "x: reason".
func (k *task) inputError(name string, err error, opened bool) {
	if k.name != "head" && k.name != "tail" {
		k.fileError(name, err)
		return
	}
	if opened || errors.Is(err, errIsDir) {
		k.errorf("error reading %s: %s", quote(name), describe(err))
		return
	}
	k.errorf("cannot open %s for reading: %s", quote(name), describe(err))
}

func cat(k *task) int {
	number, nonblank, squeeze, show := has(k.opts, "n"), has(k.opts, "b"), has(k.opts, "s"), catShows(k.opts)
	if !number && !nonblank && !squeeze && show == (catShow{}) {
		return k.eachInput(func(_ string, r io.Reader) error {
			_, err := io.Copy(k.out, r)
			if k.out.err != nil {
				return nil
			}
			return err
		})
	}
	// GNU carries the count, the blank run and a line left open across files.
	n, blanks, open := 0, 0, false
	return k.eachInput(func(_ string, r io.Reader) error {
		return eachLine(r, func(line []byte) bool {
			body := bytes.TrimSuffix(line, []byte("\n"))
			blank := len(body) == 0 && !open
			if blank {
				blanks++
				if squeeze && blanks > 1 {
					return true
				}
			} else if !open {
				blanks = 0
			}
			if !open && (nonblank && !blank || number && !nonblank) {
				n++
				k.out.WriteString(padLeft(strconv.Itoa(n), 6) + "\t")
			}
			k.out.Write(show.render(body))
			open = len(line) == len(body)
			if !open {
				if show.ends {
					k.out.WriteString("$")
				}
				k.out.WriteString("\n")
			}
			return k.out.err == nil
		})
	})
}

// render is b as cat -v and -T show it: ^X for controls, M- for bytes
// above 127, ^I for tabs.
func (c catShow) render(b []byte) []byte {
	if !c.tabs && !c.nonprinting {
		return b
	}
	var out []byte
	for _, ch := range b {
		switch {
		case ch == '\t' && c.tabs:
			out = append(out, '^', 'I')
		case ch == '\t' || !c.nonprinting:
			out = append(out, ch)
		case ch >= 128:
			out = append(out, 'M', '-')
			out = appendVisible(out, ch-128)
		default:
			out = appendVisible(out, ch)
		}
	}
	return out
}

func appendVisible(out []byte, ch byte) []byte {
	switch {
	case ch < 32:
		return append(out, '^', ch+64)
	case ch == 127:
		return append(out, '^', '?')
	}
	return append(out, ch)
}

// eachLine calls f with each line of r, its newline kept (the last line
// may lack one), until f returns false.
func eachLine(r io.Reader, f func(line []byte) bool) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			var rest []byte
			rest, err = br.ReadBytes('\n')
			line = append(append([]byte(nil), line...), rest...)
		}
		if len(line) > 0 && !f(line) {
			return nil
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func padLeft(s string, w int) string {
	if len(s) >= w {
		return s
	}
	return strings.Repeat(" ", w-len(s)) + s
}

// count reads head's and tail's -n/-c value: NUM, with tail's "+NUM"
// (from the start) and head's "-NUM" (all but the last). Suffixes are not
// read: a value with one is a usage error.
func (k *task) count() (n int64, bytes bool, plusMinus byte, ok bool) {
	v, isN := last(k.opts, "n")
	c, isC := last(k.opts, "c")
	bytes = isC && (!isN || lastIndex(k.opts, "c") > lastIndex(k.opts, "n"))
	if bytes {
		v = c
	} else if !isN {
		v = "10"
	}
	if v != "" && (v[0] == '+' || v[0] == '-') {
		plusMinus, v = v[0], v[1:]
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		what := "lines"
		if bytes {
			what = "bytes"
		}
		k.errorf("invalid number of %s: %s", what, quote(v))
		return 0, bytes, 0, false
	}
	return n, bytes, plusMinus, true
}

func lastIndex(opts []opt, key string) int {
	i := -1
	for j, o := range opts {
		if o.key == key {
			i = j
		}
	}
	return i
}

// header prints head's and tail's "==> NAME <==" between several files.
func (k *task) header(name string, first bool) {
	quiet, verbose := lastIndex(k.opts, "q"), lastIndex(k.opts, "v")
	if quiet > verbose || (len(k.operands) < 2 && verbose < 0) {
		return
	}
	if !first {
		k.out.WriteString("\n")
	}
	if name == "-" {
		name = "standard input"
	}
	k.out.WriteString("==> " + name + " <==\n")
}

func head(k *task) int {
	n, bytes, pm, ok := k.count()
	if !ok {
		return 1
	}
	first := true
	return k.eachInput(func(name string, r io.Reader) error {
		k.header(name, first)
		first = false
		switch {
		case bytes && pm == '-':
			return allButLast(k, r, n, nil)
		case bytes:
			_, err := io.CopyN(k.out, r, n)
			if err == io.EOF {
				err = nil
			}
			return err
		case pm == '-':
			return allButLast(k, r, n, splitLines)
		}
		left := n
		if left == 0 {
			return nil
		}
		return eachLine(r, func(line []byte) bool {
			k.out.Write(line)
			left--
			return left > 0 && k.out.err == nil
		})
	})
}

// splitLines cuts b into lines, newlines kept.
func splitLines(b []byte) [][]byte { return bytes.SplitAfter(b, []byte("\n")) }

// allButLast writes all of r but its last n lines (split set) or bytes.
func allButLast(k *task, r io.Reader, n int64, split func([]byte) [][]byte) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if split == nil {
		if int64(len(b)) > n {
			k.out.Write(b[:int64(len(b))-n])
		}
		return nil
	}
	lines := split(b)
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	for i := 0; int64(i) < int64(len(lines))-n; i++ {
		k.out.Write(lines[i])
	}
	return nil
}

func tail(k *task) int {
	if a := k.Args[min(1, len(k.Args)-1)]; len(k.Args) > 1 && a[0] == '-' && len(a) > 1 && a[1] >= '0' && a[1] <= '9' && (len(k.opts) > 1 || len(k.operands) > 1) {
		// GNU reads the obsolete -NUM only as tail's one option.
		k.errorf("option used in invalid context -- %s", a[len(a)-1:])
		return 1
	}
	n, bytes, pm, ok := k.count()
	if !ok {
		return 1
	}
	if n == 0 && pm != '+' {
		return 0 // GNU's tail reads nothing, not even to report it
	}
	first := true
	return k.eachInput(func(name string, r io.Reader) error {
		k.header(name, first)
		first = false
		b, err := io.ReadAll(r)
		if err != nil {
			return err
		}
		if bytes {
			start := int64(len(b)) - n
			if pm == '+' {
				start = max(n-1, 0)
			}
			k.out.Write(b[min(max(start, 0), int64(len(b))):])
			return nil
		}
		lines := splitLines(b)
		if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
			lines = lines[:len(lines)-1]
		}
		start := int64(len(lines)) - n
		if pm == '+' {
			start = max(n-1, 0)
		}
		for _, l := range lines[min(max(start, 0), int64(len(lines))):] {
			k.out.Write(l)
		}
		return nil
	})
}
