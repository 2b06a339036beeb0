//go:build unix

package differential

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
)

// checkEngineParse parses src with chainrun and compares it with what bash
// ran (br) and, for generated inputs, with the generator's redirects.
func checkEngineParse(br *parseRun, src string, gen *pChain) string {
	chain, err := chain.ParseDialect(src, chain.POSIX)
	if err != nil {
		return fmt.Sprintf("  chainrun refused it: %v\n", err)
	}
	var d strings.Builder
	d.WriteString(diffRuns("bash", br, "chainrun", engineRun(chain)))
	if gen != nil {
		d.WriteString(diffRedirects(chain, gen))
	}
	d.WriteString(checkSpans(chain, src))
	return d.String()
}

// checkSpans checks that every segment's span lies in the source, in
// order, without overlap, and that its Text is the source it spans.
func checkSpans(c *chain.Chain, src string) string {
	var d strings.Builder
	prevEnd := 0
	for _, s := range c.Segments() {
		sp := s.Span
		if sp.Start < prevEnd || sp.End < sp.Start || sp.End > len(src) {
			fmt.Fprintf(&d, "  segment %d %q: span [%d,%d) out of order or outside the source\n", s.Index, s.Args, sp.Start, sp.End)
			continue
		}
		if s.Text != src[sp.Start:sp.End] {
			fmt.Fprintf(&d, "  segment %d: Text %q is not the source it spans, %q\n", s.Index, s.Text, src[sp.Start:sp.End])
		}
		prevEnd = sp.End
	}
	return d.String()
}

// engineRun is the run chainrun's model describes, with the handler's
// statuses: which programs run (by && || ; over the pipelines), their argv
// and assignments, and the files their redirects create.
func engineRun(c *chain.Chain) *parseRun {
	pr := &parseRun{Ran: map[string]segRecord{}}
	status := 0
	created := map[string]bool{}
	for i, p := range c.Pipelines {
		if i > 0 && i-1 < len(c.Ops) && (c.Ops[i-1] == chain.OpAnd && status != 0 || c.Ops[i-1] == chain.OpOr && status == 0) {
			continue
		}
		for _, s := range p.Segments {
			if len(s.Args) == 0 {
				continue
			}
			pr.Ran[s.Args[0]] = segRecord{Argv: s.Args, Env: s.Env()}
			for _, r := range s.Redirects {
				switch string(r.Op) {
				case ">", ">>", "&>", "&>>":
					created[r.Target] = true
				}
			}
		}
		if n := len(p.Segments); n > 0 && len(p.Segments[n-1].Args) > 0 {
			status = progStatus(p.Segments[n-1].Args[0])
		}
	}
	pr.Created = slices.Sorted(maps.Keys(created))
	return pr
}

// diffRedirects compares each segment's redirects (fd, operator, target,
// implicit) with the generated ones.
func diffRedirects(c *chain.Chain, gen *pChain) string {
	bySeg := map[string]*chain.Segment{}
	for _, s := range c.Segments() {
		if len(s.Args) > 0 {
			bySeg[s.Args[0]] = s
		}
	}
	var d strings.Builder
	for _, pipe := range gen.Pipes {
		for _, g := range pipe {
			s, ok := bySeg[g.Prog]
			if !ok {
				fmt.Fprintf(&d, "  %s: chainrun has no such segment\n", g.Prog)
				continue
			}
			var want, got []string
			for _, r := range g.Redirs {
				want = append(want, fmt.Sprintf("%d%s%q", r.modelFd(), r.modelOp(), r.Target))
			}
			if g.PipeAmp {
				want = append(want, `2>&"1" implicit`)
			}
			for _, r := range s.Redirects {
				x := fmt.Sprintf("%d%s%q", r.Fd, r.Op, r.Target)
				if r.Implicit {
					x += " implicit"
				}
				got = append(got, x)
			}
			if !slices.Equal(want, got) {
				fmt.Fprintf(&d, "  %s redirects:\n    intended %s\n    chainrun %s\n", g.Prog, strings.Join(want, " "), strings.Join(got, " "))
			}
		}
	}
	return d.String()
}

