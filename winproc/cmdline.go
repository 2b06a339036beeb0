package winproc

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/chainrun/chainrun/resolve"
)

// Limits on command lines, in UTF-16 code units.
const (
	// MaxCmdLine is cmd.exe's limit on the line it executes. Longer lines
	// are truncated by cmd, so they are refused before anything runs.
	MaxCmdLine = 8191
	// MaxCommandLine is CreateProcess's limit on lpCommandLine (32767
	// units including the terminating NUL).
	MaxCommandLine = 32766
)

// ErrRefused matches every *ArgError with errors.Is.
var ErrRefused = errors.New("argument refused")

// ArgError reports an argument that cannot be passed safely, so the
// segment is refused rather than run with a different meaning.
type ArgError struct {
	// Index is the argument's position in argv: 0 is the program or
	// script, 1 the first argument. -1 means the line as a whole.
	Index int
	// Arg is the argument as given.
	Arg string
	// Reason says what is wrong, in words.
	Reason string
}

func (e *ArgError) Error() string {
	switch {
	case e.Index < 0:
		return "command line refused: " + e.Reason
	case e.Index == 0:
		return fmt.Sprintf("program %q refused: %s", e.Arg, e.Reason)
	}
	return fmt.Sprintf("argument %d %q refused: %s", e.Index, e.Arg, e.Reason)
}

// Is makes errors.Is(err, ErrRefused) work.
func (e *ArgError) Is(target error) bool { return target == ErrRefused }

// badChar names a character that no Windows command line can carry
// intact through cmd.exe (CR, LF end the command; NUL ends the string).
func badChar(s string, crlf bool) string {
	for _, r := range s {
		switch {
		case r == 0:
			return "contains a NUL character, which ends a Windows command line"
		case crlf && r == '\n':
			return "contains a line feed, which ends the command cmd.exe runs"
		case crlf && r == '\r':
			return "contains a carriage return, which cmd.exe drops or treats as the end of the command"
		}
	}
	return ""
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// EscapeArg quotes s for the argv parser of a native Windows program
// (CommandLineToArgvW, the MSVC and UCRT startup code, Go's os.Args): it is
// left bare unless it is empty or contains a space, tab or double quote;
// backslashes are special only before a double quote, where they are
// doubled, and a quoted argument's trailing backslashes are doubled before
// the closing quote. These are the semantics of
// golang.org/x/sys/windows.EscapeArg.
func EscapeArg(s string) string {
	if s == "" {
		return `""`
	}
	if !strings.ContainsAny(s, "\"\\ \t") {
		return s
	}
	quote := strings.ContainsAny(s, " \t")
	var b strings.Builder
	b.Grow(len(s) + 8)
	if quote {
		b.WriteByte('"')
	}
	slashes := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\':
			slashes++
		case '"':
			// n backslashes before a quote become 2n, then \" for the
			// quote itself.
			b.WriteString(strings.Repeat(`\`, slashes+1))
			slashes = 0
		default:
			slashes = 0
		}
		b.WriteByte(c)
	}
	if quote {
		b.WriteString(strings.Repeat(`\`, slashes))
		b.WriteByte('"')
	}
	return b.String()
}

// ComposeCommandLine builds the lpCommandLine of a native program. args[0]
// is the program's path and is always quoted (the startup code reads argv0
// up to the next quote, with no escapes, so a path with spaces can never
// be split); the rest are escaped with EscapeArg. NUL anywhere, a quote in
// the program path and lines longer than CreateProcess accepts are refused.
func ComposeCommandLine(args []string) (string, error) {
	if len(args) == 0 {
		return "", &ArgError{Index: -1, Reason: "no program"}
	}
	var b strings.Builder
	for i, a := range args {
		if why := badChar(a, false); why != "" {
			return "", &ArgError{Index: i, Arg: a, Reason: why}
		}
		if i == 0 {
			if strings.Contains(a, `"`) {
				return "", &ArgError{Index: 0, Arg: a, Reason: "a program path cannot contain a double quote"}
			}
			b.WriteString(`"` + a + `"`)
			continue
		}
		b.WriteByte(' ')
		b.WriteString(EscapeArg(a))
	}
	line := b.String()
	if n := utf16Len(line); n > MaxCommandLine {
		return "", &ArgError{Index: -1, Reason: fmt.Sprintf("the command line is %d UTF-16 units, over the CreateProcess limit of %d", n, MaxCommandLine)}
	}
	return line, nil
}

