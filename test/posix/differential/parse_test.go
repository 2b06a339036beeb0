//go:build unix

package differential

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// bashHandler makes bash record, for every simple command it runs, the
// quote-removed argv and the assignments in effect: every program of a
// parse-suite chain is undefined (PATH is an empty directory), so bash calls
// command_not_found_handle with the command's words after quote removal and
// with its assignments in the environment. Each record goes to a file named
// after the program (s<i> or f<i>, unique in a chain); the handler returns 1
// for f<i> and 0 for s<i>, so the set of commands bash runs shows how it
// joined them with && || ; and |.
const bashHandler = `command_not_found_handle() {
	{ printf 'ARGV\0'; printf '%s\0' "$@"; printf 'ENV\0'
	  for __n in A B1 _u FOO_BAR lc; do
	    if [ "${!__n+set}" = set ]; then printf '%s=%s\0' "$__n" "${!__n}"; fi
	  done
	} >"$__D/$1"
	case $1 in f*) return 1;; esac
	return 0
}
`

// segRecord is what one simple command was: argv and assignments.
type segRecord struct {
	Argv []string
	Env  map[string]string
}

func (r segRecord) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "argv=%q", r.Argv)
	if len(r.Env) > 0 {
		keys := slices.Sorted(maps.Keys(r.Env))
		b.WriteString(" env={")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(" ")
			}
			fmt.Fprintf(&b, "%s=%q", k, r.Env[k])
		}
		b.WriteString("}")
	}
	return b.String()
}

func (r segRecord) equal(o segRecord) bool {
	return slices.Equal(r.Argv, o.Argv) && maps.Equal(r.Env, o.Env)
}

// parseRun is what bash made of a parse-suite input.
type parseRun struct {
	Ran     map[string]segRecord // by program name
	Created []string             // files the redirects created, sorted
	Stderr  string
	Status  int
}

// bashParse runs src under bash with the recording handler in a fresh
// directory holding the input files, and collects what bash ran.
func bashParse(bash, src string, inputs []string) (*parseRun, error) {
	root, err := os.MkdirTemp("", "chainrun-diffparse-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(root)
	work, out, empty := filepath.Join(root, "w"), filepath.Join(root, "o"), filepath.Join(root, "e")
	for _, d := range []string{work, out, empty} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return nil, err
		}
	}
	for _, in := range inputs {
		if err := os.WriteFile(filepath.Join(work, in), []byte("in\n"), 0o644); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res := runShell(ctx, bash, bashHandler+src, work, []string{"PATH=" + empty, "__D=" + out, "LC_ALL=C"})
	if res.Err != nil {
		return nil, res.Err
	}
	pr := &parseRun{Ran: map[string]segRecord{}, Stderr: string(res.Stderr), Status: res.Status}
	recs, err := os.ReadDir(out)
	if err != nil {
		return nil, err
	}
	for _, e := range recs {
		data, err := os.ReadFile(filepath.Join(out, e.Name()))
		if err != nil {
			return nil, err
		}
		pr.Ran[e.Name()] = decodeRecord(data)
	}
	made, err := os.ReadDir(work)
	if err != nil {
		return nil, err
	}
	for _, e := range made {
		if !slices.Contains(inputs, e.Name()) {
			pr.Created = append(pr.Created, e.Name())
		}
	}
	slices.Sort(pr.Created)
	return pr, nil
}

// decodeRecord reads the handler's NUL-separated record.
func decodeRecord(data []byte) segRecord {
	fields := strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00")
	r := segRecord{Env: map[string]string{}}
	inEnv := false
	for i, f := range fields {
		switch {
		case i == 0 && f == "ARGV":
		case !inEnv && f == "ENV":
			inEnv = true
		case inEnv:
			k, v, _ := strings.Cut(f, "=")
			r.Env[k] = v
		default:
			r.Argv = append(r.Argv, f)
		}
	}
	return r
}

