package tools

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
)

// tee, env, nohup and xargs: tee copies its input; env, nohup and xargs run a command,
// through Call.Exec, which the engine provides (so the command is found,
// run and stopped as a segment's program is).

// Exec runs argv with env and the given streams and waits for it,
// returning its status as bash would show it (127 not found, 126 not
// runnable, 128+N for a signal). It returns an error only when it could
// not start the program; the status then says why.
type Exec func(ctx context.Context, argv, env []string, stdin io.Reader, stdout, stderr io.Writer) (int, error)

func registerRun() {
	register(&Tool{Name: "tee", Spec: Spec{Flags: "ai", LongFlags: map[string]string{"append": "a", "ignore-interrupts": "i"}}, run: tee})
	register(&Tool{Name: "env", Spec: Spec{Flags: "i0", Values: "u", InOrder: true, LongFlags: map[string]string{
		"ignore-environment": "i", "null": "0"}, LongValues: map[string]string{"unset": "u"}}, run: env})
	register(&Tool{Name: "xargs", Spec: Spec{Flags: "0rt", Values: "nId", InOrder: true, LongFlags: map[string]string{"null": "0",
		"no-run-if-empty": "r", "verbose": "t"}, LongValues: map[string]string{"max-args": "n", "delimiter": "d"}}, run: xargs})
	register(&Tool{Name: "nohup", Spec: Spec{InOrder: true}, run: nohup})
}

// nohup runs its command (nohup cmd > log 2>&1 & is how agents start a
// server). A chain's stdout is never chainrun's terminal, so there is no
// nohup.out; Windows has no SIGHUP to ignore; what runs is stopped with
// the chain either way.
func nohup(k *task) int {
	if len(k.operands) == 0 {
		k.errorf("missing operand\nTry 'nohup --help' for more information.")
		return 125
	}
	return k.exec(k.operands, k.Env, k.Stdin)
}

func tee(k *task) int {
	flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	if has(k.opts, "a") {
		flags = os.O_CREATE | os.O_WRONLY | os.O_APPEND
	}
	writers, status := []io.Writer{k.out}, 0
	for _, o := range k.operands {
		f, err := os.OpenFile(k.path(o), flags, 0o666)
		if err != nil {
			k.fileError(o, err)
			status = 1
			continue
		}
		defer f.Close()
		writers = append(writers, f)
	}
	buf := make([]byte, 32<<10)
	for !k.stopped() {
		n, err := k.Stdin.Read(buf)
		for _, w := range writers {
			w.Write(buf[:n])
		}
		k.out.flush()
		if err != nil {
			if err != io.EOF {
				k.errorf("read error: %s", describe(err))
				return 1
			}
			break
		}
	}
	return status
}

// exec runs argv for env and xargs, reporting a program that could not be
// started as GNU's do: "env: 'x': No such file or directory".
func (k *task) exec(argv, env []string, stdin io.Reader) int {
	if k.Exec == nil {
		k.errorf("cannot run %s: this caller runs no programs from tools", quote(argv[0]))
		return 126
	}
	k.out.flush()
	code, err := k.Exec(k.Ctx, argv, env, stdin, k.Stdout, k.Stderr)
	if err != nil {
		name := argv[0]
		if k.name != "xargs" {
			name = quote(name)
		}
		k.errorf("%s: %s", name, describe(err))
	}
	return code
}

func env(k *task) int {
	vars := k.Env
	if has(k.opts, "i") {
		vars = []string{} // empty, not nil: nil would mean the caller's
	}
	for _, o := range k.opts {
		if o.key == "u" {
			vars = withoutVar(vars, o.val)
		}
	}
	args := k.operands
	for len(args) > 0 && strings.Contains(args[0], "=") && !strings.HasPrefix(args[0], "=") {
		name, _, _ := strings.Cut(args[0], "=")
		vars = append(withoutVar(vars, name), args[0])
		args = args[1:]
	}
	if len(args) > 0 && has(k.opts, "0") {
		k.errorf("cannot specify --null (-0) with command\nTry 'env --help' for more information.")
		return 125
	}
	if len(args) > 0 {
		return k.exec(args, vars, k.Stdin)
	}
	end := "\n"
	if has(k.opts, "0") {
		end = "\x00"
	}
	for _, v := range vars {
		k.out.WriteString(v + end)
	}
	k.out.flush()
	return 0
}

func withoutVar(vars []string, name string) []string {
	out := make([]string, 0, len(vars))
	for _, v := range vars {
		if n, _, _ := strings.Cut(v, "="); n != name {
			out = append(out, v)
		}
	}
	return out
}

// xargsMaxChars bounds one command line, as GNU's default -s does.
const xargsMaxChars = 128 << 10

func xargs(k *task) int {
	repl, hasRepl, maxArgs, hasMax := xargsMode(k)
	items, err := xargsItems(k, hasRepl)
	if err != nil {
		k.errorf("%s", err)
		return 1
	}
	cmd := k.operands
	if len(cmd) == 0 {
		cmd = []string{"echo"}
	}
	if len(items) == 0 && (has(k.opts, "r") || hasRepl) {
		return 0
	}
	for i, it := range items {
		if j := strings.IndexByte(it, 0); j >= 0 {
			items[i] = it[:j] // an argument ends at a NUL, as a C string does
		}
	}
	status := 0
	for _, argv := range xargsBatches(k, cmd, items, repl, hasRepl, maxArgs, hasMax) {
		if k.stopped() {
			return 1
		}
		if has(k.opts, "t") {
			io.WriteString(k.Stderr, traceLine(argv)+"\n")
		}
		devnull, _ := os.Open(os.DevNull) // GNU's xargs gives its commands no input
		code := k.exec(argv, k.Env, devnull)
		if devnull != nil {
			devnull.Close()
		}
		switch {
		case code == 255:
			k.errorf("%s: exited with status 255; aborting", argv[0])
			return 124
		case code == 126 || code == 127:
			return code
		case code > 128:
			return 125
		case code != 0:
			status = 123
		}
	}
	return status
}

