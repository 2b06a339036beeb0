//go:build unix

package differential

import "testing"

// timeRuns are chains with bash's time keyword. The report's figures vary
// from run to run, so stderr compares with every number read alike
// (stderrTimes): the report's shape, its place among the other lines and
// bash's errors about TIMEFORMAT still have to match.
var timeRuns = []string{
	`time ls`,
	`time ls nonexistent 2>/dev/null; echo $?`,
	`time ls nonexistent 2>err.txt; cat err.txt`,
	`time -p true`,
	`time false | true; echo $?`,
	`time true | false; echo $?`,
	`time seq 3 | wc -l`,
	`time cat a.txt | sort -r && echo sorted`,
	`time echo a >out.txt; cat out.txt`,
	`false && time echo no; time echo yes`,
	`time exit 3`,
	`time echo a | exit 4; echo $?`,
	`TIMEFORMAT='[%R %U %S %P]'; time true`,
	`TIMEFORMAT='%3lR|%2R|%0U|%1S|%lE|%9R|%%|tail%'; time true`,
	`TIMEFORMAT=; time echo quiet`,
	`TIMEFORMAT=%q; time echo x`,
	`TIMEFORMAT=%l3R; time echo x`,
	`TIMEFORMAT=%R; time -p echo x`,
	`export TIMEFORMAT=%U; time true; sh -c 'echo "$TIMEFORMAT"'`,
	`TIMEFORMAT=%S; unset TIMEFORMAT; time true`,
	`TIMEFORMAT='%R' time true 2>/dev/null; echo $?`,
	`echo time; echo a | time cat; echo $?`,
}

// TestTimeDifferentialTable runs the chains with time under bash and
// chainrun and compares stdout, status, files and the shape of stderr.
func TestTimeDifferentialTable(t *testing.T) {
	runSuite(t, "time table", 0, len(timeRuns), stderrTimes, func(i int) runCase { return runCase{Src: timeRuns[i]} })
}
