// Package docs holds the tests that keep the prose in this directory and
// the README true to the code: each states a fact the code also states,
// and fails naming the line to change when the two part.
package docs

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
)

const module = "github.com/chainrun/chainrun/"

// goosList are the systems whose builds the import table covers.
var goosList = []string{"linux", "darwin", "windows"}

// TestImportTable compares docs/architecture.md's table of packages and
// their imports with what `go list` reports for the Linux, macOS and
// Windows builds: per package, the chainrun packages it imports and the
// third-party ones (a module or package path in the table covers every
// package under it: `golang.org/x/sys` covers golang.org/x/sys/unix).
// Every package with non-test Go files needs a row.
func TestImportTable(t *testing.T) {
	rows := importTable(t, readFile(t, "architecture.md"))
	actual := listImports(t)
	names := make([]string, 0, len(actual))
	for pkg := range actual {
		names = append(names, pkg)
	}
	sort.Strings(names)
	for _, pkg := range names {
		doc, ok := rows[pkg]
		if !ok {
			t.Errorf("docs/architecture.md, import table: add a row for `%s`, which imports %s", pkg, spell(actual[pkg]))
			continue
		}
		if msg := compareRow(doc, actual[pkg]); msg != "" {
			t.Errorf("docs/architecture.md, import table, row `%s`: %s", pkg, msg)
		}
	}
	for pkg := range rows {
		if _, ok := actual[pkg]; !ok {
			t.Errorf("docs/architecture.md, import table: remove the row `%s`: no package with non-test Go files has that path", pkg)
		}
	}
}

// importTable reads the table under "| Package | Imports": each row's
// packages (one or more, backquoted) and the backquoted names in its
// imports column.
func importTable(t *testing.T, md string) map[string][]string {
	t.Helper()
	rows := map[string][]string{}
	in := false
	tick := regexp.MustCompile("`([^`]+)`")
	for line := range strings.Lines(md) {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "| Package | Imports"):
			in = true
			continue
		case !in:
			continue
		case !strings.HasPrefix(line, "|"):
			in = false
			continue
		}
		cells := strings.Split(line, "|")
		if len(cells) < 4 || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") {
			continue
		}
		pkgs := tick.FindAllStringSubmatch(cells[1], -1)
		if pkgs == nil {
			t.Fatalf("docs/architecture.md, import table: a row without a `package` in its first column: %s", line)
		}
		var names []string
		for _, n := range tick.FindAllStringSubmatch(cells[2], -1) {
			names = append(names, n[1])
		}
		for _, p := range pkgs {
			rows[p[1]] = names
		}
	}
	if len(rows) == 0 {
		t.Fatal(`docs/architecture.md has no table headed "| Package | Imports"`)
	}
	return rows
}

// imported maps an import path (a chainrun package relative to the
// module, a third-party path in full) to the systems whose build imports it.
type imported map[string][]string

// listImports runs go list for each system: the chainrun packages with
// non-test Go files and their chainrun and third-party imports.
func listImports(t *testing.T) map[string]imported {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		testprog.SkipUnderWine(t, "no Windows go command for go list (the host's go is a Linux program)")
		t.Skip("the go command is not on PATH:", err)
	}
	out := map[string]imported{}
	for _, goos := range goosList {
		cmd := exec.Command(goCmd, "list", "-e", "-json=ImportPath,GoFiles,CgoFiles,Imports", "./...")
		cmd.Dir = ".."
		cmd.Env = append(os.Environ(), "GOOS="+goos, "CGO_ENABLED=0")
		b, err := cmd.Output()
		if err != nil {
			t.Fatalf("GOOS=%s go list: %v", goos, err)
		}
		dec := json.NewDecoder(strings.NewReader(string(b)))
		for dec.More() {
			var p struct {
				ImportPath        string
				GoFiles, CgoFiles []string
				Imports           []string
			}
			if err := dec.Decode(&p); err != nil {
				t.Fatal(err)
			}
			if len(p.GoFiles)+len(p.CgoFiles) == 0 {
				continue
			}
			pkg := strings.TrimPrefix(p.ImportPath, module)
			if out[pkg] == nil {
				out[pkg] = imported{}
			}
			for _, imp := range p.Imports {
				switch {
				case strings.HasPrefix(imp, module):
					imp = strings.TrimPrefix(imp, module)
				case !strings.Contains(strings.Split(imp, "/")[0], "."):
					continue // the standard library
				}
				if !slices.Contains(out[pkg][imp], goos) {
					out[pkg][imp] = append(out[pkg][imp], goos)
				}
			}
		}
	}
	return out
}

// compareRow says what to add to and remove from a row's imports column
// so it matches the imports; "" when it does.
func compareRow(doc []string, actual imported) string {
	var add, remove []string
	paths := make([]string, 0, len(actual))
	for imp := range actual {
		paths = append(paths, imp)
	}
	sort.Strings(paths)
	for _, imp := range paths {
		if !slices.ContainsFunc(doc, func(d string) bool { return covers(d, imp) }) {
			add = append(add, fmt.Sprintf("`%s` (%s)", imp, strings.Join(actual[imp], ", ")))
		}
	}
	for _, d := range doc {
		if !slices.ContainsFunc(paths, func(imp string) bool { return covers(d, imp) }) {
			remove = append(remove, "`"+d+"`")
		}
	}
	var parts []string
	if add != nil {
		parts = append(parts, "add "+strings.Join(add, ", "))
	}
	if remove != nil {
		parts = append(parts, "remove "+strings.Join(remove, ", ")+" (not imported)")
	}
	return strings.Join(parts, "; ")
}

// covers reports whether a name in the table stands for an import: the
// same path, or for a third-party name, a path under it.
func covers(doc, imp string) bool {
	if doc == imp {
		return true
	}
	thirdParty := strings.Contains(strings.Split(doc, "/")[0], ".")
	return thirdParty && strings.HasPrefix(imp, doc+"/")
}

// spell lists imports for a new row: chainrun packages, then third-party.
func spell(imps imported) string {
	var own, third []string
	for imp := range imps {
		if strings.Contains(strings.Split(imp, "/")[0], ".") {
			third = append(third, "`"+imp+"`")
		} else {
			own = append(own, "`"+imp+"`")
		}
	}
	sort.Strings(own)
	sort.Strings(third)
	switch {
	case own == nil && third == nil:
		return "nothing outside the standard library (write none)"
	case third == nil:
		return strings.Join(own, ", ")
	}
	return strings.Join(own, ", ") + "; " + strings.Join(third, ", ")
}

// readFile reads a file relative to the docs directory.
func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