// traceLine is -t's echo of a command, each word quoted for a shell
// where it needs it, as GNU's xargs writes it.
func traceLine(argv []string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		words[i] = shellQuote(a)
	}
	return strings.Join(words, " ")
}

// shellQuote quotes a word as GNU's shell-escape style does: bare when
// safe, "…" around a single quote, '…' otherwise, and $'\n' for control
// characters.
func shellQuote(a string) string {
	const safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%"
	switch {
	case a != "" && strings.Trim(a, safe) == "":
		return a
	case strings.Contains(a, "'") && !strings.ContainsAny(a, "$`\"\\!\n\t"):
		return `"` + a + `"`
	}
	var b strings.Builder
	run := ""
	flush := func() {
		if run != "" {
			b.WriteString("'" + strings.ReplaceAll(run, "'", `'\''`) + "'")
			run = ""
		}
	}
	for _, c := range a {
		if c < 32 {
			flush()
			b.WriteString(map[rune]string{'\n': `$'\n'`, '\t': `$'\t'`}[c])
			continue
		}
		run += string(c)
	}
	flush()
	return b.String()
}

// xargsMode settles -I against -n as GNU does: the later one wins, with
// a warning for each one dropped.
func xargsMode(k *task) (repl string, hasRepl bool, maxArgs string, hasMax bool) {
	for _, o := range k.opts {
		switch o.key {
		case "I":
			if hasMax {
				k.errorf("warning: options --max-args and --replace/-I/-i are mutually exclusive, ignoring previous --max-args value")
			}
			repl, hasRepl, hasMax = o.val, true, false
		case "n":
			if hasRepl {
				k.errorf("warning: options --replace and --max-args/-n are mutually exclusive, ignoring previous --replace value")
			}
			maxArgs, hasMax, hasRepl = o.val, true, false
		}
	}
	return repl, hasRepl, maxArgs, hasMax
}

// xargsBatches splits the items into command lines: one per -I line, -n
// items at most, and never longer than xargsMaxChars.
func xargsBatches(k *task, cmd, items []string, repl string, hasRepl bool, maxArgs string, hasMax bool) [][]string {
	if hasRepl {
		var out [][]string
		for _, it := range items {
			argv := make([]string, len(cmd))
			for i, c := range cmd {
				argv[i] = strings.ReplaceAll(c, repl, it)
			}
			out = append(out, argv)
		}
		return out
	}
	max := len(items)
	if hasMax {
		if n, err := parsePositive(maxArgs); err == nil {
			max = n
		}
	}
	var out [][]string
	for len(items) > 0 || out == nil {
		argv, size := append([]string(nil), cmd...), 0
		for _, c := range cmd {
			size += len(c) + 1
		}
		n := 0
		for n < len(items) && n < max && (n == 0 || size+len(items[n])+1 <= xargsMaxChars) {
			size += len(items[n]) + 1
			argv = append(argv, items[n])
			n++
		}
		items = items[n:]
		out = append(out, argv)
	}
	return out
}

func parsePositive(v string) (int, error) {
	n := 0
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, errors.New("invalid number " + quote(v))
		}
		n = n*10 + int(c-'0')
	}
	if n == 0 {
		return 0, errors.New("value " + quote(v) + " is too small")
	}
	return n, nil
}

// xargsItems reads the input: NUL-separated (-0), split at a delimiter
// (-d), lines (-I), or blank-separated words with quotes and backslashes.
func xargsItems(k *task, lines bool) ([]string, error) {
	data, err := io.ReadAll(k.Stdin)
	if err != nil {
		return nil, err
	}
	if d, ok := last(k.opts, "d"); ok && len(d) == 1 {
		return splitDrop(string(data), d), nil
	}
	if has(k.opts, "0") {
		return splitDrop(string(data), "\x00"), nil
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		k.errorf("WARNING: a NUL character occurred in the input.  It cannot be passed through in the argument list.  Did you mean to use the --null option?")
	}
	return xargsWords(string(data), lines)
}

// splitDrop splits s at sep, dropping the empty item a final sep leaves.
func splitDrop(s, sep string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, sep), sep)
}

// xargsWords is xargs' default reading: words separated by blanks and
// newlines, '…' and "…" quoting (not across lines) and \ escaping.
func xargsWords(s string, lines bool) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == 0: // GNU cuts the word at a NUL
			for i+1 < len(s) && s[i+1] != ' ' && s[i+1] != '\t' && s[i+1] != '\n' {
				i++
			}
		case c == '\n' || !lines && (c == ' ' || c == '\t'):
			if inWord {
				words, inWord = append(words, cur.String()), false
				cur.Reset()
			}
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == '\'' || c == '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 || strings.IndexByte(s[i+1:i+1+j], '\n') >= 0 {
				q := "single"
				if c == '"' {
					q = "double"
				}
				return nil, errors.New("unmatched " + q + " quote; by default quotes are special to xargs unless you use the -0 option")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case lines && !inWord && (c == ' ' || c == '\t'): // -I drops a line's leading blanks
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
