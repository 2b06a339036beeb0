//go:build unix

package engine

import (
	"context"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/policy"
)

// The benchmark chains; bench/compare.sh runs the same strings through
// the CLI, dash and bash.
var (
	benchTrue  = strings.Repeat("/bin/true && ", 19) + "/bin/true"
	benchPipe  = "head -c 1000000000 /dev/zero | cat | wc -c"
	benchSmall = "seq 1 300000 | grep 7 | wc -l"
	benchOr    = strings.Repeat("/bin/false || /bin/true && ", 49) + "/bin/false || /bin/true"
	benchCap   = "head -c 1000000000 /dev/zero"
)

func benchChain(b *testing.B, cmd string, opts Options, check func(*Result)) {
	c, err := chain.Parse(cmd)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := Run(ctx, c, opts)
		if err != nil {
			b.Fatal(err)
		}
		if check != nil {
			check(res)
		}
	}
}

// BenchmarkTrue20: (a) 20 × /bin/true joined by &&.
func BenchmarkTrue20(b *testing.B) {
	benchChain(b, benchTrue, Options{}, func(r *Result) {
		if r.ExitCode != 0 {
			b.Fatal(r.ExitCode)
		}
	})
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/20, "µs/segment")
}

// BenchmarkTrue20Judged: (a) under a policy, which judges the chain
// before it runs and each segment after the first again as it starts.
func BenchmarkTrue20Judged(b *testing.B) {
	pol, _, err := policy.Parse([]byte(`{"permissions": {"allow": ["Bash(/bin/true)"]}}`), "bench.json")
	if err != nil {
		b.Fatal(err)
	}
	benchChain(b, benchTrue, Options{Authorizer: pol}, func(r *Result) {
		if r.ExitCode != 0 {
			b.Fatal(r.ExitCode)
		}
	})
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/20, "µs/segment")
}

// BenchmarkRejudgeTrue is what judging one segment of BenchmarkTrue20Judged
// again as it starts costs: the policy judging /bin/true alone.
func BenchmarkRejudgeTrue(b *testing.B) {
	pol, _, err := policy.Parse([]byte(`{"permissions": {"allow": ["Bash(/bin/true)"]}}`), "bench.json")
	if err != nil {
		b.Fatal(err)
	}
	c, err := chain.ParseDialect(benchTrue, chain.POSIX)
	if err != nil {
		b.Fatal(err)
	}
	dir, err := os.Getwd()
	if err != nil {
		b.Fatal(err)
	}
	r := &runner{ctx: context.Background(), c: c, opts: Options{Authorizer: pol}, dir: dir, start: dir}
	st := &stage{res: &SegmentResult{}}
	seg := c.Pipelines[1].Segments[0]
	b.ReportAllocs()
	for b.Loop() {
		if err := r.judgeAgain(st, seg, seg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPipe1G: (b) 1 GB from head through cat into wc -c, child to
// child.
func BenchmarkPipe1G(b *testing.B) {
	b.SetBytes(1_000_000_000)
	benchChain(b, benchPipe, Options{}, func(r *Result) {
		if strings.TrimSpace(string(r.Stdout)) != "1000000000" {
			b.Fatalf("%q", r.Stdout)
		}
	})
}

// BenchmarkSmallPipeline: (c) seq 1 300000 | grep 7 | wc -l.
func BenchmarkSmallPipeline(b *testing.B) {
	benchChain(b, benchSmall, Options{}, func(r *Result) {
		if strings.TrimSpace(string(r.Stdout)) != "122853" {
			b.Fatalf("%q", r.Stdout)
		}
	})
}

// BenchmarkFalseOrTrue50: (d) 50 × (/bin/false || /bin/true) joined by &&.
func BenchmarkFalseOrTrue50(b *testing.B) {
	benchChain(b, benchOr, Options{}, func(r *Result) {
		if r.ExitCode != 0 || len(r.Segments) != 100 {
			b.Fatal(r.ExitCode)
		}
	})
}

// BenchmarkCapture1G: (e) 1 GB captured through the default 1 MiB cap;
// reports the heap in use after each run.
func BenchmarkCapture1G(b *testing.B) {
	b.SetBytes(1_000_000_000)
	var peak uint64
	benchChain(b, benchCap, Options{}, func(r *Result) {
		if r.StdoutOmitted != 1_000_000_000-DefaultMaxOutput {
			b.Fatal(r.StdoutOmitted)
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
	})
	b.ReportMetric(float64(peak)/(1<<20), "MiB-heap")
}
