package policy

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/chainrun/chainrun/chain"
)

// What a segment reads on standard input, when it is literal text known
// before the run: a heredoc or here-string on fd 0, or the output of the
// stage before it in a pipeline when that stage only prints literal text
// (echo, printf without conversions, cat of a heredoc). A shell that
// reads its script there runs that text as sh -c would (shellBody); make
// -f - reads its makefile there (prog_make.go).

// feed is a segment's standard input as far as it is known.
type feed struct {
	text  string
	known bool
	// from is the pipeline stage writing it, when it is the previous one.
	from *chain.Segment
}

// stdinFeed is the standard input of stage k of the pipeline segs.
func stdinFeed(segs []*chain.Segment, k int) feed {
	s := segs[k]
	if f, redirected := ownStdin(s); redirected {
		return f
	}
	if k == 0 {
		return feed{}
	}
	f := literalOutput(segs[k-1])
	f.from = segs[k-1]
	return f
}

// ownStdin is what the segment's own redirects put on fd 0 (the last one
// wins), and whether there is one.
func ownStdin(s *chain.Segment) (feed, bool) {
	var f feed
	redirected := false
	for _, r := range s.Redirects {
		if r.Fd != 0 || r.Op == chain.RedirDupOut {
			continue
		}
		redirected = true
		f = feed{}
		if r.Op.IsText() {
			f = feed{text: r.Body, known: true}
		}
	}
	return f, redirected
}

// literalOutput is what the segment writes on standard output when it only
// prints literal text; unknown otherwise.
func literalOutput(s *chain.Segment) feed {
	if len(s.Args) == 0 || s.HasRuntime() && hasUnknown(segArgv(s)) || len(s.Assigns) > 0 {
		return feed{}
	}
	for _, r := range s.Redirects {
		if r.Fd == 1 {
			return feed{} // its output goes elsewhere
		}
	}
	args := s.Args[1:]
	switch canonicalName(s.Args[0]) {
	case "echo":
		nl := "\n"
		if len(args) > 0 && args[0] == "-n" {
			nl, args = "", args[1:]
		}
		out := strings.Join(args, " ")
		if len(args) > 0 && strings.HasPrefix(args[0], "-") || strings.Contains(out, `\`) {
			return feed{} // options or escapes this reading does not follow
		}
		return feed{text: out + nl, known: true}
	case "printf":
		if len(args) != 1 || strings.ContainsAny(args[0], `%\`) {
			return feed{}
		}
		return feed{text: args[0], known: true}
	case "cat":
		if len(args) == 0 {
			if f, ok := ownStdin(s); ok {
				return f
			}
		}
	}
	return feed{}
}

// stdinScript reports a POSIX shell invocation that reads its script from
// standard input: no -c, and no script operand (or -s, which reads stdin
// and takes the operands as positional parameters).
func stdinScript(args []word) bool {
	for i := 1; i < len(args); i++ {
		x, ok := args[i].known()
		switch {
		case !ok:
			return false // a script operand, or an option, known only at run time
		case x == "--" || x == "-":
			return i+1 >= len(args)
		case x == "--rcfile" || x == "--init-file":
			i++
		case strings.HasPrefix(x, "--"):
		case len(x) > 1 && (x[0] == '-' || x[0] == '+'):
			for j := 1; j < len(x); j++ {
				switch x[j] {
				case 'c':
					return false
				case 's':
					return true
				case 'o', 'O':
					if j == len(x)-1 {
						i++
					}
				}
			}
		default:
			return stdinName(x)
		}
	}
	return true
}

// stdinName reports a file name that is the process's own standard input.
func stdinName(name string) bool {
	return name == "/dev/stdin" || name == "/dev/fd/0" || name == "/proc/self/fd/0"
}

// maxShownBody bounds the script text a reason shows.
const maxShownBody = 400

// shownBody is script text read on standard input as a reason shows it,
// on one line: quoted (a newline as \n), and cut after maxShownBody bytes
// with the count of bytes left out, so the text approved is the text
// judged.
func shownBody(s string) string {
	if len(s) <= maxShownBody {
		return strconv.Quote(s)
	}
	cut := maxShownBody
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + " … (" + strconv.Itoa(len(s)-cut) + " more bytes)"
}
