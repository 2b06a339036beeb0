// Package differential runs generated command lines through bash (and dash)
// and through chainrun, and compares what each made of them.
//
// Three suites live here:
//
//   - TestParseDifferential renders generated chains to source text with
//     random quoting and spacing, lets bash execute the exact text with every
//     program undefined so that bash's command_not_found_handle records the
//     quote-removed argv, assignments and redirect targets of each simple
//     command it runs, and compares them with engine.Parse.
//   - TestRunDifferential runs generated chains of coreutils programs and
//     engine built-ins under bash -c and under engine.RunString in identical
//     fresh directories and compares stdout, exit status and every file left
//     behind; the same corpus runs under dash where it is POSIX.
//   - TestRedirectDifferential does the same for chains that mix redirects
//     with pipelines and operators, comparing stderr too.
//
// Every suite is seeded. The seed and the number of cases are printed; set
// DIFF_SEED to replay a run and DIFF_N to change its size. A mismatch prints
// the input, both results and a file diff.
package differential
