// Package differential runs generated command lines through bash (and dash)
// and through chainrun, and compares what each made of them.
//
// Four suites live here, each with a table of hand-written cases beside it:
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
//   - TestExpandDifferential does the same for chains full of shell
//     expansion: parameters and their operators, $?, cd with $PWD and
//     $OLDPWD, tildes, globs, braces, $'…', arithmetic, chain variables,
//     heredocs, here-strings, expanded redirect targets and command words,
//     and IFS, on sides seeded with dotfiles and more names to glob and an
//     environment with empty, spaced, glob-holding and unset variables. A
//     case whose data is not ASCII (a non-ASCII byte, a \u escape, or a
//     pattern such as ? or [!a] that meets é.txt one character at a time)
//     runs under LC_ALL=C.UTF-8 on both sides, since chainrun expands as
//     bash does in a UTF-8 locale; the others run under LC_ALL=C, like the
//     other suites.
//
// The expansion suite sorts what it sees into four kinds besides a match:
//
//   - refused by design: chainrun refuses on purpose what mvdan.cc/sh's
//     expansion library would expand otherwise than bash (an IFS with other
//     characters than blanks splitting an expansion, quotes inside
//     ${X:-word}, \c in $'…', a $NAME ending a brace alternative before name
//     characters, a letter sequence across cases, arithmetic on a value that
//     is not a number) and what it never runs ($(…), ${X:?w}, positional
//     parameters). These are listed in designRefusals, counted by reason and
//     never fail; the generator keeps the first kind at a low rate so that
//     the refusals stay exercised, and must not produce the second.
//   - refused otherwise: any other refusal, parse-time (by construct) or
//     run-time (labelled "run-time refusal"), fails the suite.
//   - known: a mismatch or refusal that shows an entry of knownBugs (in
//     known_test.go) is listed under the entry's ID on the summary line and
//     does not fail. An entry is either a documented departure (unset HOME;
//     echo ~, where bash reads the password database) or an open chainrun
//     bug, to be deleted when fixed.
//   - mismatched: every other difference from bash fails the suite.
//
// Every suite is seeded and prints its seed and counts. DIFF_SEED and DIFF_N
// change the seed and the number of cases, DIFF_CASE replays one case,
// DIFF_SHOW prints more mismatches, and DIFF_STRICT fails on the known bugs
// listed in known_test.go too. A mismatch prints the input, both results and
// the difference in files.
package differential
