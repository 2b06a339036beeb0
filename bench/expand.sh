#!/usr/bin/env bash
# expand.sh compares the cost of expanding the ten-segment chain of
# expand/bench_expand_test.go (variables, $?, defaults, tilde, braces,
# arithmetic, two globs over a directory of 1,000 files) in chainrun's
# plan (parse + lower + Chain.Expand, BenchmarkExpandChain) with bash
# expanding the same words, in one bash process, in a loop (no fork, no
# parse after the first: bash's floor). Both run in the same directory of
# 1,000 files, side by side, ROUNDS times, and the medians are printed
# with their ratio.
#
#   bench/expand.sh [-n ROUNDS]
set -euo pipefail

rounds=5
while getopts "n:" o; do
	case $o in
	n) rounds=$OPTARG ;;
	*) echo "usage: $0 [-n ROUNDS]" >&2; exit 2 ;;
	esac
done
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for i in $(seq 0 999); do
	if ((i % 2)); then : >"$tmp/f$(printf %04d "$i").txt"; else : >"$tmp/f$(printf %04d "$i").go"; fi
done
go test -c -o "$tmp/expand.test" ./expand/ >/dev/null

# The words of benchChain, expanded as bash expands them (assignments,
# then each command's argv into an array), 1,000 times.
bashloop='export NODE_ENV=test; OUT=build; HOME=/home/me
for ((i = 0; i < 1000; i++)); do
	a=(ls -la *.go); a=(echo "$HOME/x" ${MISSING:-def} ~/bin); a=(cp -r src/{a,b} "$OUT")
	a=(make test); a=(echo "status $?"); a=(wc -l *.txt); a=(echo $((1+2))); a=(cd "$OUT"); a=(ls)
	a=(printf "%s\n" "$NODE_ENV")
done'

crun=() bsh=()
for ((r = 0; r < rounds; r++)); do
	ns=$(cd "$tmp" && "$tmp/expand.test" -test.run XXX -test.bench 'ExpandChain$' -test.benchtime 200x |
		awk '/^BenchmarkExpandChain/ {print $3}')
	start=$(date +%s%N)
	(cd "$tmp" && bash -c "$bashloop")
	end=$(date +%s%N)
	crun+=("$ns")
	bsh+=("$(((end - start) / 1000))")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
c=$(median "${crun[@]}")
b=$(median "${bsh[@]}")
printf 'chainrun plan (parse + lower + expand): %8.1f µs per chain\n' "$(echo "$c / 1000" | bc -l)"
printf 'bash expanding the same words:          %8.1f µs per chain\n' "$(echo "$b / 1000" | bc -l)"
printf 'ratio chainrun / bash:                  %8.2f\n' "$(echo "$c / 1000 / ($b / 1000)" | bc -l)"