// batchPrefix starts every batch command line: /e:ON enables the %cd:~,%
// substring trick, /v:OFF disables !delayed! expansion, /d skips the
// AutoRun commands of the registry, /c runs one line and exits.
const batchPrefix = `cmd.exe /e:ON /v:OFF /d /c "`

// percentEscape replaces a % that cmd.exe would otherwise use to expand a
// variable: %cd% is always defined, and its empty substring %cd:~,%
// expands to nothing, breaking up any %name% the argument spells.
const percentEscape = `%%cd:~,%`

// BatchCommandLine builds the lpCommandLine that runs the .bat or .cmd file
// script with args through cmd.exe, whose image must be
// GetSystemDirectory()\cmd.exe (never %COMSPEC%):
//
//	cmd.exe /e:ON /v:OFF /d /c ""script" arg1 arg2"
//
// cmd.exe does not split arguments the way programs do: it honours & | < >
// ( ) outside quotes, toggles a quote state on every ", and expands %name%
// everywhere before that. Each argument is therefore quoted when it is
// empty, ends in a backslash, or holds anything but letters, digits and
// #$*+-./:?@\_ (or a Unicode control character); inside, a " becomes ""
// (with the backslashes before it doubled) so the quote state is never
// left, % becomes %%cd:~,% so no variable is expanded, and trailing
// backslashes are doubled before the closing quote. The batch file sees
// exactly these strings in %1…%9 and %*, and a program it runs with %*
// gets its argv back if it parses its command line with the post-2008
// MSVC/UCRT rules (see ParseCommandLine).
//
// Refused (an *ArgError naming the argument): CR, LF or NUL in any
// argument; a script path containing " or %, or ending in a backslash;
// a line over MaxCmdLine UTF-16 units.
func BatchCommandLine(script string, args []string) (string, error) {
	switch {
	case script == "":
		return "", &ArgError{Index: 0, Arg: script, Reason: "empty script path"}
	case strings.Contains(script, `"`):
		return "", &ArgError{Index: 0, Arg: script, Reason: "a batch file path cannot contain a double quote"}
	case strings.Contains(script, `%`):
		return "", &ArgError{Index: 0, Arg: script, Reason: "a batch file path containing % would be expanded by cmd.exe"}
	case strings.HasSuffix(script, `\`):
		return "", &ArgError{Index: 0, Arg: script, Reason: "a batch file path cannot end in a backslash"}
	}
	if why := badChar(script, true); why != "" {
		return "", &ArgError{Index: 0, Arg: script, Reason: why}
	}
	var b strings.Builder
	b.WriteString(batchPrefix)
	b.WriteString(`"` + script + `"`)
	for i, a := range args {
		if why := badChar(a, true); why != "" {
			return "", &ArgError{Index: i + 1, Arg: a, Reason: why}
		}
		b.WriteByte(' ')
		appendBatchArg(&b, a)
	}
	b.WriteByte('"')
	line := b.String()
	if n := utf16Len(line); n > MaxCmdLine {
		return "", tooLong(n, args, batchArgLen)
	}
	return line, nil
}

// CheckBatchArgs reports whether BatchCommandLine would accept script and
// args, so a caller can refuse a chain before any of it runs.
func CheckBatchArgs(script string, args []string) error {
	_, err := BatchCommandLine(script, args)
	return err
}

func batchNeedsQuotes(a string) bool {
	if a == "" || strings.HasSuffix(a, `\`) {
		return true
	}
	for _, r := range a {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune(`#$*+-./:?@\_`, r):
		case r < 0x80:
			return true
		case unicode.IsControl(r):
			return true
		}
	}
	return false
}

