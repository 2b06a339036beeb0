//go:build unix

package differential

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/tools"
)

// caseTimeout bounds one chain under one shell; generated chains finish in
// milliseconds.
const caseTimeout = 20 * time.Second

// chainEnv is the whole environment every side runs with.
func chainEnv(root string) []string {
	return []string{"PATH=/usr/bin:/bin", "LC_ALL=C", "HOME=" + root}
}

// makeSide creates dir/name/root holding the seed files and returns the
// side directory (which a single cd .. may reach) and the root.
func makeSide(dir, name string) (side, root string, err error) {
	side = filepath.Join(dir, name)
	root = filepath.Join(side, "root")
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", "", err
	}
	for _, f := range seedFiles {
		p := filepath.Join(root, filepath.FromSlash(f.Name))
		if strings.HasSuffix(f.Name, "/") {
			err = os.MkdirAll(p, 0o755)
		} else {
			err = os.WriteFile(p, []byte(f.Data), 0o644)
		}
		if err != nil {
			return "", "", err
		}
	}
	return side, root, nil
}

// snapshot records every entry under side: type, mode and content, the
// content through clean.
func snapshot(side string, clean func([]byte) string) (map[string]string, error) {
	m := map[string]string{}
	err := filepath.WalkDir(side, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(side, p)
		if rel == "." {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			m[rel] = fmt.Sprintf("dir %v", info.Mode().Perm())
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			m[rel] = fmt.Sprintf("file %v %q", info.Mode().Perm(), clean(data))
		default:
			m[rel] = fmt.Sprintf("other %v", info.Mode())
		}
		return nil
	})
	return m, err
}

// outcome is what one side did with a chain, normalised for comparison.
type outcome struct {
	Stdout string
	// Stderr is sorted by line (stages write it concurrently).
	Stderr string
	Status int
	Files  map[string]string
	// Quiet is the same outcome with every message of the shell itself
	// (not found, a failed redirect) deleted wherever it went.
	Quiet *outcome
}

// shellMessage matches the prefix of the shell's own messages, which
// differs between bash ("bash: line 1: "), dash and chainrun ("chainrun: ");
// the rest of the message is bash's text in all three.
var (
	shellPrefix = regexp.MustCompile(`(?i)((/usr)?/bin/)?\b(bash|dash): (line )?\d+: |chainrun: `)
	// shellMessage matches such a message to the end of its line, even
	// after a filter changed it (tr a-z A-Z).
	shellMessage = regexp.MustCompile(`(?i)((/usr)?/bin/)?\b(bash|dash): (line )?\d+: [^\n]*\n?|chainrun: [^\n]*\n?`)
)

// normalise replaces the side's path and removes the shell's prefix from
// its own messages, which 2>&1 or 2>f may send anywhere.
func normalise(out []byte, side string) string {
	return shellPrefix.ReplaceAllString(strings.ReplaceAll(string(out), side, "$SIDE"), "")
}

// quiet replaces the side's path and deletes the shell's own messages.
func quiet(out []byte, side string) string {
	return shellMessage.ReplaceAllString(strings.ReplaceAll(string(out), side, "$SIDE"), "")
}

func sortLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	slices.Sort(lines)
	return strings.Join(lines, "")
}

// runSide runs src on a fresh side named name under dir: under shell (a
// path to bash or dash), or under chainrun when shell is "".
// syntaxMessage stands for a shell's syntax error on either side: bash
// refuses the line with status 2 before running anything, and chainrun's
// KindSyntax refusal is the same outcome in its own words, so only the
// status, the output and the files are compared.
const syntaxMessage = "syntax error\n"

func runSide(dir, name, shell, src string) (*outcome, error) {
	return runSideWith(dir, name, shell, src, sideSetup{})
}

// sideSetup lets a suite change the sides it runs on: more seed files and
// its own environment. The zero value is the shared sides of runSide.
type sideSetup struct {
	// Seed adds to the seed files in root after makeSide, when set.
	Seed func(root string) error
	// Env is the whole environment, chainEnv(root) when nil.
	Env func(root string) []string
	// Tools is when chainrun runs its built-in tools (package tools).
	Tools tools.Mode
}