// trickyInputs are hand-written inputs compared with bash the same way as
// the generated ones. Programs are s<i> (status 0) and f<i> (status 1); a
// case's input files (for <) are created first.
var trickyInputs = []struct {
	src    string
	inputs []string
	bug    string // the known bug it shows, if that bug is still open
}{
	{src: `s0 a#b #c`},
	{src: `s0 #a && b $(x) ` + "`y`"},
	{src: `s0 'a'"b"c\ d`},
	{src: `s0 "a\"b" "a\\b" "a\$b" "a\` + "`" + `b" "a\qb" "\n" "\'"`},
	{src: "s0 a\\\nb \"c\\\nd\" 'e\\\nf'"},
	{src: "s0 a \\\n b"},
	{src: `s0 "" '' ""'' a""b ''""''`},
	{src: `s0 'it'\''s' "'" '"'`},
	{src: `s0 \\ "\\\\" \a\b \é`},
	{src: `s0 \#a a\# a#b# a##`},
	{src: `s0&&s1;s2|s3||s4`},
	{src: `f0||s1&&s2`},
	{src: `s0 || s1 && f2 || s3 ; f4 && s5`},
	{src: "s0\ns1\n\ns2"},
	{src: "s0 |\n s1 &&\n\n s2 ||\n\ts3"},
	{src: "s0;\ns1"},
	{src: "s0 ; # comment\ns1"},
	{src: "s0 a # comment ending in a backslash\\\ns1 b", bug: "comment-backslash"},
	{src: "s0 a #\\\n\\\ns1 b", bug: "comment-backslash"},
	{src: "s0;"},
	{src: "s0\n"},
	{src: " \t s0 a\tb  \tc"},
	{src: "\n\ns0"},
	{src: `A=1 B1=2 s0 A=3`},
	{src: `A=1 A=2 s0`},
	{src: `A= s0 ""`},
	{src: `A='' B1="x y" FOO_BAR=a\ b s0`},
	{src: `A=#x s0 #comment`},
	{src: `A=a=b B1==c s0 a=b`},
	{src: `A="x"'y'z s0 | B1=1 s1`},
	{src: `s0 é 日本 🙂 "ж" 'Ω'`},
	{src: "s0 'a\nb' \"c\nd\""},
	{src: `s0 -- -n -e --x=y`},
	{src: `s0 %x ,y :z @w +v a==b ./p ../q /r`},
	{src: `s0 "}" "{" '*' "?" \[ \]`},
	{src: `s0 >o1 2>&1`},
	{src: `s0 2>&1 >o1`},
	{src: `s0 >o1>o2`},
	{src: `s0 &>o1 ; s1 &>>o2`},
	{src: `s0 >|o1 2>>o2`},
	{src: `>o1 s0 a`},
	{src: `>o1 A=1 s0 a`},
	{src: `s0 a>o1 b`},
	{src: `s0 a2>o1`},
	{src: `s0 2>o1`},
	{src: `s0 2 >o1`},
	{src: `s0 a&>o1`},
	{src: `s0 >& 2`},
	{src: `s0 1>&2 2>&1`},
	{src: `s0 3>&1 1>&2 2>&3`},
	{src: `s0 4>o1 >&4`},
	{src: `s0 <i1`, inputs: []string{"i1"}},
	{src: `s0 3<i1 <&3`, inputs: []string{"i1"}},
	{src: `s0 <"i 1" >'o 1'`, inputs: []string{"i 1"}},
	{src: `s0 >"o\$1" >'o$2' >o\"3`},
	{src: `s0 |& s1`},
	{src: `s0 x|&s1 y`},
	{src: `s0 2>o1 |& s1`},
	{src: `'s0' "s1"`},
	{src: `s\0 s"1"`},
	{src: "s\\\n0 a"},
	{src: `s0 "a\ b" "a\	b"`},
	{src: `s0 "\\\"" '\\\"'`},
}

// TestParseDifferentialTable compares hand-written tricky inputs with bash.
func TestParseDifferentialTable(t *testing.T) {
	bash := needShell(t, "bash")
	var known knownCases
	fails := forEach(len(trickyInputs), func(i int) string {
		c := trickyInputs[i]
		r := checkParseCase(bash, "tricky input "+strconv.Itoa(i), c.src, c.inputs, nil)
		if kb := knownBugByID(c.bug); r != "" && kb != nil {
			known.add(kb, r)
			return ""
		}
		return r
	})
	msg := fmt.Sprintf("differential parse: %d tricky inputs, %d matched bash", len(trickyInputs), len(trickyInputs)-len(fails)-known.count())
	msg += known.summary()
	fmt.Println(msg)
	t.Log(msg)
	known.log(t)
	failures(t, fails, 30)
}
