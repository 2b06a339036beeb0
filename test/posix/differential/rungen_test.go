//go:build unix

package differential

import (
	"slices"
	"strings"
)

// The run suite's generated chains: coreutils programs and the engine
// built-ins over a small seeded directory (see seedFiles), every quoting
// style, all four operators, spacing variants, cd and exit.

// seedFiles is the content of every fresh directory a chain runs in; a
// name ending in / is a directory.
var seedFiles = []struct{ Name, Data string }{
	{"a.txt", "apple\nbanana\ncherry\napple\n"},
	{"b.txt", "one,1\ntwo,2\nthree,3\n"},
	{"nums", "3\n1\n2\n10\n"},
	{"my file.txt", "spaced\nname\n"},
	{"é.txt", "ünïcode\n"},
	{"empty", ""},
	{"sub/", ""},
	{"sub/c.txt", "deep\n"},
	{"sub/inner/", ""},
	{"sub/inner/d.txt", "deeper\n"},
}

// runCase is one generated chain.
type runCase struct {
	Src    string
	Traits map[string]bool
	// POSIX: nothing in the chain is bash-only (&>, |&, echo -e/-E,
	// backslashes in echo's arguments), so dash should agree too.
	POSIX bool
}

// runGen generates chains for the run suite.
type runGen struct {
	*parseGen
	posix bool
	clean bool // generate no file that may be missing
	cds   int  // cd .. used (at most once: the chain stays in its own tree)
}

func newRunGen(seed uint64, i int) *runGen {
	return &runGen{parseGen: newParseGen(seed^0x5eed, i)}
}

