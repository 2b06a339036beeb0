package redirect

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/internal/testprog"
)

// fdTable is a segment's starting table: distinct files for 0, 1, 2.
func fdTable(t *testing.T) []*os.File {
	t.Helper()
	var fs []*os.File
	for _, n := range []string{"stdin", "stdout", "stderr"} {
		f, err := os.Create(filepath.Join(testprog.TempDir(t), n))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		fs = append(fs, f)
	}
	return fs
}

// name describes where each fd of a table points.
func names(dir string, base []*os.File, out []*os.File) []string {
	var s []string
	for _, f := range out {
		switch {
		case f == nil:
			s = append(s, "-")
		case f == base[0]:
			s = append(s, "in")
		case f == base[1]:
			s = append(s, "out")
		case f == base[2]:
			s = append(s, "err")
		default:
			n := f.Name()
			if rel, err := filepath.Rel(dir, n); err == nil && !strings.HasPrefix(rel, "..") {
				n = rel
			}
			s = append(s, n)
		}
	}
	return s
}

func TestApply(t *testing.T) {
	tests := []struct {
		name  string
		rules []chain.Redirect
		want  string // fd table after, as names joined by spaces
	}{
		{"none", nil, "in out err"},
		{">f", []chain.Redirect{{Fd: 1, Op: chain.RedirOut, Target: "f"}}, "in f err"},
		{"2>f", []chain.Redirect{{Fd: 2, Op: chain.RedirOut, Target: "f"}}, "in out f"},
		{">f 2>&1", []chain.Redirect{{Fd: 1, Op: chain.RedirOut, Target: "f"}, {Fd: 2, Op: chain.RedirDupOut, Target: "1"}}, "in f f"},
		{"2>&1 >f", []chain.Redirect{{Fd: 2, Op: chain.RedirDupOut, Target: "1"}, {Fd: 1, Op: chain.RedirOut, Target: "f"}}, "in f out"},
		{">&2", []chain.Redirect{{Fd: 1, Op: chain.RedirDupOut, Target: "2"}}, "in err err"},
		{"1>&2 2>&1", []chain.Redirect{{Fd: 1, Op: chain.RedirDupOut, Target: "2"}, {Fd: 2, Op: chain.RedirDupOut, Target: "1"}}, "in err err"},
		{">a >b (last wins)", []chain.Redirect{{Fd: 1, Op: chain.RedirOut, Target: "a"}, {Fd: 1, Op: chain.RedirOut, Target: "b"}}, "in b err"},
		{"&>f", []chain.Redirect{{Fd: 1, Op: chain.RedirBoth, Target: "f"}}, "in f f"},
		{"&>>f", []chain.Redirect{{Fd: 1, Op: chain.RedirBothAppend, Target: "f"}}, "in f f"},
		{">>f", []chain.Redirect{{Fd: 1, Op: chain.RedirAppend, Target: "f"}}, "in f err"},
		{"2>>f", []chain.Redirect{{Fd: 2, Op: chain.RedirAppend, Target: "f"}}, "in out f"},
		{"<f", []chain.Redirect{{Fd: 0, Op: chain.RedirIn, Target: "f"}}, "f out err"},
		{"3>f 1>&3", []chain.Redirect{{Fd: 3, Op: chain.RedirOut, Target: "f"}, {Fd: 1, Op: chain.RedirDupOut, Target: "3"}}, "in f err f"},
		{"0<&2", []chain.Redirect{{Fd: 0, Op: chain.RedirDupIn, Target: "2"}}, "err out err"},
		{"4<f", []chain.Redirect{{Fd: 4, Op: chain.RedirIn, Target: "f"}}, "in out err - f"},
		{">/dev/null", []chain.Redirect{{Fd: 1, Op: chain.RedirOut, Target: "/dev/null"}}, "in " + os.DevNull + " err"},
		{">/dev/stderr", []chain.Redirect{{Fd: 1, Op: chain.RedirOut, Target: "/dev/stderr"}}, "in err err"},
		{"2>/dev/stdout >f", []chain.Redirect{{Fd: 2, Op: chain.RedirOut, Target: "/dev/stdout"}, {Fd: 1, Op: chain.RedirOut, Target: "f"}}, "in f out"},
		{"</dev/stdin", []chain.Redirect{{Fd: 0, Op: chain.RedirIn, Target: "/dev/stdin"}}, "in out err"},
		{"&>/dev/stdout", []chain.Redirect{{Fd: 1, Op: chain.RedirBoth, Target: "/dev/stdout"}}, "in out out"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := testprog.TempDir(t)
			os.WriteFile(filepath.Join(dir, "f"), []byte("data"), 0o644)
			base := fdTable(t)
			o := &Opener{Dir: dir}
			out, opened, err := o.Apply(base, tt.rules)
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				for _, f := range opened {
					f.Close()
				}
			}()
			if got := strings.Join(names(dir, base, out), " "); got != tt.want {
				t.Errorf("table %q, want %q", got, tt.want)
			}
			if len(base) != 3 || base[1].Name() == "" {
				t.Error("Apply modified its input")
			}
		})
	}
}

