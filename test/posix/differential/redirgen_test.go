//go:build unix

package differential

import (
	"strconv"
	"strings"
)

// The redirect suite's generated chains: the run suite's programs with
// redirects of every supported form, several per command, before, between
// and after the words, failing ones among them, in pipelines and joined by
// && || ;. No two stages of one pipeline touch the same file (that races in
// bash too). A stage whose program is missing has its redirects applied
// all the same, as bash applies them before it looks for the program.

// redirGen generates chains for the redirect suite.
type redirGen struct {
	*runGen
	used map[string]int // file -> the stage of the current pipeline using it
	cur  int            // the stage being generated
	// moved: a cd came earlier in the chain, so a name the stage uses may
	// not exist where it now runs and a redirect to it may fail.
	moved, mayFail bool
}

func newRedirGen(seed uint64, i int) *redirGen {
	return &redirGen{runGen: newRunGen(seed^0x4ed1, i)}
}

var (
	outTargets = []string{"o1", "o2", "o3", "out log", "é.out", "sub/o4", "a.txt", "nums", "o1", "o2"}
	inTargets  = []string{"a.txt", "b.txt", "nums", "my file.txt", "sub/c.txt", "empty"}
	badTargets = []string{"nodir/f", "sub", "sub/inner", "nodir/sub/g"}
)

// take reports whether the current stage may use file, and claims it.
func (g *redirGen) take(file string) bool {
	if s, ok := g.used[file]; ok && s != g.cur {
		return false
	}
	g.used[file] = g.cur
	return true
}

// pickFile picks a name from pool that no other stage of the pipeline
// uses, or "".
func (g *redirGen) pickFile(pool []string) string {
	for range 8 {
		if f := pick(g.r, pool...); g.take(f) {
			g.mayFail = g.mayFail || g.moved
			return f
		}
	}
	return ""
}

// chain generates one chain.
func (g *redirGen) chain() runCase {
	g.posix, g.cds, g.moved = true, 0, false
	g.traits = map[string]bool{}
	c := &pChain{}
	nPipes := 1 + g.r.IntN(4)
	for p := range nPipes {
		if p > 0 {
			c.Ops = append(c.Ops, pick(g.r, "&&", "||", ";", ";"))
		}
		g.used = map[string]int{}
		n := 1
		if g.r.IntN(2) == 0 {
			n = 2 + g.r.IntN(2)
		}
		var pipe []*pSeg
		for s := range n {
			g.cur, g.mayFail = s, false
			var st *pSeg
			switch {
			case n == 1:
				st = g.single()
			case s == 0:
				st = g.producer()
			default:
				st = g.filter()
			}
			failing := g.redirects(st, s == 0)
			if (failing || g.mayFail || st.Prog == "nosuchprog_x") && s < n-1 {
				// The shell's own message may go down the pipe.
				g.traits[traitMessagePiped] = true
			}
			if s < n-1 && g.r.IntN(10) == 0 && st.Prog != "nosuchprog_x" && st.Prog != "cd" {
				st.PipeAmp = true
				g.posix = false
			}
			pipe = append(pipe, st)
		}
		c.Pipes = append(c.Pipes, pipe)
	}
	return runCase{Src: g.render(c), POSIX: g.posix, Traits: g.traits}
}

// producer starts a pipeline. Whatever it prints on stderr comes before
// its stdout, so a downstream stage that stops reading cannot change it.
func (g *redirGen) producer() *pSeg {
	switch g.r.IntN(9) {
	case 0, 1:
		return g.echo()
	case 2:
		return g.printf()
	case 3:
		f := g.pickFile(inTargets)
		if f == "" {
			return seg("seq", "3")
		}
		if g.r.IntN(3) == 0 && g.take("missing.txt") {
			return seg("cat", "missing.txt", f)
		}
		return seg("cat", f)
	case 4:
		if g.take("a.txt") {
			return seg("ls", "a.txt", "nonexistent")
		}
		return seg("ls", "nonexistent")
	case 5:
		return seg("seq", pick(g.r, "3", "5"))
	case 6:
		return seg(pick(g.r, "true", "false", "pwd"))
	case 7:
		return seg("nosuchprog_x", pick(g.r, []string{}, []string{"a"})...)
	default:
		return seg("cat") // reads the chain's (empty) stdin, or a < redirect
	}
}