// intended is the run the generator meant: which programs run, with what,
// and which files their redirects create.
func (c *pChain) intended() *parseRun {
	pr := &parseRun{Ran: map[string]segRecord{}}
	status := 0
	created := map[string]bool{}
	for i, pipe := range c.Pipes {
		if i > 0 && (c.Ops[i-1] == "&&" && status != 0 || c.Ops[i-1] == "||" && status == 0) {
			continue
		}
		for _, s := range pipe {
			rec := segRecord{Argv: append([]string{s.Prog}, s.Args...), Env: map[string]string{}}
			for _, a := range s.Assigns {
				rec.Env[a[0]] = a[1]
			}
			pr.Ran[s.Prog] = rec
			for _, r := range s.Redirs {
				if r.isOutputFile() {
					created[r.Target] = true
				}
			}
		}
		status = progStatus(pipe[len(pipe)-1].Prog)
	}
	pr.Created = slices.Sorted(maps.Keys(created))
	return pr
}

// progStatus is the status the handler returns for a program name.
func progStatus(name string) int {
	if strings.HasPrefix(name, "f") {
		return 1
	}
	return 0
}

// diffRuns describes how two parse runs differ, "" if they agree.
func diffRuns(aName string, a *parseRun, bName string, b *parseRun) string {
	var d strings.Builder
	names := map[string]bool{}
	for k := range a.Ran {
		names[k] = true
	}
	for k := range b.Ran {
		names[k] = true
	}
	for _, k := range slices.Sorted(maps.Keys(names)) {
		ra, okA := a.Ran[k]
		rb, okB := b.Ran[k]
		switch {
		case !okA:
			fmt.Fprintf(&d, "  %s: %s runs it, %s does not: %s\n", k, bName, aName, rb)
		case !okB:
			fmt.Fprintf(&d, "  %s: %s runs it, %s does not: %s\n", k, aName, bName, ra)
		case !ra.equal(rb):
			fmt.Fprintf(&d, "  %s:\n    %-8s %s\n    %-8s %s\n", k, aName, ra, bName, rb)
		}
	}
	if !slices.Equal(a.Created, b.Created) {
		fmt.Fprintf(&d, "  files created:\n    %-8s %q\n    %-8s %q\n", aName, a.Created, bName, b.Created)
	}
	return d.String()
}

// parseSeed is the parse suite's default seed.
const parseSeed = 20261122

// TestParseDifferential renders generated chains with random quoting and
// spacing and checks that chain.Parse reads each one exactly as bash does:
// the same simple commands joined the same way, the same argv and
// assignments, and redirects whose targets are the files bash creates.
func TestParseDifferential(t *testing.T) {
	bash := needShell(t, "bash")
	seed, n := seedAndCount(t, parseSeed, 1200)
	only := onlyCase(t)
	var known knownCases
	fails := forEach(n, func(i int) string {
		if only >= 0 && i != only {
			return ""
		}
		c := newParseGen(seed, i).chain()
		r := checkParseCase(bash, fmt.Sprintf("case %d (DIFF_SEED=%d DIFF_CASE=%d)", i, seed, i), c.Src, c.Inputs, c)
		if kb := matchKnown(c.Traits, nil, nil); r != "" && kb != nil {
			known.add(kb, r)
			return ""
		}
		return r
	})
	msg := fmt.Sprintf("differential parse: seed %d, %d generated inputs, %d matched bash", seed, n, n-len(fails)-known.count())
	msg += known.summary()
	fmt.Println(msg)
	t.Log(msg)
	known.log(t)
	failures(t, fails, 15)
}

// checkParseCase compares bash, chainrun and (when gen is set) the
// generator's intent for one input; it returns "" when all agree.
func checkParseCase(bash, name, src string, inputs []string, gen *pChain) string {
	br, err := bashParse(bash, src, inputs)
	if err != nil {
		return fmt.Sprintf("%s: running bash: %v\ninput: %q", name, err, src)
	}
	var d strings.Builder
	if br.Stderr != "" || br.Status > 1 {
		fmt.Fprintf(&d, "  bash status %d, stderr:\n%s\n", br.Status, indent(br.Stderr))
	}
	if gen != nil {
		if s := diffRuns("bash", br, "intended", gen.intended()); s != "" {
			d.WriteString("  generator and bash disagree (a generator bug):\n" + s)
		}
	}
	d.WriteString(checkEngineParse(br, src, gen))
	if d.Len() == 0 {
		return ""
	}
	return fmt.Sprintf("%s\ninput: %q\n%s", name, src, d.String())
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}