var (
	readFiles   = []string{"a.txt", "b.txt", "nums", "my file.txt", "é.txt", "empty", "sub/c.txt", "missing.txt", "n1", "dir1/n3"}
	mutateNames = []string{"n1", "n 2", "dir1", "dir1/n3", "é2", "sub/n4", "a.txt"}
	cdTargets   = []string{"sub", "sub/inner", "..", "nonexistent", "dir1", "", ".", "sub/.."}
	grepPats    = []string{"a", "an", "^c", "e$", "x", "[0-9]", "one\\|two", "APPLE"}
	words       = []string{"hello", "world", "a b", "x", "-", "--", "ok", "-n", "-e", "-x", "é", "日本", "it's", `"q"`, "a  b", "", "tab\there", "2", "line1\nline2"}
	echoEscapes = []string{`\n`, `\t`, `\\`, `\x41`, `\0101`, `\c`, `\a`, `\e`, `\u00e9`, `\q`, `\`, `\101`, `\v`}
)

// chain generates one chain.
func (g *runGen) chain() runCase {
	g.posix, g.cds = true, 0
	g.traits = map[string]bool{}
	c := &pChain{}
	nPipes := 1 + g.r.IntN(4)
	for p := range nPipes {
		if p > 0 {
			c.Ops = append(c.Ops, pick(g.r, "&&", "||", ";", ";"))
		}
		last := p == nPipes-1
		if g.r.IntN(3) == 0 {
			n := 2 + g.r.IntN(2)
			var filters []*pSeg
			for range n - 1 {
				filters = append(filters, g.filter())
			}
			// A stage that stops reading early (head) or never reads
			// makes the stages before it die of SIGPIPE at a moment
			// that races with their writes, in bash too; then the
			// producer must not have an error to print after its
			// output, which depends on when it died.
			g.clean = false
			for _, f := range filters {
				if !readsAll(f.Prog) {
					g.clean = true
				}
			}
			pipe := append([]*pSeg{g.producer()}, filters...)
			g.clean = false
			for _, s := range pipe[:n-1] {
				// |& pipes the stage's stderr on; keep the shell's
				// own messages (whose prefixes differ) out of it.
				if g.r.IntN(12) == 0 && s.Prog != "cd" && s.Prog != "nosuchprog_x" {
					s.PipeAmp = true
					g.posix = false
				}
			}
			c.Pipes = append(c.Pipes, pipe)
			continue
		}
		c.Pipes = append(c.Pipes, []*pSeg{g.single(last)})
	}
	return runCase{Src: g.render(c), POSIX: g.posix, Traits: g.traits}
}

func seg(prog string, args ...string) *pSeg { return &pSeg{Prog: prog, Args: args} }

// text is an argument for echo and printf.
func (g *runGen) text() string {
	if g.r.IntN(3) == 0 {
		return value(g.r, 6, true)
	}
	return pick(g.r, words...)
}

// echo is the built-in echo or /bin/echo with flags and words.
func (g *runGen) echo() *pSeg {
	prog := pick(g.r, "echo", "echo", "/bin/echo")
	s := seg(prog)
	if g.r.IntN(2) == 0 {
		f := pick(g.r, "-n", "-e", "-E", "-ne", "-en", "-neE", "-n -e", "-nn")
		s.Args = append(s.Args, strings.Fields(f)...)
	}
	for range g.r.IntN(4) {
		if g.r.IntN(3) == 0 {
			s.Args = append(s.Args, g.text()+pick(g.r, echoEscapes...)+g.text())
		} else {
			s.Args = append(s.Args, g.text())
		}
	}
	for _, a := range s.Args {
		if strings.Contains(a, `\u`) {
			g.traits[traitEchoU] = true
		}
	}
	if prog == "echo" {
		for i, a := range s.Args {
			// dash's echo reads backslashes always and knows no
			// option but a first -n.
			if strings.ContainsRune(a, '\\') || echoOptionLike(a) && (i > 0 || a != "-n") {
				g.posix = false
			}
		}
	}
	return s
}

// producer starts a pipeline: it writes without reading stdin.
func (g *runGen) producer() *pSeg {
	switch g.r.IntN(14) {
	case 0, 1, 2:
		return g.echo()
	case 3:
		return g.printf()
	case 4:
		return seg("cat", g.readFiles(1+g.r.IntN(2))...)
	case 5:
		return seg("seq", pick(g.r, []string{"5"}, []string{"2", "4"}, []string{"1", "3", "20"}, []string{"100000"}, []string{"0"})...)
	case 6:
		if g.clean {
			return seg("ls", pick(g.r, []string{}, []string{"sub"}, []string{"-a"})...)
		}
		return seg("ls", pick(g.r, []string{}, []string{"sub"}, []string{"-a"}, []string{"nonexistent"}, []string{"sub", "a.txt"})...)
	case 7:
		return seg(pick(g.r, "head", "tail"), "-n", pick(g.r, "1", "2", "10"), g.readFile())
	case 8:
		return seg("pwd")
	case 9:
		return seg("sort", append(pick(g.r, []string{}, []string{"-r"}, []string{"-n"}, []string{"-u"}), g.readFile())...)
	case 10:
		return seg("grep", append(pick(g.r, []string{}, []string{"-c"}, []string{"-v"}, []string{"-n"}, []string{"-i"}), pick(g.r, grepPats...), g.readFile())...)
	case 11:
		return seg("cut", append(pick(g.r, []string{"-d,", "-f1"}, []string{"-c1-3"}, []string{"-d", ",", "-f2"}), pick(g.r, "b.txt", "a.txt"))...)
	case 12:
		if g.r.IntN(3) == 0 {
			// The segment's own PATH finds its program.
			s := seg("ls", "sub")
			s.Assigns = [][2]string{{"PATH", pick(g.r, "/nonexistent", "/bin", "/usr/bin:/bin", "/nonexistent:/usr/bin")}}
			return s
		}
		return g.withAssign(seg("printenv", "V"))
	default:
		if g.r.IntN(4) == 0 {
			// exit in a pipeline ends only its stage.
			return seg("exit", pick(g.r, "3", "0"))
		}
		return seg(pick(g.r, "true", "false", "cd", "nosuchprog_x"), pick(g.r, []string{}, []string{"sub"}, []string{"x y"}, []string{"sub", "sub"})...)
	}
}

// filter reads stdin.
func (g *runGen) filter() *pSeg {
	switch g.r.IntN(13) {
	case 0:
		return seg("cat", pick(g.r, []string{}, []string{"-n"}, []string{"-"})...)
	case 1:
		return seg(pick(g.r, "head", "tail"), "-n", pick(g.r, "1", "2", "3"))
	case 2:
		return seg("wc", pick(g.r, "-l", "-c", "-w"))
	case 3:
		return seg("sort", pick(g.r, []string{}, []string{"-r"}, []string{"-n"}, []string{"-u"})...)
	case 4:
		return seg("uniq", pick(g.r, []string{}, []string{"-c"})...)
	case 5:
		return seg("tr", pick(g.r, []string{"a-z", "A-Z"}, []string{"-d", "aeiou"}, []string{"-s", "l"}, []string{",", " "}, []string{"\n", ":"})...)
	case 6:
		return seg("cut", pick(g.r, []string{"-c1-3"}, []string{"-d,", "-f1"}, []string{"-d", " ", "-f2"})...)
	case 7:
		return seg("grep", append(pick(g.r, []string{}, []string{"-c"}, []string{"-v"}, []string{"-i"}), pick(g.r, grepPats...))...)
	case 8:
		return seg("sed", "-n", pick(g.r, "1p", "2p", "$p", "/an/p", "/e/p"))
	case 9:
		return g.echo()
	case 10:
		return seg(pick(g.r, "true", "false", "pwd"))
	case 11:
		return seg("cd", pick(g.r, "sub", "nonexistent"))
	default:
		return seg("basename", pick(g.r, []string{"/x/y/z.txt", ".txt"}, []string{"a/b/"}, []string{"é/ü"})...)
	}
}

// single is a pipeline of one command: anything, including commands
// that change the tree or the directory, and exit at the end.
func (g *runGen) single(last bool) *pSeg {
	switch k := g.r.IntN(20); {
	case k < 6:
		return g.producer()
	case k < 8:
		return seg("mkdir", append(pick(g.r, []string{}, []string{"-p"}), pick(g.r, mutateNames...))...)
	case k < 10:
		return seg("touch", pick(g.r, mutateNames...))
	case k < 11:
		return seg("rm", "-f", pick(g.r, mutateNames...))
	case k < 14:
		t := pick(g.r, cdTargets...)
		if t == ".." || t == "sub/.." {
			if g.cds > 0 {
				t = "sub"
			}
			g.cds++
		}
		if t == "" {
			return seg("cd")
		}
		if t == "sub/.." {
			g.traits[traitCdDotDot] = true
		}
		return seg("cd", t)
	case k < 15:
		return g.test()
	case k < 16:
		if g.r.IntN(5) == 0 {
			return seg("pwd", pick(g.r, "-L", "-P"))
		}
		return seg(pick(g.r, "true", "false", "pwd"), pick(g.r, []string{}, []string{}, []string{"x"})...)
	case k < 17:
		return seg("basename", pick(g.r, []string{"/x/y/z.txt", ".txt"}, []string{"a/b/"})...)
	case k < 19 && last:
		return seg("exit", pick(g.r, []string{}, []string{"0"}, []string{"3"}, []string{"42"}, []string{"255"}, []string{"256"}, []string{"-1"}, []string{"abc"})...)
	case k < 19:
		if g.r.IntN(3) == 0 {
			return seg("exit", pick(g.r, "4", "0"))
		}
		return g.echo()
	default:
		return g.printf()
	}
}

// printf is bash's printf built-in (an engine built-in in chainrun), or
// now and then coreutils' /usr/bin/printf on the plain formats both read
// alike. The engine's is given every directive bash has, with flags,
// widths (also *), precisions and arguments of every kind: numbers in
// every base, 'c values, ones that are not numbers (bash's messages and
// status 1), too few and too many (the format is reused), and escapes.
func (g *runGen) printf() *pSeg {
	if g.r.IntN(6) == 0 {
		f := pick(g.r, `%s\n`, `%s-%s\n`, `[%5s]\n`, `a\tb\n`, `%%\n`, `<%s>`)
		return seg("/usr/bin/printf", append([]string{f}, g.printfArgs(strings.Count(f, "%s"), 's')...)...)
	}
	var f strings.Builder
	var verbs []byte
	for range 1 + g.r.IntN(3) {
		f.WriteString(pick(g.r, "", "<", "a ", `\t`, `\n`, `\101`, `\x41`, `\u00e9`, `\"`, `\\`, "%%", "-"))
		v := pick(g.r, "s", "s", "d", "i", "o", "u", "x", "X", "c", "b", "q", "Q", "e", "E", "f", "F", "g", "G", "a", "A", "(%Y-%m-%d %H:%M:%S %j %a %b)T")
		width, prec := pick(g.r, "", "", "5", "12", "*", "1"), pick(g.r, "", "", ".0", ".2", ".10", ".*", ".")
		f.WriteString("%" + pick(g.r, "", "", "-", "0", "+", " ", "#", "-0", "+ ", "'") + width + prec)
		f.WriteString(pick(g.r, "", "", "", "l", "ll", "h", "z", "L", "j") + v)
		for range strings.Count(width+prec, "*") {
			verbs = append(verbs, '*') // each * takes an argument before the conversion's
		}
		verbs = append(verbs, v[len(v)-1])
	}
	f.WriteString(pick(g.r, `\n`, `|\n`, "", `\c`))
	if strings.Contains(f.String(), "%(") || strings.ContainsAny(string(verbs), "qQ") {
		g.posix = false // dash's printf has neither
	}
	s := seg("printf", f.String())
	reps := pick(g.r, 1, 1, 1, 0, 2)
	for range reps {
		for _, v := range verbs {
			s.Args = append(s.Args, g.printfArgs(1, v)...)
		}
	}
	if reps == 1 && g.r.IntN(4) == 0 && len(s.Args) > 0 {
		s.Args = s.Args[:len(s.Args)-1] // one argument short
	}
	return s
}

