#!/usr/bin/env bash
# Wine tier: runs the Windows build of the whole test suite (go test ./...)
# under Wine (Debian's wine64), so job objects, CreateProcess, PATHEXT
# lookups against real files, batch-file quoting, cmd.exe built-ins and the
# policy's Windows paths are exercised on every Linux CI run. What Wine
# cannot show (cmd's % semantics, %~1, Ctrl+Break, PowerShell, real code
# pages, symbolic links) is skipped inside the tests through
# testprog.SkipUnderWine, with a reason, and runs in the native Windows job
# of the matrix; the skips are listed at the end.
#
# Needs: wine (or wine64), x86_64-w64-mingw32-gcc, go. Idempotent: the
# prefix and the shim are built once and reused.
#
# Environment:
#   CHAINRUN_WINE_DIR   where the private prefix lives (default: a per-user
#                       directory under ${TMPDIR:-/tmp})
#   WINE_TIER_PKGS      packages to test (default: ./..., the whole suite)
#   WINE_TIER_RUN       optional -run pattern
#   WINE_TIER_SKIPS     optional file the list of Wine skips is written to
set -euo pipefail

cd "$(dirname "$0")/.."
export PATH=/usr/local/go/bin:$PATH

dir=${CHAINRUN_WINE_DIR:-${TMPDIR:-/tmp}/chainrun-wine-$(id -u)}
mkdir -p "$dir/bin"
export WINEPREFIX="$dir/prefix"
export WINEDEBUG=-all
export WINEDLLOVERRIDES="mscoree,mshtml=" # no Mono/Gecko install dialogs

# Prefer the 64-bit loader directly: the `wine` wrapper prints a wine32
# warning on every start when i386 multiarch is absent.
winebin=""
for c in /usr/lib/wine/wine64 "$(command -v wine64 || true)" "$(command -v wine || true)"; do
	if [ -n "$c" ] && [ -x "$c" ]; then winebin=$c; break; fi
done
if [ -z "$winebin" ]; then
	echo "wine-tier: SKIP: wine is not installed" >&2
	exit 0
fi
if ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
	echo "wine-tier: FAIL: x86_64-w64-mingw32-gcc is missing (apt install gcc-mingw-w64-x86-64)" >&2
	exit 1
fi

start=$(date +%s)

# Setup is serialised between concurrent runs sharing the directory.
exec 9>"$dir/setup.lock"
if command -v flock >/dev/null; then flock 9; fi

# 1. The prefix.
if [ ! -f "$WINEPREFIX/system.reg" ]; then
	echo "wine-tier: creating prefix $WINEPREFIX"
	"$winebin" wineboot -i >/dev/null 2>&1
	if command -v wineserver >/dev/null; then wineserver -w; fi
fi

# 2. Go >= 1.22 programs need bcryptprimitives!ProcessPrng, which Wine 8
# lacks: a shim that forwards to advapi32!SystemFunction036 (RtlGenRandom).
sys32="$WINEPREFIX/drive_c/windows/system32"
if [ ! -f "$sys32/bcryptprimitives.dll" ] || [ "$0" -nt "$sys32/bcryptprimitives.dll" ]; then
	cat >"$dir/shim.c" <<'C'
#include <windows.h>
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
C
	x86_64-w64-mingw32-gcc -O2 -shared -o "$dir/bcryptprimitives.dll" "$dir/shim.c" -ladvapi32
	cp "$dir/bcryptprimitives.dll" "$sys32/bcryptprimitives.dll.tmp"
	mv "$sys32/bcryptprimitives.dll.tmp" "$sys32/bcryptprimitives.dll"
fi

# 3. cmd/go runs GOOS=windows test binaries through go_windows_amd64_exec.
cat >"$dir/bin/go_windows_amd64_exec.tmp" <<SH
#!/bin/sh
exec "$winebin" "\$@"
SH
chmod +x "$dir/bin/go_windows_amd64_exec.tmp"
mv "$dir/bin/go_windows_amd64_exec.tmp" "$dir/bin/go_windows_amd64_exec"
exec 9>&-
export PATH="$dir/bin:$PATH"

# 4. The whole tree must vet for Windows (cheap, and it catches code the
# packages under test do not import).
vetrc=0
GOOS=windows GOARCH=amd64 go vet ./... || vetrc=$?