// runSideWith is runSide on a side set up by setup.
func runSideWith(dir, name, shell, src string, setup sideSetup) (*outcome, error) {
	side, root, err := makeSide(dir, name)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(side)
	if setup.Seed != nil {
		if err := setup.Seed(root); err != nil {
			return nil, err
		}
	}
	env := chainEnv(root)
	if setup.Env != nil {
		env = setup.Env(root)
	}
	ctx, cancel := context.WithTimeout(context.Background(), caseTimeout)
	defer cancel()
	var stdout, stderr []byte
	var status int
	if shell != "" {
		res := runShell(ctx, shell, src, root, env)
		if res.Err != nil {
			return nil, res.Err
		}
		stdout, stderr, status = res.Stdout, res.Stderr, res.Status
		if status == 2 && strings.Contains(string(stderr), "syntax error") {
			stderr = []byte(syntaxMessage)
		}
	} else {
		res, err := engine.RunString(ctx, src, engine.Options{Dir: root, Env: env, MaxOutput: 8 << 20, Tools: setup.Tools})
		var pe *chain.ParseError
		if errors.As(err, &pe) && pe.Kind == chain.KindSyntax {
			res, err = &engine.Result{ExitCode: 2, Stderr: []byte(syntaxMessage)}, nil
		}
		if err != nil {
			return nil, fmt.Errorf("chainrun: %w", err)
		}
		if res == nil {
			return nil, errors.New("chainrun: nil result")
		}
		stdout, stderr, status = res.Stdout, res.Stderr, res.ExitCode
	}
	files, err := snapshot(side, func(b []byte) string { return normalise(b, side) })
	if err != nil {
		return nil, err
	}
	quietFiles, err := snapshot(side, func(b []byte) string { return quiet(b, side) })
	if err != nil {
		return nil, err
	}
	return &outcome{
		Stdout: normalise(stdout, side), Stderr: sortLines(normalise(stderr, side)), Status: status, Files: files,
		Quiet: &outcome{Stdout: quiet(stdout, side), Stderr: sortLines(quiet(stderr, side)), Status: status, Files: quietFiles},
	}, nil
}

// stderrMode says how much of stderr a suite compares.
type stderrMode int

const (
	stderrIgnore stderrMode = iota
	stderrText              // the normalised text
	stderrTimes             // the normalised text, every number read as N: time's report's figures vary
)

// figures are the numbers in a stderr that stderrTimes reads alike.
var figures = regexp.MustCompile(`[0-9]+`)

// diffOutcomes describes how b differs from a, "" if not at all.
func diffOutcomes(aName string, a *outcome, bName string, b *outcome, mode stderrMode) string {
	var d strings.Builder
	if a.Status != b.Status {
		fmt.Fprintf(&d, "  status: %s %d, %s %d\n", aName, a.Status, bName, b.Status)
	}
	if a.Stdout != b.Stdout {
		fmt.Fprintf(&d, "  stdout:\n    %-8s %q\n    %-8s %q\n", aName, a.Stdout, bName, b.Stdout)
	}
	as, bs := a.Stderr, b.Stderr
	if mode == stderrTimes {
		as, bs = figures.ReplaceAllString(as, "N"), figures.ReplaceAllString(bs, "N")
	}
	switch {
	case mode != stderrIgnore && as != bs && !sameBytes(as, bs):
		fmt.Fprintf(&d, "  stderr (sorted, shell prefixes removed):\n    %-8s %q\n    %-8s %q\n", aName, a.Stderr, bName, b.Stderr)
	}
	keys := map[string]bool{}
	for k := range a.Files {
		keys[k] = true
	}
	for k := range b.Files {
		keys[k] = true
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		fa, okA := a.Files[k]
		fb, okB := b.Files[k]
		switch {
		case !okA:
			fmt.Fprintf(&d, "  file %q: only %s left it: %s\n", k, bName, fb)
		case !okB:
			fmt.Fprintf(&d, "  file %q: only %s left it: %s\n", k, aName, fa)
		case fa != fb:
			fmt.Fprintf(&d, "  file %q:\n    %-8s %s\n    %-8s %s\n", k, aName, fa, bName, fb)
		}
	}
	return d.String()
}

// report renders one mismatch with everything needed to reproduce it.
func report(name, src, diff, shell string, sh, crun *outcome) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nchain: %q\n%s", name, src, diff)
	if sh != nil && crun != nil {
		fmt.Fprintf(&b, "  %-9s status %d stdout %q stderr %q\n", shell+":", sh.Status, sh.Stdout, sh.Stderr)
		fmt.Fprintf(&b, "  chainrun: status %d stdout %q stderr %q\n", crun.Status, crun.Stdout, crun.Stderr)
	}
	return b.String()
}

// sameBytes reports whether a and b hold the same bytes in any order.
// Stages of a pipeline that share stderr may interleave their writes in
// the middle of a line, in bash as in chainrun; then only the bytes
// written, not their order, are the same run to run.
func sameBytes(a, b string) bool {
	x, y := []byte(a), []byte(b)
	slices.Sort(x)
	slices.Sort(y)
	return string(x) == string(y)
}
