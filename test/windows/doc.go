// Package windows holds chainrun's Windows integration tests. They run
// natively on Windows and, on Linux, under Wine through .ci/wine-tier.sh;
// what only real Windows can show is skipped under Wine with the reason.
package windows
