#!/usr/bin/env bash
# compare.sh measures the benchmark chains (a)-(d) through the chainrun CLI
# and through the engine library, each side by side with dash and bash,
# and prints one table for each, then a third for the sequential chains
# started by nothing but syscall.ForkExec and Wait4: what any Go program
# pays, the floor under the other two.
#
#   bench/compare.sh [-n ROUNDS] [-b CHAINRUN_BINARY] [-o LETTER]
#
# Without -b it builds ./cmd/chainrun first. The measuring is done by
# bench/libbench: every round runs chainrun, dash and bash once each, the
# order rotated between rounds, and each table gives the medians, the
# ratio of the medians and the middle half of the per-round ratios, which
# shows how far the machine's noise moves the figure. The CLI is timed on
# a copy of the binary (see copyBinary in bench/libbench).
set -euo pipefail

rounds=40
bin=
only=
while getopts "n:b:o:" o; do
	case $o in
	n) rounds=$OPTARG ;;
	b) bin=$OPTARG ;;
	o) only=$OPTARG ;;
	*) echo "usage: $0 [-n ROUNDS] [-b CHAINRUN] [-o LETTER]" >&2; exit 2 ;;
	esac
done
for sh in dash bash; do
	command -v "$sh" >/dev/null || { echo "compare.sh: $sh not found" >&2; exit 2; }
done

cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -z $bin ]]; then
	bin=$tmp/chainrun
	go build -o "$bin" ./cmd/chainrun
fi
go build -o "$tmp/libbench" ./bench/libbench

echo "Through the CLI ($rounds rounds):"
"$tmp/libbench" -runs "$rounds" -only "$only" -cli "$bin"
echo
echo "Through the library ($rounds rounds):"
"$tmp/libbench" -runs "$rounds" -only "$only"
echo
echo "Bare Go fork/exec of the same segments, the floor under the library ($rounds rounds):"
"$tmp/libbench" -runs "$rounds" -only "$only" -bare
