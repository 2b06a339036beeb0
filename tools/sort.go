package tools

import (
	"bytes"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// sort and uniq compare bytes, as GNU's do under LC_ALL=C: the built-in
// tools read no locale.

func registerSort() {
	register(&Tool{Name: "sort", Spec: Spec{Flags: "unrfsh", Values: "o", LongFlags: map[string]string{"unique": "u", "numeric-sort": "n",
		"reverse": "r", "ignore-case": "f", "stable": "s", "human-numeric-sort": "h"}, LongValues: map[string]string{"output": "o"}}, run: sortLines})
	register(&Tool{Name: "uniq", Spec: Spec{Flags: "cdui", LongFlags: map[string]string{"count": "c", "repeated": "d", "unique": "u",
		"ignore-case": "i"}}, run: uniq})
}

// readLines reads every input's lines, without their newlines.
func (k *task) readLines() ([][]byte, int) {
	var lines [][]byte
	status := k.eachInput(func(_ string, r io.Reader) error {
		b, err := io.ReadAll(r)
		if len(b) > 0 {
			lines = append(lines, bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))...)
		}
		return err
	})
	return lines, status
}

func sortLines(k *task) int {
	if has(k.opts, "n") && has(k.opts, "h") {
		k.errorf("options '-hn' are incompatible")
		return 2
	}
	for _, o := range k.opts {
		if out, _ := last(k.opts, "o"); o.key == "o" && o.val != out {
			k.errorf("multiple output files specified")
			return 2
		}
	}
	lines, status := k.readLines()
	if status != 0 {
		return 2 // GNU sort's status for an input it cannot read
	}
	if out, ok := last(k.opts, "o"); ok { // written after every input is read: sort -o f f works
		f, err := os.Create(k.path(out))
		if err != nil {
			k.errorf("open failed: %s: %s", out, describe(err))
			return 2
		}
		defer f.Close()
		k.out.w.Reset(f)
	}
	key := compareKey(k)
	last := !has(k.opts, "s") && !has(k.opts, "u") // GNU's last-resort byte comparison
	rev := has(k.opts, "r")
	cmp := func(a, b []byte) int {
		c := key(a, b)
		if c == 0 && last {
			c = bytes.Compare(a, b)
		}
		if rev {
			return -c
		}
		return c
	}
	slices.SortStableFunc(lines, cmp)
	for i, l := range lines {
		if has(k.opts, "u") && i > 0 && key(lines[i-1], l) == 0 {
			continue
		}
		k.out.Write(l)
		k.out.WriteString("\n")
	}
	k.out.flush()
	return 0
}

// compareKey is the comparison -n, -h or -f selects; bytes otherwise.
func compareKey(k *task) func(a, b []byte) int {
	switch {
	case has(k.opts, "n"):
		return func(a, b []byte) int { return compareFloat(numPrefix(a), numPrefix(b)) }
	case has(k.opts, "h"):
		return compareHuman
	case has(k.opts, "f"):
		return func(a, b []byte) int { return bytes.Compare(bytes.ToUpper(a), bytes.ToUpper(b)) }
	}
	return bytes.Compare
}

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// numPrefix is the number a line starts with (after blanks), 0 when none,
// as sort -n reads it.
func numPrefix(l []byte) float64 {
	s := strings.TrimLeft(string(l), " \t")
	end := 0
	if end < len(s) && s[end] == '-' {
		end++
	}
	digits := 0
	for end < len(s) && (s[end] >= '0' && s[end] <= '9' || s[end] == '.' && !strings.Contains(s[:end], ".")) {
		if s[end] != '.' {
			digits++
		}
		end++
	}
	if digits == 0 {
		return 0
	}
	f, _ := strconv.ParseFloat(strings.TrimSuffix(s[:end], "."), 64)
	return f
}

// compareHuman is sort -h: by sign, then by the SI suffix (none, K, M,
// G, …), then by the number.
func compareHuman(a, b []byte) int {
	sa, ra, va := humanKey(a)
	sb, rb, vb := humanKey(b)
	if sa != sb {
		return compareFloat(float64(sa), float64(sb))
	}
	if ra != rb {
		return sa * (ra - rb) / max(1, abs(ra-rb))
	}
	return compareFloat(va, vb)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// humanKey reads a line's leading number for -h: its sign (-1, 0, 1),
// its suffix's rank and its value.
func humanKey(l []byte) (sign, rank int, v float64) {
	v = numPrefix(l)
	switch {
	case v > 0:
		sign = 1
	case v < 0:
		sign = -1
	default:
		return 0, 0, 0
	}
	s := strings.TrimLeft(string(l), " \t-")
	end := strings.IndexFunc(s, func(r rune) bool { return !(r >= '0' && r <= '9' || r == '.') })
	if end >= 0 {
		rank = strings.IndexByte("KMGTPEZYRQ", s[end]) + 1
		if s[end] == 'k' {
			rank = 1
		}
	}
	return sign, rank, v
}

func uniq(k *task) int {
	if len(k.operands) > 2 {
		k.errorf("extra operand %s\nTry 'uniq --help' for more information.", quote(k.operands[2]))
		return 1
	}
	in := k.operands
	if len(in) == 2 {
		f, err := os.Create(k.path(in[1]))
		if err != nil {
			k.fileError(in[1], err)
			return 1
		}
		defer f.Close()
		k.out.w.Reset(f)
		in = in[:1]
	}
	k.operands = in
	lines, status := k.readLines()
	if status != 0 {
		return status
	}
	same := func(a, b []byte) bool { return bytes.Equal(a, b) }
	if has(k.opts, "i") {
		same = bytes.EqualFold
	}
	for i := 0; i < len(lines); {
		j := i + 1
		for j < len(lines) && same(lines[i], lines[j]) {
			j++
		}
		n := j - i
		if !(has(k.opts, "d") && n == 1 || has(k.opts, "u") && n > 1) {
			if has(k.opts, "c") {
				k.out.WriteString(padLeft(strconv.Itoa(n), 7) + " ")
			}
			k.out.Write(lines[i])
			k.out.WriteString("\n")
		}
		i = j
	}
	k.out.flush()
	return 0
}
