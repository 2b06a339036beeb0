package testprog

import "testing"

// UnderWine reports whether the test runs under Wine rather than on
// Windows itself.
func UnderWine() bool { return wineVersion != "" }

// SkipUnderWine skips a test whose behaviour Wine does not reproduce:
// why names what Wine lacks, and the test still runs on native Windows.
// It is the one way a test is skipped for Wine's sake; the skip message
// starts "Wine <version>: ", which the Windows tier of .ci/run lists.
func SkipUnderWine(tb testing.TB, why string) {
	tb.Helper()
	if wineVersion != "" {
		tb.Skipf("Wine %s: %s (runs on native Windows)", wineVersion, why)
	}
}
