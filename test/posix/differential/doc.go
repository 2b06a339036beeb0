// Package differential runs generated command lines through bash (and dash)
// and through chainrun, and compares what each made of them.
//
// Three suites live here, each with a table of hand-written cases beside it:
//
//   - TestParseDifferential renders generated chains to source text with
//     random quoting and spacing, lets bash execute the exact text with every
//     program undefined so that bash's command_not_found_handle records the
//     quote-removed argv and assignments of each simple command it runs (and
//     its redirects create their quote-removed targets), and compares that
//     with chain.ParseDialect(src, chain.POSIX).
//   - TestRunDifferential runs generated chains of coreutils programs and
//     engine built-ins under bash -c and under engine.RunString, in turn, in
//     the same freshly seeded directory, and compares stdout, stderr, exit
//     status and every file left behind; the same corpus runs under dash
//     where it is POSIX, and agreement with dash is reported.
//   - TestRedirectDifferential does the same for chains that mix redirects
//     with pipelines and operators.
//
// Every suite is seeded and prints its seed and counts. DIFF_SEED and DIFF_N
// change the seed and the number of cases, DIFF_CASE replays one case,
// DIFF_SHOW prints more mismatches, and DIFF_STRICT fails on the known bugs
// listed in known_test.go too. A mismatch prints the input, both results and
// the difference in files.
package differential
