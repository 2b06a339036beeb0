package expand

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
)

// benchChain is ten segments of what agents write with expansions: chain
// variables, $?, defaults, tilde, braces, arithmetic and a glob over the
// 1,000-file directory of benchShell.
const benchChain = `export NODE_ENV=test && OUT=build; ls -la *.go; echo "$HOME/x" ${MISSING:-def} ~/bin; ` +
	`cp -r src/{a,b} "$OUT"; make test; echo "status $?"; wc -l *.txt; echo $((1+2)); cd "$OUT" && ls; printf '%s\n' "$NODE_ENV"`

// benchShell is a shell in a directory of 1,000 files (500 .go, 500 .txt).
func benchShell(b *testing.B) *Shell {
	dir := testprog.TempDir(b)
	for i := range 1000 {
		ext := ".go"
		if i%2 == 1 {
			ext = ".txt"
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d%s", i, ext)), nil, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return &Shell{Env: []string{"HOME=/home/me", "PATH=/usr/bin:/bin", "PWD=" + dir}, Dir: dir, Rules: POSIXRules}
}

// BenchmarkExpandChain: parse, lower and plan (expand every segment as of
// now) the ten-segment chain; the two globs each list the directory.
func BenchmarkExpandChain(b *testing.B) {
	sh := benchShell(b)
	b.ReportAllocs()
	for b.Loop() {
		c, err := chain.ParseDialect(benchChain, chain.POSIX)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Plan(c, sh); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseChain is the parse and lowering alone, for the ratio.
func BenchmarkParseChain(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := chain.ParseDialect(benchChain, chain.POSIX); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExpandSegment: one segment with two variables and a default,
// expanded as the runner does just before it starts.
func BenchmarkExpandSegment(b *testing.B) {
	sh := benchShell(b)
	c, err := chain.ParseDialect(`echo "$HOME/x" ${MISSING:-def} $PATH`, chain.POSIX)
	if err != nil {
		b.Fatal(err)
	}
	seg := c.Pipelines[0].Segments[0]
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Segment(seg, sh); err != nil {
			b.Fatal(err)
		}
	}
}