// printfArgs gives n arguments for the conversion v. Before a stage that
// stops reading (g.clean) none makes printf print a message after its
// output, since a SIGPIPE may or may not end it first.
func (g *runGen) printfArgs(n int, v byte) []string {
	var out []string
	for len(out) < n {
		a := g.printfArg(v)
		if g.clean && slices.Contains([]string{"x", "12abc", "08", "99999999999999999999", "1x", "1e300"}, a) {
			continue
		}
		out = append(out, a)
	}
	return out
}

func (g *runGen) printfArg(v byte) string {
	switch {
	case v == '*':
		return pick(g.r, "3", "0", "-4", "8", "x")
	case strings.IndexByte("diouxXc", v) >= 0 && v != 'c':
		return pick(g.r, "0", "1", "42", "-7", "255", "0x1F", "017", "'A", "' 12'", "+3", "12abc", "", "x",
			"9223372036854775807", "-9223372036854775808", "99999999999999999999", "08", `"z`)
	case strings.IndexByte("eEfFgGaA", v) >= 0:
		return pick(g.r, "0", "1", "1.5", "-2.25", "3.14159", "1e20", "0.0001", "1e-5", "100000", "123456789",
			"0x1p3", "inf", "-inf", "nan", "2.5", "0.1", "1x", "", "'A", "1e300")
	case v == 'T':
		return pick(g.r, "0", "86400", "1700000000", "1690000000", "-86400")
	case v == 'b':
		return pick(g.r, `a\nb`, `\0101\x41\101`, `tab\there`, `x\cy`, `\u00e9\ud800`, `\e\a\z`, "plain")
	default:
		return pick(g.r, words...)
	}
}

