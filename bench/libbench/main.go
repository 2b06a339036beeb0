// Command libbench measures the benchmark chains through the engine
// library, side by side with dash and bash started the way a program
// would start them (exec of "dash -c CHAIN"), alternating the three in
// every round and reporting medians and ratios.
//
//	go run ./bench/libbench -runs 20
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

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
	runs := flag.Int("runs", 15, "rounds per workload (each round runs library, dash and bash once)")
	only := flag.String("only", "", "run only workloads whose name starts with this letter")
	flag.Parse()
	fmt.Printf("| workload | library | dash -c | bash -c | library/dash | library/bash |\n|---|---|---|---|---|---|\n")
	for _, w := range workloads() {
		if *only != "" && !strings.HasPrefix(w.name, *only) {
			continue
		}
		runs := *runs
		if w.bytes > 0 {
			runs = max(3, runs/3)
		}
		var lib, dash, bash []time.Duration
		for i := 0; i < runs+1; i++ {
			order := []int{0, 1, 2}
			for k := 0; k < i%3; k++ { // rotate who goes first
				order = append(order[1:], order[0])
			}
			for _, o := range order {
				var d time.Duration
				switch o {
				case 0:
					d = timeLibrary(w.cmd)
				case 1:
					d = timeShell("dash", w.cmd)
				case 2:
					d = timeShell("bash", w.cmd)
				}
				if i == 0 {
					continue // warm-up round
				}
				switch o {
				case 0:
					lib = append(lib, d)
				case 1:
					dash = append(dash, d)
				case 2:
					bash = append(bash, d)
				}
			}
		}
		ml, md, mb := median(lib), median(dash), median(bash)
		cell := func(d time.Duration) string {
			if w.bytes > 0 {
				return fmt.Sprintf("%.2f GB/s", w.bytes/d.Seconds()/1e9)
			}
			return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000)
		}
		if w.bytes > 0 { // throughput: ratio of rates
			fmt.Printf("| %s | %s | %s | %s | %.2f× dash's rate | %.2f× bash's rate |\n", w.name, cell(ml), cell(md), cell(mb),
				md.Seconds()/ml.Seconds(), mb.Seconds()/ml.Seconds())
			continue
		}
		fmt.Printf("| %s | %s | %s | %s | %.2f | %.2f |\n", w.name, cell(ml), cell(md), cell(mb),
			ml.Seconds()/md.Seconds(), ml.Seconds()/mb.Seconds())
	}
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

func timeShell(sh, cmd string) time.Duration {
	c := exec.Command(sh, "-c", cmd)
	start := time.Now()
	out, err := c.Output()
	d := time.Since(start)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v %s\n", sh, err, out)
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
