#!/usr/bin/env bash
# compare.sh runs the benchmark chains through the chainrun CLI, dash and
# bash, alternating the three, and prints median times and ratios.
#
#   bench/compare.sh [-n ROUNDS] [-b CHAINRUN_BINARY]
#
# With hyperfine installed, every round is one hyperfine call per chain
# (-N, 3 runs per command, the command order rotated between rounds), and
# the table reports the median of the per-round medians. Without it, the
# script times single runs itself (date +%s%N), alternating the shells.
# The CLI binary defaults to `chainrun` on PATH; build it with
#   go build -o /tmp/chainrun ./cmd/chainrun && bench/compare.sh -b /tmp/chainrun
set -euo pipefail

rounds=7
bin=chainrun
while getopts "n:b:" o; do
	case $o in
	n) rounds=$OPTARG ;;
	b) bin=$OPTARG ;;
	*) echo "usage: $0 [-n ROUNDS] [-b CHAINRUN]" >&2; exit 2 ;;
	esac
done
command -v "$bin" >/dev/null || { echo "compare.sh: $bin not found" >&2; exit 2; }

repeat() { # repeat N SEP WORD
	local out=$3 i
	for ((i = 1; i < $1; i++)); do out+="$2$3"; done
	printf '%s' "$out"
}

names=(
	"a: 20 × /bin/true &&"
	"b: head -c 1e9 /dev/zero | cat | wc -c"
	"c: seq 1 300000 | grep 7 | wc -l"
	"d: 50 × /bin/false || /bin/true &&"
)
chains=(
	"$(repeat 20 ' && ' /bin/true)"
	"head -c 1000000000 /dev/zero | cat | wc -c"
	"seq 1 300000 | grep 7 | wc -l"
	"$(repeat 50 ' && ' '/bin/false || /bin/true')"
)
shells=(chainrun dash bash)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmdline() { # cmdline SHELL CHAIN -> argv to run
	case $1 in
	chainrun) printf '%s\n' "$bin" "$2" ;;
	*) printf '%s\n' "$1" -c "$2" ;;
	esac
}

now_ns() { date +%s%N; }

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for i in "${!chains[@]}"; do
	chain=${chains[$i]}
	for sh in "${shells[@]}"; do : >"$tmp/$i.$sh"; done
	for ((r = 0; r < rounds; r++)); do
		order=("${shells[@]:r%3}" "${shells[@]:0:r%3}")
		if command -v hyperfine >/dev/null; then
			args=()
			for sh in "${order[@]}"; do
				mapfile -t argv < <(cmdline "$sh" "$chain")
				q=$(printf '%q ' "${argv[@]}")
				args+=(-n "$sh" "$q")
			done
			hyperfine -N --warmup 1 --runs 3 --style none --export-csv "$tmp/round.csv" "${args[@]}" >/dev/null 2>&1
			# columns: command,mean,stddev,median,user,system,min,max
			tail -n +2 "$tmp/round.csv" | while IFS=, read -r name _ _ med _; do
				echo "$med" >>"$tmp/$i.$name"
			done
		else
			for sh in "${order[@]}"; do
				mapfile -t argv < <(cmdline "$sh" "$chain")
				t0=$(now_ns)
				"${argv[@]}" >/dev/null
				t1=$(now_ns)
				echo "$(((t1 - t0)))e-9" | awk '{ printf "%.9f\n", $1 }' >>"$tmp/$i.$sh"
			done
		fi
	done
done

echo "| workload | chainrun | dash | bash | chainrun/dash | chainrun/bash |"
echo "|---|---|---|---|---|---|"
for i in "${!chains[@]}"; do
	c=$(median <"$tmp/$i.chainrun")
	d=$(median <"$tmp/$i.dash")
	b=$(median <"$tmp/$i.bash")
	if [[ $i == 1 ]]; then # throughput: 1e9 bytes
		awk -v n="${names[$i]//|/\\|}" -v c="$c" -v d="$d" -v b="$b" 'BEGIN {
			printf "| %s | %.2f GB/s | %.2f GB/s | %.2f GB/s | %.2f× dash rate | %.2f× bash rate |\n", n, 1/c, 1/d, 1/b, d/c, b/c }'
	else
		awk -v n="${names[$i]//|/\\|}" -v c="$c" -v d="$d" -v b="$b" 'BEGIN {
			printf "| %s | %.2f ms | %.2f ms | %.2f ms | %.2f | %.2f |\n", n, c*1000, d*1000, b*1000, c/d, c/b }'
	fi
done