// test is bash's test or [ with every operator: file tests on the tree,
// string and integer comparisons (also with operands that are not
// integers, status 2), -v on the segment's environment, and !, -a, -o
// and parentheses by POSIX's argument-count rules and bash's grammar.
func (g *runGen) test() *pSeg {
	var args []string
	for i := range 1 + g.r.IntN(3) {
		if i > 0 {
			args = append(args, pick(g.r, "-a", "-o"))
		}
		args = append(args, g.testTerm()...)
	}
	if g.r.IntN(6) == 0 {
		args = append([]string{"!"}, args...)
	}
	if g.r.IntN(6) == 0 {
		args = append(append([]string{"("}, args...), ")")
	}
	if g.r.IntN(10) == 0 {
		args = args[:g.r.IntN(len(args))] // every argument count, errors included
	}
	for _, a := range args {
		if a == "==" || a == "<" || a == ">" || a == "-v" || a == "-o" && len(args) == 2 {
			g.posix = false
		}
	}
	if g.r.IntN(2) == 0 {
		return seg("[", append(args, "]")...)
	}
	return seg("test", args...)
}

func (g *runGen) testTerm() []string {
	file := pick(g.r, append(readFiles, "sub", "dir1", "", "link")...)
	switch g.r.IntN(5) {
	case 0:
		return []string{"-" + pick(g.r, "a", "b", "c", "d", "e", "f", "g", "h", "k", "p", "r", "s", "u", "w", "x", "G", "L", "N", "O", "S"), file}
	case 1:
		return []string{pick(g.r, "-n", "-z", "-v", "-R", "-o", "-t"), pick(g.r, "", "x", "V", "HOME", "NOPE", "1", "braceexpand", "errexit")}
	case 2:
		return []string{pick(g.r, words...), pick(g.r, "=", "==", "!=", "<", ">"), pick(g.r, words...)}
	case 3:
		n := []string{"1", "-2", " 3 ", "+4", "007", "x", "", "99999999999999999999"}
		return []string{pick(g.r, n...), pick(g.r, "-eq", "-ne", "-lt", "-le", "-gt", "-ge"), pick(g.r, n...)}
	}
	// Files seeded within one clock tick share a modification time, so
	// -nt and -ot compare a file with a missing one or with itself; bash
	// and chainrun run in separately seeded trees.
	f := pick(g.r, readFiles...)
	pair := pick(g.r, []string{f, "missing.txt"}, []string{"missing.txt", f}, []string{f, f})
	return []string{pair[0], pick(g.r, "-nt", "-ot", "-ef"), pair[1]}
}

// withAssign prefixes a V=value assignment (or leaves V unset).
func (g *runGen) withAssign(s *pSeg) *pSeg {
	if g.r.IntN(4) > 0 {
		s.Assigns = append(s.Assigns, [2]string{"V", g.text()})
	}
	return s
}

func (g *runGen) readFiles(n int) []string {
	var out []string
	for range n {
		out = append(out, g.readFile())
	}
	return out
}

// readFile is a file to read; it may be missing unless g.clean is set.
func (g *runGen) readFile() string {
	if g.clean {
		return pick(g.r, readFiles[:7]...)
	}
	return pick(g.r, readFiles...)
}

// readsAll reports whether a filter reads its whole input.
func readsAll(prog string) bool {
	switch prog {
	case "cat", "wc", "sort", "uniq", "tr", "cut", "grep", "sed":
		return true
	}
	return false
}

// echoOptionLike reports whether bash's echo would take a as options.
func echoOptionLike(a string) bool {
	return len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "neE") == ""
}