func appendBatchArg(b *strings.Builder, a string) {
	if !batchNeedsQuotes(a) {
		b.WriteString(a)
		return
	}
	b.WriteByte('"')
	slashes := 0
	for _, r := range a {
		switch r {
		case '\\':
			slashes++
			b.WriteRune(r)
			continue
		case '"':
			b.WriteString(strings.Repeat(`\`, slashes))
			b.WriteString(`""`)
		case '%':
			b.WriteString(percentEscape)
		default:
			b.WriteRune(r)
		}
		slashes = 0
	}
	b.WriteString(strings.Repeat(`\`, slashes))
	b.WriteByte('"')
}

func batchArgLen(a string) int {
	var b strings.Builder
	appendBatchArg(&b, a)
	return utf16Len(b.String())
}

// tooLong names the longest argument, the likeliest culprit.
func tooLong(n int, args []string, size func(string) int) error {
	e := &ArgError{Index: -1, Reason: fmt.Sprintf("the command line is %d UTF-16 units, over cmd.exe's limit of %d", n, MaxCmdLine)}
	longest, most := -1, -1
	for i, a := range args {
		if l := size(a); l > most {
			longest, most = i, l
		}
	}
	if longest >= 0 {
		e.Index, e.Arg = longest+1, args[longest]
		if r := []rune(e.Arg); len(r) > 64 {
			e.Arg = string(r[:64]) + "…"
		}
		e.Reason += " (this is the longest argument)"
	}
	return e
}

// builtinPrefix runs one cmd.exe internal command: /u makes its output
// UTF-16LE (lossless whatever the code page), /s strips exactly the outer
// pair of quotes so the rest of the line is taken literally.
const builtinPrefix = `cmd.exe /d /u /e:ON /v:OFF /s /c "`

const builtinPrefixCP = `cmd.exe /d /e:ON /v:OFF /s /c "`

// BuiltinCommandLine builds the lpCommandLine that runs the cmd.exe
// internal command name (dir, type, copy, …) with args, its output in
// UTF-16LE (lossless whatever the code page):
//
//	cmd.exe /d /u /e:ON /v:OFF /s /c "name arg1 arg2"
//
// Use it only where chainrun reads and decodes the output: a program
// reading it from a pipe or a file would get UTF-16 it does not expect.
// The copy of a file's bytes (type) is converted by /u as if it were in
// the ANSI code page, so type should never get /u; see
// BuiltinCommandLineCP.
//
// Built-ins do not take an argv: each parses its own text, so arguments are
// quoted the way a person would type them at the prompt. An argument with
// a space, tab or one of cmd's delimiters ,;= (or empty) is put in double
// quotes, where & | < > ( ) ^ are literal; other arguments are left bare
// with every metacharacter & | < > ( ) ^ " escaped by a caret. Either way
// % becomes %%cd:~,% so no variable is expanded. Refused: CR, LF, NUL, and
// a double quote in an argument that also needs quotes (cmd has no way to
// put one inside a quoted string).
func BuiltinCommandLine(name string, args []string) (string, error) {
	return builtinCommandLine(builtinPrefix, name, args)
}

// BuiltinCommandLineCP is BuiltinCommandLine without /u: the built-in
// writes in the console's code page, as at a prompt, and type copies a
// file's bytes unchanged. This is the form for output that feeds another
// program or a file.
func BuiltinCommandLineCP(name string, args []string) (string, error) {
	return builtinCommandLine(builtinPrefixCP, name, args)
}

// BuiltinUnicodeSafe reports whether a built-in's output may be switched
// to UTF-16 with /u: not type, whose output is a file's own bytes.
func BuiltinUnicodeSafe(name string) bool { return !strings.EqualFold(name, "type") }

func builtinCommandLine(prefix, name string, args []string) (string, error) {
	if name == "" || strings.ContainsAny(name, " \t\"%&|<>()^,;=") {
		return "", &ArgError{Index: 0, Arg: name, Reason: "not a cmd.exe built-in name"}
	}
	var b strings.Builder
	b.WriteString(prefix)
	b.WriteString(name)
	for i, a := range args {
		if why := badChar(a, true); why != "" {
			return "", &ArgError{Index: i + 1, Arg: a, Reason: why}
		}
		b.WriteByte(' ')
		if err := appendBuiltinArg(&b, a); err != nil {
			return "", &ArgError{Index: i + 1, Arg: a, Reason: err.Error()}
		}
	}
	b.WriteByte('"')
	line := b.String()
	if n := utf16Len(line); n > MaxCmdLine {
		return "", tooLong(n, args, func(a string) int {
			var b strings.Builder
			_ = appendBuiltinArg(&b, a)
			return utf16Len(b.String())
		})
	}
	return line, nil
}

// CheckBuiltinArgs reports whether BuiltinCommandLine would accept name
// and args.
func CheckBuiltinArgs(name string, args []string) error {
	_, err := BuiltinCommandLine(name, args)
	return err
}

func appendBuiltinArg(b *strings.Builder, a string) error {
	quote := a == "" || strings.ContainsAny(a, " \t,;=")
	if quote && strings.Contains(a, `"`) {
		return errors.New("a cmd.exe built-in cannot receive a double quote inside a quoted argument")
	}
	if quote {
		b.WriteByte('"')
	}
	for _, r := range a {
		switch {
		case r == '%':
			b.WriteString(percentEscape)
			continue
		case !quote && strings.ContainsRune(`&|<>()^"`, r):
			b.WriteByte('^')
		}
		b.WriteRune(r)
	}
	if quote {
		b.WriteByte('"')
	}
	return nil
}

// ParseCommandLine splits a Windows command line the way the post-2008
// MSVC CRT and the UCRT do (Rust, Python, Node and MSVC C programs):
// argv0 runs to the next quote if it starts with one, else to the first
// space or tab, with no escapes; then arguments are separated by spaces
// and tabs outside quotes, 2n backslashes before a quote give n and the
// quote toggles quoting, 2n+1 give n and a literal quote, and "" inside
// quotes is a literal quote that stays in quoted mode. Go's own os.Args
// follows the older rule ("" also ends quoting), which is why chainrun's
// tests parse GetCommandLineW with this function.
func ParseCommandLine(s string) []string {
	var args []string
	// argv0
	if s == "" {
		return nil
	}
	if s[0] == '"' {
		end := strings.IndexByte(s[1:], '"')
		if end < 0 {
			return []string{s[1:]}
		}
		args = append(args, s[1:1+end])
		s = s[2+end:]
	} else {
		end := strings.IndexAny(s, " \t")
		if end < 0 {
			return []string{s}
		}
		args = append(args, s[:end])
		s = s[end:]
	}
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return args
		}
		var a strings.Builder
		inQuote := false
		for s != "" {
			slashes := 0
			for slashes < len(s) && s[slashes] == '\\' {
				slashes++
			}
			if slashes < len(s) && s[slashes] == '"' {
				a.WriteString(strings.Repeat(`\`, slashes/2))
				s = s[slashes:]
				switch {
				case slashes%2 == 1:
					a.WriteByte('"')
					s = s[1:]
				case inQuote && len(s) > 1 && s[1] == '"':
					a.WriteByte('"')
					s = s[2:]
				default:
					inQuote = !inQuote
					s = s[1:]
				}
				continue
			}
			if slashes > 0 {
				a.WriteString(s[:slashes])
				s = s[slashes:]
				continue
			}
			if !inQuote && (s[0] == ' ' || s[0] == '\t') {
				break
			}
			a.WriteByte(s[0])
			s = s[1:]
		}
		args = append(args, a.String())
	}
}

// Check reports whether a program that package resolve classified as kind
// can be run with args, argv[0] included, without building anything.
// Runners call it for every segment before the first one starts, so a
// chain holding an argument cmd.exe cannot carry is refused whole rather
// than halfway.
func Check(kind resolve.Kind, path string, args []string) error {
	rest := argsAfter0(args)
	switch kind {
	case resolve.Batch:
		return CheckBatchArgs(path, rest)
	case resolve.CmdBuiltin:
		return CheckBuiltinArgs(path, rest)
	}
	_, err := ComposeCommandLine(append([]string{path}, rest...))
	return err
}