# 5. The tests.
pkgs=${WINE_TIER_PKGS:-"./..."}
run=()
if [ -n "${WINE_TIER_RUN:-}" ]; then run=(-run "$WINE_TIER_RUN"); fi
log=$(mktemp "$dir/run-XXXXXX.log")
ln -sf "$log" "$dir/last.log"
echo "wine-tier: $("$winebin" --version 2>/dev/null), $(go version | cut -d' ' -f3), packages: $pkgs"
set +e
# shellcheck disable=SC2086
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go test -count=1 -v "${run[@]}" $pkgs >"$log" 2>&1
rc=$?
set -e
# The prefix's wineserver exits by itself a few seconds after its last
# process; it is left alone so concurrent runs on the prefix are safe.

grep -E '^(ok|FAIL|--- FAIL|panic:|\?)' "$log" || true
skips=$(grep -oE 'Wine [0-9.]+: .*' "$log" | sed -E 's/^Wine [0-9.]+: /  /' | sort | uniq -c || true)
echo "wine-tier: skipped under Wine (they run on native Windows):"
echo "$skips"
if [ -n "${WINE_TIER_SKIPS:-}" ]; then printf '%s\n' "$skips" >"$WINE_TIER_SKIPS"; fi
pass=$(grep -c -- '--- PASS' "$log" || true)
fail=$(grep -c -- '--- FAIL' "$log" || true)
skip=$(grep -c -- '--- SKIP' "$log" || true)
echo "wine-tier: $pass passed, $fail failed, $skip skipped (incl. subtests) in $(( $(date +%s) - start ))s; log: $log"

# Wine's process creation fails now and then under load ("CreateProcess:
# Internal error", "Test I/O incomplete"). The packages that failed are
# run once more, and only they: with just the failed top-level tests when
# each failure was a test's, whole when one ended with Test I/O
# incomplete or a panic. What passes then is reported as flaky under Wine
# by name; what fails again fails the tier.
if [ $rc -ne 0 ] && ! grep -q '\[build failed\]' "$log"; then
	failed_pkgs=$(grep -E '^FAIL[[:space:]]+[^[:space:]]+[[:space:]]' "$log" | awk '{print $2}' | sort -u | tr '\n' ' ')
	failed=$(grep -oE '^--- FAIL: [A-Za-z0-9_]+' "$log" | awk '{print $3}' | sort -u | paste -sd'|' -)
	rerun=("${run[@]}")
	if [ -n "$failed" ] && ! grep -qE '^panic:|Test I/O incomplete' "$log"; then
		rerun=(-run "^($failed)\$")
	fi
	if [ -n "$failed_pkgs" ]; then
		echo "wine-tier: rerunning once: $failed_pkgs${failed:+ ($failed)}"
		relog=$(mktemp "$dir/rerun-XXXXXX.log")
		set +e
		# shellcheck disable=SC2086
		GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go test -count=1 -v "${rerun[@]}" $failed_pkgs >"$relog" 2>&1
		rerc=$?
		set -e
		grep -E '^(ok|FAIL|--- FAIL|panic:)' "$relog" || true
		if [ $rerc -eq 0 ]; then
			echo "wine-tier: FLAKY under Wine (failed, then passed on rerun): $failed_pkgs${failed:+ ($failed)}"
			rc=0
		fi
	fi
fi
# 6. chainrun.exe mcp under Wine, driven over stdio by an MCP client on
# Linux (mcpserver's TestWineStdio, a native test): tools/list and a chain
# with a cmd.exe built-in. Only with the default packages, once per CI run.
mcprc=0
if [ -z "${WINE_TIER_PKGS:-}" ]; then
	mcplog=$(mktemp "$dir/mcp-XXXXXX.log")
	CHAINRUN_WINE="$winebin" go test -count=1 -v -run '^TestWineStdio$' ./mcpserver/ >"$mcplog" 2>&1 || mcprc=$?
	grep -E '^(=== RUN|\s*--- (PASS|FAIL|SKIP)|ok|FAIL|panic:)' "$mcplog" || true
	if [ $mcprc -ne 0 ]; then
		echo "wine-tier: chainrun.exe mcp under Wine failed; log: $mcplog" >&2
		tail -n 40 "$mcplog" >&2
	fi
fi
if [ $vetrc -ne 0 ]; then
	echo "wine-tier: GOOS=windows go vet ./... failed" >&2
fi
if [ $rc -ne 0 ] || [ $vetrc -ne 0 ] || [ $mcprc -ne 0 ]; then
	echo "wine-tier: FAIL" >&2
	exit 1
fi
echo "wine-tier: PASS"
