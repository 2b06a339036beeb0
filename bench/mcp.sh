#!/usr/bin/env bash
# mcp.sh measures what one command costs a TypeScript agent, three ways,
# side by side in one run (bench/mcp-bench.mjs): a `run` call to a
# long-lived `chainrun mcp` through the official MCP client, spawning
# `bash -c` per command, and spawning `chainrun --json` per command.
#
#   bench/mcp.sh [-n ROUNDS] [-b CHAINRUN_BINARY] [-c COMMAND]
#
# Defaults: 40 rounds of '/bin/true && /bin/true'. Without -b it builds
# ./cmd/chainrun first. Needs node and npm; the MCP client is the one the
# end-to-end test pins (mcpserver/testdata/e2e, installed with npm ci).
set -euo pipefail

rounds=40
bin=
command='/bin/true && /bin/true'
while getopts "n:b:c:" o; do
	case $o in
	n) rounds=$OPTARG ;;
	b) bin=$OPTARG ;;
	c) command=$OPTARG ;;
	*) echo "usage: $0 [-n ROUNDS] [-b CHAINRUN] [-c COMMAND]" >&2; exit 2 ;;
	esac
done
for tool in node npm bash; do
	command -v "$tool" >/dev/null || { echo "mcp.sh: $tool not found" >&2; exit 2; }
done

cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -z $bin ]]; then
	bin=$tmp/chainrun
	go build -o "$bin" ./cmd/chainrun
fi
(cd mcpserver/testdata/e2e && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
sdk=$PWD/mcpserver/testdata/e2e/node_modules/@modelcontextprotocol/sdk/dist/esm
node bench/mcp-bench.mjs "$sdk" "$bin" "$rounds" "$command"
