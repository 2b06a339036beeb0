// Command libbench measures the benchmark chains through the engine
// library, side by side with dash and bash started the way a program
// would start them (exec of "dash -c CHAIN"), alternating the three in
// every round and reporting medians and ratios.
//
//	go run ./bench/libbench -runs 20
//
// With -cli it measures the chainrun binary instead of the library, each
// run an exec of "BINARY CHAIN" exactly as the shells are started:
//
//	go build -o /tmp/chainrun ./cmd/chainrun && go run ./bench/libbench -cli /tmp/chainrun
//
// With -bare it runs the sequential workloads with nothing but
// syscall.ForkExec and Wait4 per segment, the floor under the library.
//
// Besides the ratio of the medians it prints the middle half (quartiles)
// of the per-round ratios, which shows how far the machine's noise moves
// the figure: the rounds alternate the contenders, so a slow spell of the
// machine slows all three alike.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
)

type workload struct {
	name, cmd string
	bytes     float64 // for throughput lines
}

func workloads() []workload {
	return []workload{
		{"a: 20 × `/bin/true` &&", strings.Repeat("/bin/true && ", 19) + "/bin/true", 0},
		{"b: `head -c 1e9 \\| cat \\| wc -c`", "head -c 1000000000 /dev/zero | cat | wc -c", 1e9},
		{"c: `seq 1 300000 \\| grep 7 \\| wc -l`", "seq 1 300000 | grep 7 | wc -l", 0},
		{"d: 50 × `/bin/false \\|\\| /bin/true` &&", strings.Repeat("/bin/false || /bin/true && ", 49) + "/bin/false || /bin/true", 0},
	}
}

func main() {
	runs := flag.Int("runs", 15, "rounds per workload (each round runs chainrun, dash and bash once)")
	only := flag.String("only", "", "run only workloads whose name starts with this letter")
	cli := flag.String("cli", "", "measure this chainrun binary instead of the library")
	bare := flag.Bool("bare", false, "measure bare Go fork/exec of the segments instead of the library (sequential chains only)")
	flag.Parse()
	who := "library"
	timeChainrun := timeLibrary
	switch {
	case *bare:
		who = "bare Go spawn"
		timeChainrun = timeBare
	case *cli != "":
		bin, cleanup := copyBinary(*cli)
		defer cleanup()
		who = "chainrun CLI"
		timeChainrun = func(cmd string) time.Duration { return timeCommand(bin, cmd) }
	}
	fmt.Printf("| workload | %s | dash -c | bash -c | %s/dash (middle half of rounds) | %s/bash |\n|---|---|---|---|---|---|\n", who, who, who)
	for _, w := range workloads() {
		if *only != "" && !strings.HasPrefix(w.name, *only) {
			continue
		}
		if *bare && !sequential(w.cmd) {
			continue
		}
		runs := *runs
		if w.bytes > 0 {
			runs = max(3, runs/3)
		}
		var t [3][]time.Duration // chainrun, dash, bash
		for i := 0; i < runs+1; i++ {
			for k := range 3 {
				o := (i + k) % 3 // rotate who goes first
				var d time.Duration
				switch o {
				case 0:
					d = timeChainrun(w.cmd)
				case 1:
					d = timeCommand("dash", "-c", w.cmd)
				case 2:
					d = timeCommand("bash", "-c", w.cmd)
				}
				if i > 0 { // round 0 warms up
					t[o] = append(t[o], d)
				}
			}
		}
		fmt.Println(row(w, t))
	}
}

// row formats one workload's medians and ratios. For throughput workloads
// the ratios are of rates (higher is better for chainrun), otherwise of
// times (lower is better).
func row(w workload, t [3][]time.Duration) string {
	mc, md, mb := median(t[0]), median(t[1]), median(t[2])
	lo, hi := quartiles(roundRatios(t[0], t[1]))
	if w.bytes > 0 {
		rate := func(d time.Duration) string { return fmt.Sprintf("%.2f GB/s", w.bytes/d.Seconds()/1e9) }
		return fmt.Sprintf("| %s | %s | %s | %s | %.2f× dash's rate (%.2f-%.2f) | %.2f× bash's rate |", w.name,
			rate(mc), rate(md), rate(mb), md.Seconds()/mc.Seconds(), 1/hi, 1/lo, mb.Seconds()/mc.Seconds())
	}
	ms := func(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }
	return fmt.Sprintf("| %s | %s | %s | %s | %.2f (%.2f-%.2f) | %.2f |", w.name, ms(mc), ms(md), ms(mb),
		mc.Seconds()/md.Seconds(), lo, hi, mc.Seconds()/mb.Seconds())
}

// roundRatios divides each round's chainrun time by the same round's.
func roundRatios(a, b []time.Duration) []float64 {
	r := make([]float64, min(len(a), len(b)))
	for i := range r {
		r[i] = a[i].Seconds() / b[i].Seconds()
	}
	return r
}

// quartiles returns the first and third quartile of v.
func quartiles(v []float64) (float64, float64) {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s) == 0 {
		return 0, 0
	}
	return s[len(s)/4], s[(3*len(s))/4]
}

func timeLibrary(cmd string) time.Duration {
	start := time.Now()
	res, err := engine.RunString(context.Background(), cmd, engine.Options{})
	d := time.Since(start)
	if err != nil || res.ExitCode != 0 {
		fmt.Fprintf(os.Stderr, "library: %v %v\n", err, res)
		os.Exit(1)
	}
	return d
}

// sequential reports whether every pipeline of cmd is one segment, the
// chains -bare can run.
func sequential(cmd string) bool {
	c, err := chain.Parse(cmd)
	if err != nil {
		return false
	}
	for _, p := range c.Pipelines {
		if len(p.Segments) != 1 {
			return false
		}
	}
	return true
}

// copyBinary copies the chainrun binary to a temporary file and returns
// its path. The Go linker writes its output through a memory mapping, and
// a program run from pages written that way started 0.25-0.3 ms slower on
// the benchmark machine than the same bytes copied with a plain write, as
// an installed binary would be: measured on the copy, the figure is what
// users get rather than an artefact of the build.
func copyBinary(path string) (string, func()) {
	b, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	dir, err := os.MkdirTemp("", "chainrun-bench")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	bin := filepath.Join(dir, "chainrun")
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	return bin, func() { os.RemoveAll(dir) }
}

// timeCommand runs a program the way an agent would start a shell, with
// its output read into memory, and returns the wall time.
func timeCommand(name string, args ...string) time.Duration {
	c := exec.Command(name, args...)
	start := time.Now()
	out, err := c.Output()
	d := time.Since(start)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v %s\n", name, err, out)
		os.Exit(1)
	}
	return d
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