func TestApplyFileEffects(t *testing.T) {
	dir := testprog.TempDir(t)
	p := filepath.Join(dir, "f")
	os.WriteFile(p, []byte("old\n"), 0o644)
	o := &Opener{Dir: dir}
	base := fdTable(t)

	out, opened, err := o.Apply(base, []chain.Redirect{{Fd: 1, Op: chain.RedirAppend, Target: "f"}})
	if err != nil {
		t.Fatal(err)
	}
	out[1].WriteString("new\n")
	closeAll(opened)
	if b, _ := os.ReadFile(p); string(b) != "old\nnew\n" {
		t.Errorf(">> gave %q", b)
	}

	out, opened, err = o.Apply(base, []chain.Redirect{{Fd: 1, Op: chain.RedirOut, Target: "f"}})
	if err != nil {
		t.Fatal(err)
	}
	closeAll(opened)
	if b, _ := os.ReadFile(p); len(b) != 0 {
		t.Errorf("> did not truncate: %q", b)
	}
	_ = out

	// Created with 0666 minus the umask.
	_, opened, err = o.Apply(base, []chain.Redirect{{Fd: 1, Op: chain.RedirOut, Target: "sub-new"}})
	if err != nil {
		t.Fatal(err)
	}
	closeAll(opened)
	fi, _ := os.Stat(filepath.Join(dir, "sub-new"))
	if runtime.GOOS != "windows" && fi.Mode().Perm()&0o111 != 0 {
		t.Errorf("mode %v", fi.Mode())
	}

	// Relative targets resolve against Dir, not the process's directory.
	if _, err := os.Stat("sub-new"); err == nil {
		t.Error("created in the process directory")
	}
}

func closeAll(fs []*os.File) {
	for _, f := range fs {
		f.Close()
	}
}

