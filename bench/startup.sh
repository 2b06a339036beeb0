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
# It prints the binaries' sizes and the medians and their ratio.
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

echo "CGO_ENABLED=$CGO_ENABLED; sizes: $commit $(wc -c <"$tmp/old/chainrun") bytes, $(git rev-parse --short HEAD) $(wc -c <"$tmp/new/chainrun") bytes"
"$tmp/startup" -runs "$rounds" "$tmp/old/chainrun" "$tmp/new/chainrun" "$@"
