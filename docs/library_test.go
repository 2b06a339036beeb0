package docs

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
)

// TestReadmeLibrary builds the README's library example as written, in a
// module of its own that takes chainrun from this checkout, runs it from
// the repository's root as the README says, and compares what it prints
// with the block the README shows after it.
func TestReadmeLibrary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program against the library")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the example with")
	}
	src, want := libraryExample(t, readFile(t, "../README.md"))
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := testprog.TempDir(t)
	gomod := "module readmeexample\n\ngo 1.26\n\nrequire github.com/chainrun/chainrun v0.0.0\n\n" +
		"replace github.com/chainrun/chainrun => " + filepath.ToSlash(root) + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"main.go": src, "go.mod": gomod, "go.sum": string(sum)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "example.exe")
	build := exec.Command(goTool, "build", "-o", bin, ".")
	// The checkout's go.sum covers every module; nothing is fetched.
	build.Dir, build.Env = dir, append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	run := exec.Command(bin)
	run.Dir = root
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("the example failed: %v\n%s", err, out)
	}
	if got := strings.ReplaceAll(string(out), "\r\n", "\n"); got != want {
		t.Errorf("the README's library example prints\n%s\nwhile the README shows\n%s", got, want)
	}
}

// libraryExample returns the Go block of the README's "## Library" section
// and the block after "it prints:".
func libraryExample(t *testing.T, readme string) (src, printed string) {
	t.Helper()
	_, sect, ok := strings.Cut(readme, "\n## Library\n")
	if !ok {
		t.Fatal("README.md has no ## Library section")
	}
	src, ok = fenced(sect, "```go\n")
	if !ok {
		t.Fatal("the Library section has no Go block")
	}
	_, after, ok := strings.Cut(sect, "it prints:\n")
	if !ok {
		t.Fatal(`the Library section does not say what the example prints ("it prints:")`)
	}
	printed, ok = fenced(after, "```\n")
	if !ok {
		t.Fatal("no block after \"it prints:\"")
	}
	return src, printed
}

// fenced is the body of the first block of s opened by fence.
func fenced(s, fence string) (string, bool) {
	_, body, ok := strings.Cut(s, fence)
	if !ok {
		return "", false
	}
	body, _, ok = strings.Cut(body, "\n```")
	return body + "\n", ok
}