func TestApplyErrors(t *testing.T) {
	dir := testprog.TempDir(t)
	os.WriteFile(filepath.Join(dir, "ro"), nil, 0o444)
	tests := []struct {
		name  string
		rules []chain.Redirect
		msg   string
	}{
		{"missing dir", []chain.Redirect{{Fd: 1, Op: chain.RedirOut, Target: "nodir/f"}}, "nodir/f: No such file or directory"},
		{"missing input", []chain.Redirect{{Fd: 0, Op: chain.RedirIn, Target: "nofile"}}, "nofile: No such file or directory"},
		{"directory", []chain.Redirect{{Fd: 1, Op: chain.RedirOut, Target: "."}}, ".: Is a directory"},
		{"dup of a word", []chain.Redirect{{Fd: 1, Op: chain.RedirDupOut, Target: "f"}}, "f: ambiguous redirect"},
		{"closed fd", []chain.Redirect{{Fd: 1, Op: chain.RedirDupOut, Target: "5"}}, "5: Bad file descriptor"},
		{"closed fd in", []chain.Redirect{{Fd: 0, Op: chain.RedirDupIn, Target: "7"}}, "7: Bad file descriptor"},
		{"close form", []chain.Redirect{{Fd: 1, Op: chain.RedirDupOut, Target: "-"}}, "-: unsupported redirect"},
		{"fd above 9", []chain.Redirect{{Fd: 10, Op: chain.RedirOut, Target: "f"}}, "10: unsupported redirect"},
		{"read-write form", []chain.Redirect{{Fd: 0, Op: chain.RedirOp("<>"), Target: "f"}}, "f: unsupported redirect"},
	}
	if os.Geteuid() != 0 && !testprog.UnderWine() {
		// Under Wine run as root a read-only file opens for writing;
		// the case runs on Windows and as any other POSIX user.
		tests = append(tests, struct {
			name  string
			rules []chain.Redirect
			msg   string
		}{"permission", []chain.Redirect{{Fd: 1, Op: chain.RedirOut, Target: "ro"}}, "ro: Permission denied"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := fdTable(t)
			// On failure the table as it stood and the files opened so
			// far come back, still open, for the caller's message.
			rules := append([]chain.Redirect{{Fd: 3, Op: chain.RedirOut, Target: "opened-first"}}, tt.rules...)
			out, opened, err := (&Opener{Dir: dir}).Apply(base, rules)
			var re *Error
			if !errors.As(err, &re) || len(opened) != 1 || len(out) < 4 || out[3] != opened[0] || out[2] != base[2] {
				t.Fatalf("err %v out %v opened %v", err, out, opened)
			}
			closeAll(opened)
			if err.Error() != tt.msg {
				t.Errorf("message %q, want %q", err.Error(), tt.msg)
			}
		})
	}
}

func TestNullDevice(t *testing.T) {
	tests := []struct {
		target  string
		windows bool
		want    bool
	}{
		{"/dev/null", false, true},
		{"/dev/null", true, true},
		{"nul", false, false},
		{"NUL", false, false},
		{"nul.txt", false, false},
		{"nul", true, true},
		{"NUL", true, true},
		{"Nul", true, true},
		{"nul.txt", true, true},
		{"NUL.log", true, true},
		{`logs\nul`, true, true},
		{"logs/NUL.tar.gz", true, true},
		{"C:nul", true, true},
		{"null", true, false},
		{"nul_x", true, false},
		{"anul", true, false},
		{"/dev/nul", false, false},
		{"", true, false},
	}
	for _, tt := range tests {
		if got := NullDevice(tt.target, tt.windows); got != tt.want {
			t.Errorf("NullDevice(%q, %v) = %v, want %v", tt.target, tt.windows, got, tt.want)
		}
	}
}

func TestNullDeviceOpens(t *testing.T) {
	// On POSIX "nul" is an ordinary file; /dev/null is never created.
	// (Windows itself reads "nul" as the device whatever the rules, so
	// that half is POSIX's.)
	dir := testprog.TempDir(t)
	base := fdTable(t)
	if runtime.GOOS != "windows" {
		_, opened, err := (&Opener{Dir: dir}).Apply(base, []chain.Redirect{{Fd: 2, Op: chain.RedirOut, Target: "nul"}, {Fd: 1, Op: chain.RedirOut, Target: "/dev/null"}})
		if err != nil {
			t.Fatal(err)
		}
		closeAll(opened)
		if _, err := os.Stat(filepath.Join(dir, "nul")); err != nil {
			t.Error("nul was not created as a file on POSIX")
		}
	}
	// With Windows rules "nul.txt" opens the null device and creates nothing.
	_, opened, err := (&Opener{Dir: dir, Windows: true}).Apply(base, []chain.Redirect{{Fd: 1, Op: chain.RedirOut, Target: "nul.txt"}})
	if err != nil {
		t.Fatal(err)
	}
	if opened[0].Name() != os.DevNull {
		t.Errorf("opened %q", opened[0].Name())
	}
	closeAll(opened)
	// Windows stats any "nul.txt" as the device itself: no file is one
	// that is not regular.
	if fi, err := os.Stat(filepath.Join(dir, "nul.txt")); err == nil && fi.Mode().IsRegular() {
		t.Error("nul.txt created")
	}
}

