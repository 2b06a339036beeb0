// Command startup times the start of two builds of chainrun on the same
// command line, interleaved round by round (the order alternating) so the
// machine's load weighs on both alike, and prints each build's median,
// the ratio of the medians and the middle half of the per-round ratios.
//
//	go run ./bench/startup -runs 400 OLD NEW [-- ARGS...]
//
// ARGS default to `true`: chainrun's whole cost for a chain that does
// nothing but start one program. bench/startup.sh builds the two binaries.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"time"
)

func main() {
	runs := flag.Int("runs", 400, "rounds; each runs both binaries once")
	flag.Parse()
	if flag.NArg() < 2 {
		fmt.Fprintln(os.Stderr, "usage: startup [-runs N] OLD NEW [ARGS...]")
		os.Exit(2)
	}
	bins, args := flag.Args()[:2], flag.Args()[2:]
	if len(args) == 0 {
		args = []string{"true"}
	}
	times, err := measure(bins, args, *runs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "startup:", err)
		os.Exit(1)
	}
	report(bins, args, times)
}

// measure runs both binaries once per round, the first of the pair
// alternating, after a few rounds of warming the page cache.
func measure(bins, args []string, runs int) ([2][]time.Duration, error) {
	var times [2][]time.Duration
	for r := -10; r < runs; r++ {
		for k := range 2 {
			i := (r + k) & 1
			d, err := once(bins[i], args)
			if err != nil {
				return times, err
			}
			if r >= 0 {
				times[i] = append(times[i], d)
			}
		}
	}
	return times, nil
}

// once times one start of bin, from the spawn to the end of the wait.
func once(bin string, args []string) (time.Duration, error) {
	cmd := exec.Command(bin, args...)
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%s %q: %v", bin, args, err)
	}
	return time.Since(start), nil
}

func report(bins, args []string, times [2][]time.Duration) {
	ratios := make([]float64, len(times[0]))
	for i := range ratios {
		ratios[i] = float64(times[1][i]) / float64(times[0][i])
	}
	slices.Sort(ratios)
	m0, m1 := median(times[0]), median(times[1])
	fmt.Printf("%q, %d rounds\n", args, len(ratios))
	fmt.Printf("  old %-40s median %v\n", bins[0], m0.Round(time.Microsecond))
	fmt.Printf("  new %-40s median %v\n", bins[1], m1.Round(time.Microsecond))
	fmt.Printf("  new/old: %.3f (ratio of the medians); per-round ratios, middle half: %.3f-%.3f\n",
		float64(m1)/float64(m0), ratios[len(ratios)/4], ratios[len(ratios)*3/4])
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
