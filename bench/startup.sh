#!/usr/bin/env bash
# startup.sh times `chainrun true` (chainrun's whole cost for a chain that
# only starts one program) for this checkout against another commit, by
# default 128a056, the last one before the MCP server was linked in, both
# built here in one sitting and timed interleaved by bench/startup.
#
#   bench/startup.sh [-n ROUNDS] [-c COMMIT] [-- ARGS...]
#
# Both are built with CGO_ENABLED=0, as the release binaries are and as go
# install builds them where no C compiler is found; set CGO=1 to build
# them as go install does where one is: chainrun then links the C library
# dynamically (os/user, imported by mvdan.cc/sh/v3/expand), and every
# start pays the dynamic loader, which 128a056, without os/user, did not.
# It prints the binaries' sizes and package initialisers
# (GODEBUG=inittrace=1), then the medians and their ratio; where valgrind
# is installed, also the instructions each start runs (callgrind, median
# of 9 runs with GOMAXPROCS=1, which the machine's load does not move),
# and where perf is, the minor page faults (mean of 200 runs).
set -euo pipefail

rounds=400
commit=128a056
while getopts "n:c:" o; do
	case $o in
	n) rounds=$OPTARG ;;
	c) commit=$OPTARG ;;
	*) echo "usage: $0 [-n ROUNDS] [-c COMMIT] [-- ARGS...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))

cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CGO_ENABLED=${CGO:-0}
mkdir "$tmp/old-src"
git archive "$commit" | tar -x -C "$tmp/old-src"
(cd "$tmp/old-src" && go build -o "$tmp/old.built" ./cmd/chainrun)
go build -o "$tmp/new.built" ./cmd/chainrun
go build -o "$tmp/startup" ./bench/startup
# Time copies written with write(2), as an installed binary is: one run
# from the pages the linker wrote through mmap starts 0.25-0.3 ms slower
# (docs/benchmarks.md).
mkdir "$tmp/old" "$tmp/new"
cat "$tmp/old.built" >"$tmp/old/chainrun"
cat "$tmp/new.built" >"$tmp/new/chainrun"
chmod +x "$tmp/old/chainrun" "$tmp/new/chainrun"

args=("$@")
[ ${#args[@]} -gt 0 ] || args=(true)
inits() { GODEBUG=inittrace=1 "$1" "${args[@]}" 2>&1 >/dev/null | grep -c '^init '; }
# instructions: the median of 9 callgrind counts; a run valgrind cannot
# finish (it lacks some instructions Go's runtime may use) is dropped.
instructions() {
	for _ in 1 2 3 4 5 6 7 8 9; do
		out=$(GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
			"$1" "${args[@]}" 2>&1 >/dev/null) || continue
		printf '%s\n' "$out" | awk '/refs:/ { gsub(",", "", $4); print $4 }'
	done | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}
faults() { perf stat -x, -e minor-faults -r 200 "$1" "${args[@]}" 2>&1 >/dev/null | cut -d, -f1; }
for b in old new; do
	name=$commit
	[ $b = old ] || name=$(git rev-parse --short HEAD)
	line="$b $name: $(wc -c <"$tmp/$b/chainrun") bytes, $(inits "$tmp/$b/chainrun") initialisers"
	command -v valgrind >/dev/null && line="$line, $(instructions "$tmp/$b/chainrun") instructions"
	command -v perf >/dev/null && line="$line, $(faults "$tmp/$b/chainrun") minor faults"
	echo "$line"
done
echo "CGO_ENABLED=$CGO_ENABLED"
"$tmp/startup" -runs "$rounds" "$tmp/old/chainrun" "$tmp/new/chainrun" "$@"