// TestApplyText checks that a heredoc's or here-string's body is the fd's
// input, through a pipe whose writer ends when the body is written or when
// the read end is closed unread, so no goroutine outlives the segment.
func TestApplyText(t *testing.T) {
	big := strings.Repeat("x", 1<<20) // far above any pipe buffer
	tests := []struct {
		name  string
		rules []chain.Redirect
		fd    int
		want  string // "" with read false: closed unread
		read  bool
	}{
		{"heredoc on 0", []chain.Redirect{{Fd: 0, Op: chain.RedirHeredoc, Body: "a\nb\n"}}, 0, "a\nb\n", true},
		{"here-string on 3", []chain.Redirect{{Fd: 3, Op: chain.RedirHereString, Body: "w\n"}}, 3, "w\n", true},
		{"empty body", []chain.Redirect{{Fd: 0, Op: chain.RedirHeredocTabs}}, 0, "", true},
		{"last one wins", []chain.Redirect{{Fd: 0, Op: chain.RedirHeredoc, Body: "1\n"},
			{Fd: 0, Op: chain.RedirHereString, Body: "2\n"}}, 0, "2\n", true},
		{"big body read", []chain.Redirect{{Fd: 0, Op: chain.RedirHeredoc, Body: big}}, 0, big, true},
		{"big body unread", []chain.Redirect{{Fd: 0, Op: chain.RedirHeredoc, Body: big}}, 0, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var wg sync.WaitGroup
			o := Opener{Dir: testprog.TempDir(t), Feeds: &wg}
			files, opened, err := o.Apply([]*os.File{nil, nil, nil}, tt.rules)
			if err != nil {
				t.Fatal(err)
			}
			if tt.read {
				got, err := io.ReadAll(files[tt.fd])
				if err != nil || string(got) != tt.want {
					t.Errorf("read %d bytes (%v), want %d", len(got), err, len(tt.want))
				}
			}
			for _, f := range opened {
				f.Close()
			}
			done := make(chan struct{})
			go func() { wg.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("a body's writer outlived its read end")
			}
		})
	}
}

// TestWindowsPathForms opens targets in Windows' path forms where
// Windows does: a path rooted on the drive on the directory's drive, not
// below the directory; one relative to the drive in the directory.
func TestWindowsPathForms(t *testing.T) {
	if runtime.GOOS != "windows" {
		t.Skip("Windows: drive letters (spec.JoinPath's table covers the rule on every OS)")
	}
	dir, other := testprog.TempDir(t), testprog.TempDir(t)
	vol := filepath.VolumeName(dir)
	base := fdTable(t)
	for target, want := range map[string]string{
		other[len(vol):] + `\rooted`:                    filepath.Join(other, "rooted"),
		filepath.ToSlash(other[len(vol):]) + "/slashed": filepath.Join(other, "slashed"),
		vol + "relative":                                filepath.Join(dir, "relative"),
	} {
		_, opened, err := (&Opener{Dir: dir}).Apply(base, []chain.Redirect{{Fd: 1, Op: chain.RedirOut, Target: target}})
		if err != nil {
			t.Fatal(err)
		}
		closeAll(opened)
		if _, err := os.Stat(want); err != nil {
			t.Errorf("> %s: %s not made: %v", target, want, err)
		}
	}
}
