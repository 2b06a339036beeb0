package docs

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
)

// examplePages are the pages whose terminal transcripts TestExamples runs.
var examplePages = []string{"../README.md", "cli.md", "json.md", "policy.md", "syntax.md"}

// Comment lines right above a transcript's fence prepare its directory or
// leave it alone, each stating why in the page's source:
//
//	<!-- file NAME: CONTENT -->   NAME holds the one line CONTENT
//	<!-- copy NAME: PATH -->      NAME is a copy of PATH (from the repository's root)
//	<!-- not run: REASON -->      the block is not run
var setupLine = regexp.MustCompile(`^<!-- (file|copy|not run) ?([^:]*): ?(.*?) ?-->$`)

// A transcript is one fenced block of a page: "$ COMMAND" lines, each
// followed by what it prints, stdout and stderr as a terminal shows them.
type transcript struct {
	page  string
	line  int
	setup [][]string // the setupLine matches above the block
	steps []step
}

type step struct {
	command string
	want    []string
}

// TestExamples runs every transcript of the README and the pages here
// with a chainrun built from this checkout, in an empty directory of its
// own, and compares what each command prints with what the page shows:
// an example that no longer holds fails. `$ echo $?` checks the status of
// the command before it; `$ cat FILE` of a file no step made writes the
// page's text to FILE, so the next steps can read it. Durations are
// compared as numbers of any value.
func TestExamples(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the transcripts are bash sessions")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to run the transcripts with")
	}
	bin := buildChainrun(t)
	for _, page := range examplePages {
		for _, tr := range transcripts(t, page) {
			t.Run(fmt.Sprintf("%s:%d", filepath.Base(tr.page), tr.line), func(t *testing.T) {
				runTranscript(t, bash, bin, tr)
			})
		}
	}
}

// buildChainrun builds cmd/chainrun, and the commands more names, into a
// temporary directory.
func buildChainrun(t *testing.T, more ...string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build chainrun with")
	}
	dir := testprog.TempDir(t)
	args := append([]string{"build", "-o", dir + string(filepath.Separator), "../cmd/chainrun"}, more...)
	out, err := exec.Command(goTool, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir
}

// transcripts reads the blocks of page made of "$ " steps.
func transcripts(t *testing.T, page string) []transcript {
	lines := strings.Split(readFile(t, page), "\n")
	var out []transcript
	for i := 0; i < len(lines); i++ {
		if lines[i] != "```" && lines[i] != "```sh" || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "$ ") {
			continue
		}
		tr := transcript{page: page, line: i + 2}
		for j := i - 1; j >= 0 && strings.HasPrefix(lines[j], "<!-- "); j-- {
			if m := setupLine.FindStringSubmatch(lines[j]); m != nil {
				tr.setup = append(tr.setup, m[1:])
			}
		}
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			if cmd, ok := strings.CutPrefix(lines[i], "$ "); ok {
				tr.steps = append(tr.steps, step{command: cmd})
			} else if n := len(tr.steps); n > 0 {
				tr.steps[n-1].want = append(tr.steps[n-1].want, lines[i])
			}
		}
		out = append(out, tr)
	}
	return out
}

var duration = regexp.MustCompile(`"duration_ms":[0-9.]+`)

// prepare lays out the block's directory as its comments say; false
// means the block is not run.
func prepare(t *testing.T, dir string, setup [][]string) bool {
	for _, s := range setup {
		kind, name, arg := s[0], s[1], s[2]
		var data []byte
		switch kind {
		case "not run":
			return false
		case "file":
			data = []byte(arg + "\n")
		case "copy":
			data = []byte(readFile(t, filepath.Join("..", filepath.FromSlash(arg))))
		}
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return true
}

// runTranscript runs a block's steps in one directory, in order.
func runTranscript(t *testing.T, bash, bin string, tr transcript) {
	dir := testprog.TempDir(t)
	if !prepare(t, dir, tr.setup) {
		t.Skip("the page says: not run")
	}
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "LC_ALL=C")
	status := 0
	for _, s := range tr.steps {
		want := strings.Join(s.want, "\n")
		if s.command == "echo $?" {
			if got := fmt.Sprint(status); got != want {
				t.Errorf("status %s, the page says %s (after the step before)", got, want)
			}
			continue
		}
		if name, ok := strings.CutPrefix(s.command, "cat "); ok {
			if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(want+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
		}
		cmd := exec.Command(bash, "-c", s.command+" 2>&1")
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.Output()
		status = 0
		if ee, ok := err.(*exec.ExitError); ok {
			status = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", s.command, err)
		}
		got := strings.TrimSuffix(string(out), "\n")
		if duration.ReplaceAllString(got, `"duration_ms":0`) != duration.ReplaceAllString(want, `"duration_ms":0`) {
			t.Errorf("$ %s\nprints:\n%s\nthe page shows:\n%s", s.command, got, want)
		}
	}
}