// filter reads its whole input.
func (g *redirGen) filter() *pSeg {
	switch g.r.IntN(8) {
	case 0, 1:
		return seg("cat", pick(g.r, []string{}, []string{"-n"})...)
	case 2:
		return seg("wc", pick(g.r, "-l", "-c"))
	case 3:
		return seg("sort", pick(g.r, []string{}, []string{"-r"})...)
	case 4:
		if f := g.pickFile(outTargets); f != "" {
			return seg("tee", f)
		}
		return seg("cat")
	case 5:
		return seg("tr", "a-z", "A-Z")
	case 6:
		return seg("grep", pick(g.r, "a", "e", "x"))
	default:
		return seg("sed", "-n", pick(g.r, "1p", "$p"))
	}
}

// single is a pipeline of one command.
func (g *redirGen) single() *pSeg {
	switch k := g.r.IntN(12); {
	case k < 6:
		return g.producer()
	case k < 7:
		return seg("head", "-n", "1")
	case k < 8:
		g.moved = true
		return seg("cd", pick(g.r, "sub", "nonexistent", "sub/inner"))
	case k < 9 && g.cds == 0:
		g.cds++
		g.moved = true
		return seg("cd", "..")
	case k < 10:
		return seg("touch", pick(g.r, "n1", "o1"))
	default:
		return g.filter()
	}
}

// redirects adds 0-3 groups of redirects to s; first says s is the first
// stage of its pipeline. Input redirects and failing redirects go on first
// stages only: a later stage that does not read the pipe makes the stages
// before it die of SIGPIPE at a moment that races with their writes.
// It reports whether it added a redirect that fails.
func (g *redirGen) redirects(s *pSeg, first bool) (failing bool) {
	words := len(s.Assigns) + 1 + len(s.Args)
	where := func() int { return g.r.IntN(words + 1) }
	add := func(fd int, op, target string) {
		s.Redirs = append(s.Redirs, pRedir{Fd: fd, Op: op, Target: target, Where: where()})
	}
	for range g.r.IntN(4) {
		switch k := g.r.IntN(20); {
		case k < 5: // output to a file
			f := g.pickFile(outTargets)
			if f == "" {
				continue
			}
			op := pick(g.r, ">", ">", ">>", ">|", "&>", "&>>")
			fd := -1
			if op[0] != '&' && g.r.IntN(2) == 0 {
				fd = pick(g.r, 1, 2, 2)
			}
			if op[0] == '&' {
				g.posix = false
			}
			add(fd, op, f)
		case k < 7 && first: // input from a file
			f := g.pickFile(inTargets)
			if f == "" {
				continue
			}
			add(-1, "<", f)
		case k < 10: // dups of the standard fds
			switch g.r.IntN(4) {
			case 0:
				add(2, ">&", "1")
			case 1:
				add(-1, ">&", "2")
			case 2:
				add(1, ">&", "2")
			default:
				add(-1, ">&", "1")
			}
		case k < 11: // swap stdout and stderr through fd 3
			at := where()
			for _, r := range []pRedir{{Fd: 3, Op: ">&", Target: "1"}, {Fd: 1, Op: ">&", Target: "2"}, {Fd: 2, Op: ">&", Target: "3"}} {
				r.Where = at
				s.Redirs = append(s.Redirs, r)
			}
		case k < 13: // the null device and /dev/stdout, /dev/stderr
			switch g.r.IntN(6) {
			case 0:
				add(2, ">", "/dev/null")
			case 1:
				add(-1, ">", "/dev/null")
			case 2:
				add(-1, "&>", "/dev/null")
				g.posix = false
			case 3:
				if first {
					add(-1, "<", "/dev/null")
				}
			case 4, 5:
				// bash on Linux opens /dev/stdout anew, which
				// truncates a file fd 1 points to; chainrun dups
				// fd 1 (the documented meaning on every OS). The
				// two agree while fds 1 and 2 are still the
				// inherited pipes: put it first.
				r := pRedir{Fd: 2, Op: ">", Target: "/dev/stdout"}
				if g.r.IntN(2) == 0 {
					r = pRedir{Fd: -1, Op: ">", Target: "/dev/stderr"}
				}
				s.Redirs = append([]pRedir{r}, s.Redirs...)
			}
		case k < 15: // n>file then a dup of n, fds 3-9
			f := g.pickFile(outTargets)
			if f == "" {
				continue
			}
			n := 3 + g.r.IntN(7)
			add(n, pick(g.r, ">", ">>"), f)
			add(pick(g.r, -1, 2), ">&", strconv.Itoa(n))
		case k < 16 && first: // n<file then <&n
			f := g.pickFile(inTargets)
			if f == "" {
				continue
			}
			n := 3 + g.r.IntN(7)
			add(n, "<", f)
			add(-1, "<&", strconv.Itoa(n))
		case k >= 18 && first: // text as input: a heredoc or here-string
			r := g.textRedir()
			r.Where = where()
			s.Redirs = append(s.Redirs, r)
			if r.Fd == 3 {
				add(-1, "<&", "3")
			}
		case k < 18 && first: // a redirect that fails
			failing = true
			switch g.r.IntN(4) {
			case 0:
				add(pick(g.r, -1, 2), pick(g.r, ">", ">>"), pick(g.r, badTargets...))
			case 1:
				if first && g.take("missing.txt") {
					add(-1, "<", "missing.txt")
				}
			case 2:
				add(-1, ">&", pick(g.r, "5", "8"))
			default:
				add(-1, "&>", pick(g.r, badTargets...))
				g.posix = false
			}
		}
	}
	sortStable(s.Redirs)
	return failing
}

