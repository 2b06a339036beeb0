package chain

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// requote renders argv as a POSIX command line with syntax.Quote, falling
// back to single quotes for what LangPOSIX cannot quote (control
// characters such as a newline are fine inside single quotes).
func requote(args []string) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		q, err := syntax.Quote(a, syntax.LangPOSIX)
		if err != nil {
			q = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		b.WriteString(q)
	}
	return b.String()
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"seq 10 | grep 5", "a&&b", "echo a;b", "x|y", `echo 'a b' "c\"d" e\ f`,
		"A=1 cmd >out 2>&1 <in", "a |& b", "echo $(id)", "ls *.go", "cd ~",
		`dir C:\Users\me`, "echo \"a\\\nb\"", "a && && b", "# c", "echo {a,b}",
		"x 3>&1 1>&2 2>&3", "echo '日本' é", "cat <<EOF\nx\nEOF", "cat <<-'A' | b 3<<<x && c <<\\B\n\ty $z\n\tA\nw\nB",
		"echo $X \"${Y:-a b}\" ~/x a=~/y *.go {a,b} $'\\t' $((1+2))", "X=1 Y=$X cmd $X >$F <<<$H",
		"export A=$X B; unset C", "$CMD -rf x", "cat <<EOF\n$X \\$ ${Y%.go}\nEOF", "E=$? && echo ~+ ~-",
		"time -p a | b && time c 2>/dev/null", "a | time -p b $X", "time",
		"x=$(a | b; c) `d` \"$(e $(f))\" > $(g) <<< $(h)", "echo $(< f)", "cat <<E\n$(a)\nE",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, src string, windows bool) {
		d := POSIX
		if windows {
			d = Windows
		}
		c, err := ParseDialect(src, d)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error is not a *ParseError: %T %v", err, err)
			}
			if pe.Offset < 0 || pe.Offset > len(src) {
				t.Fatalf("offset %d outside input of %d bytes", pe.Offset, len(src))
			}
			_ = pe.Caret()
			return
		}
		checkSpans(t, c)
		for _, s := range c.Segments() {
			checkUnknownWords(t, src, s)
		}
		if d != POSIX {
			return
		}
		for _, s := range c.Segments() {
			if len(s.Args) == 0 {
				continue // NAME=value alone: no argv to re-quote
			}
			// A word known only at run time has no value; a placeholder keeps
			// its position, so the literal words around it are still
			// re-quoted in place.
			args := knownArgs(s)
			again, err := ParseDialect(requote(args), POSIX)
			if err != nil {
				t.Fatalf("re-quoted argv %q of %q does not parse: %v", args, src, err)
			}
			if got := again.Segments(); len(got) != 1 || !reflect.DeepEqual(got[0].Args, args) {
				t.Fatalf("round trip of %q: got %q, want %q", src, argvs(again), args)
			}
		}
	})
}

// unknownPlaceholder stands in for an unknown word in a re-quoted argv.
const unknownPlaceholder = "UNKNOWN"

// knownArgs returns a segment's args with each word known only at run
// time replaced by the placeholder.
func knownArgs(s *Segment) []string {
	argv := s.Argv()
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = a.Text
		if a.Runtime {
			out[i] = unknownPlaceholder
		}
	}
	return out
}

// checkUnknownWords asserts that a parsed segment's Args are its Words'
// fields, that exactly the expanding words are unknown before expansion,
// and that no literal word holds the unknown mark.
func checkUnknownWords(t *testing.T, src string, s *Segment) {
	t.Helper()
	var fields []string
	for _, w := range s.Words {
		if len(w.Fields) != 1 {
			t.Fatalf("%q: word %q has %d fields before expansion", src, w.Fields, len(w.Fields))
		}
		if w.Runtime != w.Expands {
			t.Fatalf("%q: word %q: runtime %v, expands %v", src, w.Fields[0], w.Runtime, w.Expands)
		}
		if strings.ContainsRune(w.Fields[0], 0) {
			t.Fatalf("%q: word %q holds a NUL", src, w.Fields[0])
		}
		fields = append(fields, w.Fields...)
	}
	if !reflect.DeepEqual(fields, []string(s.Args)) && (len(fields) > 0 || len(s.Args) > 0) {
		t.Fatalf("%q: Args %q are not the words' fields %q", src, s.Args, fields)
	}
	for _, a := range s.Assigns {
		if a.Runtime != a.Expands() {
			t.Fatalf("%q: assignment %s=%q: runtime %v, expands %v", src, a.Name, a.Value, a.Runtime, a.Expands())
		}
	}
	for _, r := range s.Redirects {
		if r.Runtime != r.Expands() {
			t.Fatalf("%q: redirect %s%q: runtime %v, expands %v", src, r.Op, r.Target, r.Runtime, r.Expands())
		}
	}
}

// chainOf builds a chain of n segments mixing quoting, operators and a
// redirect, the shape agents send.
func chainOf(n int) string {
	parts := []string{`git status --short`, `grep -v 'vendor/' `, `go test ./... -run "TestX|TestY"`,
		`echo done > out.log 2>&1`, `A=1 make -C build`}
	ops := []string{" | ", " && ", " || ", " ; "}
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(ops[i%len(ops)])
		}
		b.WriteString(parts[i%len(parts)])
	}
	return b.String()
}

// BenchmarkParse compares chainrun's parse plus lowering with mvdan's
// bare parse of the same string; the target is at most 1.5 × of it.
func BenchmarkParse(b *testing.B) {
	for _, n := range []int{1, 10, 50} {
		src := chainOf(n)
		b.Run(benchName("chainrun", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ParseDialect(src, POSIX); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(benchName("mvdan", n), func(b *testing.B) {
			b.ReportAllocs()
			p := syntax.NewParser(syntax.Variant(syntax.LangBash))
			for b.Loop() {
				if _, err := p.Parse(strings.NewReader(src), ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func benchName(who string, n int) string {
	return fmt.Sprintf("%s/segments=%d", who, n)
}

// BenchmarkParseRatio alternates small batches of chainrun's parse and
// mvdan's bare parse of the same string and reports their time ratio, so
// that load on a shared machine weighs on both sides alike.
func BenchmarkParseRatio(b *testing.B) {
	for _, n := range []int{1, 10, 50} {
		src := chainOf(n)
		b.Run(fmt.Sprintf("segments=%d", n), func(b *testing.B) {
			p := syntax.NewParser(syntax.Variant(syntax.LangBash))
			const batch = 50
			var ours, theirs time.Duration
			for b.Loop() {
				t0 := time.Now()
				for range batch {
					if _, err := ParseDialect(src, POSIX); err != nil {
						b.Fatal(err)
					}
				}
				t1 := time.Now()
				for range batch {
					if _, err := p.Parse(strings.NewReader(src), ""); err != nil {
						b.Fatal(err)
					}
				}
				ours += t1.Sub(t0)
				theirs += time.Since(t1)
			}
			b.ReportMetric(float64(ours)/float64(theirs), "x-mvdan")
		})
	}
}
