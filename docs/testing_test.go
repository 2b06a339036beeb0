package docs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestTestingCommands: every go test command docs/testing.md shows runs
// tests as written: its package has tests, its -run pattern selects at
// least one test or example, its -bench pattern a benchmark, and its
// -fuzz pattern exactly one fuzz target (go test refuses more). Every
// test, fuzz target or benchmark the page names exists. (A benchmark
// command's -run may select nothing, so only its benchmarks run.)
func TestTestingCommands(t *testing.T) {
	md := readFile(t, "testing.md")
	cmds := goTestCommands(md)
	if len(cmds) < 10 {
		t.Fatalf("found %d go test commands in docs/testing.md; the parser lost them: %q", len(cmds), cmds)
	}
	for _, line := range cmds {
		if msg := checkGoTest(t, line); msg != "" {
			t.Errorf("docs/testing.md: %s: %s", line, msg)
		}
	}
	all := map[string]bool{}
	for _, dir := range packageDirs(t) {
		for name := range testFuncs(t, dir) {
			all[name] = true
		}
	}
	for _, m := range regexp.MustCompile("`((?:Test|Fuzz|Benchmark)[A-Z][A-Za-z0-9_]*)`").FindAllStringSubmatch(md, -1) {
		if !all[m[1]] {
			t.Errorf("docs/testing.md names %s, which no test file defines", m[1])
		}
	}
}

// goTestCommands finds the go test commands: lines of code blocks and
// code spans that hold "go test", with markdown's \| read as |.
func goTestCommands(md string) []string {
	var out []string
	block := false
	for line := range strings.Lines(md) {
		line = strings.TrimRight(line, "\n")
		if strings.HasPrefix(line, "```") {
			block = !block
			continue
		}
		if block {
			if strings.Contains(line, "go test ") {
				out = append(out, strings.TrimSpace(line))
			}
			continue
		}
		for _, m := range regexp.MustCompile("`([^`]*go test [^`]*)`").FindAllStringSubmatch(line, -1) {
			out = append(out, strings.ReplaceAll(m[1], `\|`, "|"))
		}
	}
	return out
}

// checkGoTest says what is wrong with one command; "" when nothing is.
func checkGoTest(t *testing.T, line string) string {
	words := shellWords(line)
	for len(words) > 0 && strings.Contains(words[0], "=") {
		words = words[1:] // VAR=value before the command
	}
	if len(words) < 2 || words[0] != "go" || words[1] != "test" {
		return "not a go test command"
	}
	var pkgs []string
	flags := map[string]string{}
	for i := 2; i < len(words); i++ {
		w := words[i]
		switch {
		case strings.HasPrefix(w, "./"):
			pkgs = append(pkgs, w)
		case w == "-run" || w == "-fuzz" || w == "-bench" || w == "-fuzztime" || w == "-count":
			if i+1 < len(words) {
				flags[w] = words[i+1]
				i++
			}
		}
	}
	if len(pkgs) != 1 {
		return "names no package, or several"
	}
	if strings.HasSuffix(pkgs[0], "...") {
		return ""
	}
	dir := filepath.Join("..", filepath.FromSlash(pkgs[0]))
	funcs := testFuncs(t, dir)
	if fz, ok := flags["-fuzz"]; ok {
		if n := matching(funcs, fz, "Fuzz"); n != 1 {
			return "its -fuzz pattern matches " + strconv.Itoa(n) + " fuzz targets in " + pkgs[0] + ", not one"
		}
		return ""
	}
	if b, ok := flags["-bench"]; ok {
		if matching(funcs, b, "Benchmark") == 0 {
			return "its -bench pattern matches no benchmark in " + pkgs[0]
		}
		return ""
	}
	run, ok := flags["-run"]
	if !ok {
		run = "."
	}
	if matching(funcs, strings.Split(run, "/")[0], "Test", "Example") == 0 {
		return "it runs no test: nothing in " + pkgs[0] + " matches " + run
	}
	return ""
}

// matching counts the functions with one of the prefixes that pattern
// selects.
func matching(funcs map[string]bool, pattern string, prefixes ...string) int {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return 0
	}
	n := 0
	for name := range funcs {
		for _, p := range prefixes {
			if strings.HasPrefix(name, p) && re.MatchString(name) {
				n++
			}
		}
	}
	return n
}

// testFuncs lists the top-level functions of a directory's test files,
// whatever their build constraints.
func testFuncs(t *testing.T, dir string) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil {
				out[fn.Name.Name] = true
			}
		}
	}
	return out
}

// packageDirs lists the module's directories that hold Go files.
func packageDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != ".." || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() {
			dirs = append(dirs, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// shellWords splits a command line as sh would for the simple lines the
// page shows: blanks separate words, single and double quotes group, a #
// starting a word begins a comment.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	in := false
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		case c == '#' && !in:
			return words
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}

// TestTempDirsThroughHelper: tests take temporary directories from
// internal/testprog's TempDir, which Wine can remove; testing's own
// TempDir fails its cleanup there ("unlinkat …: Invalid function") and
// would turn a passing test red in the Windows tier.
func TestTempDirsThroughHelper(t *testing.T) {
	use := regexp.MustCompile(`\b[tbf]\.TempDir\(\)`)
	for _, dir := range packageDirs(t) {
		files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, loc := range use.FindAllIndex(data, -1) {
				line := 1 + strings.Count(string(data[:loc[0]]), "\n")
				t.Errorf("%s:%d: %s: use testprog.TempDir(t), which Wine can clean", f, line, data[loc[0]:loc[1]])
			}
		}
	}
}