// Heredoc delimiters and body lines: expansion characters, blanks, tabs,
// lines that only look like the delimiter, empty lines.
var (
	hdocDelims = []string{"EOF", "END", "x", "E_1", "ok.d"}
	hdocLines  = []string{"", "plain text", "$HOME `id` \\ \\n", "  spaced", "\tindented", "#", "'q' \"d\"", "é 日本", "a\tb"}
)

// textRedir is a heredoc (<<, <<-, with every quoting of its delimiter)
// or a here-string on stdin, or now and then on fd 3 for a <&3 after it.
func (g *redirGen) textRedir() pRedir {
	r := pRedir{Fd: -1}
	if g.r.IntN(4) == 0 {
		r.Fd = 3
	}
	r.Op = pick(g.r, "<<", "<<", "<<-", "<<<")
	if r.Op == "<<<" {
		g.posix = false
		r.Target = value(g.r, 8, true)
		return r
	}
	d := pick(g.r, hdocDelims...)
	var body strings.Builder
	for range g.r.IntN(5) {
		line := pick(g.r, hdocLines...)
		if g.r.IntN(3) == 0 {
			line = value(g.r, 10, false)
		}
		if r.Op == "<<-" && g.r.IntN(2) == 0 {
			line = pick(g.r, "\t", "\t\t") + line
		}
		if strings.TrimLeft(line, "\t") == d || strings.HasPrefix(line, d) && g.r.IntN(2) == 0 {
			line = d + pick(g.r, " ", "x", "\t") // only like the delimiter
		}
		body.WriteString(line + "\n")
	}
	r.Body = body.String()
	r.DelimLine = d
	if r.Op == "<<-" && g.r.IntN(2) == 0 {
		r.DelimLine = "\t" + d
	}
	styles := []string{"'" + d + "'", `"` + d + `"`, `\` + d, d[:1] + "'" + d[1:] + "'"}
	if !strings.ContainsAny(r.Body, "$`\\") {
		styles = append(styles, d, d) // unquoted: bash expands nothing here
	}
	r.Delim = pick(g.r, styles...)
	return r
}
