package tools

import (
	"runtime"
	"testing"
)

func TestWindowsShadowed(t *testing.T) {
	const root = `C:\Windows`
	cases := []struct {
		path string
		args []string
		want bool
	}{
		{`C:\Windows\System32\find.exe`, []string{"find", "x"}, false}, // find "x": Windows' own
		{`C:\Windows\System32\find.exe`, []string{"find", "/i", "x", "f.txt"}, false},
		{`C:\Windows\System32\find.exe`, []string{"find", ".", "-name", "x"}, true},
		{`C:\Windows\System32\find.exe`, []string{"find"}, true},
		{`C:\Windows\System32\find.exe`, []string{"find", "src/"}, true},
		{`C:\Windows\System32\find.exe`, []string{"find", "-name", "x"}, true},
		{`c:\windows\system32\FIND.EXE`, []string{"find", "."}, true}, // case folded
		{`C:\Program Files\Git\usr\bin\find.exe`, []string{"find", ".", "-name", "x"}, false},
		{`C:\Windows\System32\sort.exe`, []string{"sort", "-u", "f"}, true},
		{`C:\Windows\System32\sort.exe`, []string{"sort", "f"}, true},
		{`C:\Windows\System32\sort.exe`, []string{"sort", "/R", "f"}, false},
		{`C:\Windows\System32\sort.exe`, []string{"sort", "/+3"}, false},
		{`C:\Windows\System32\where.exe`, []string{"where", "x"}, false},
	}
	for _, c := range cases {
		if got := WindowsShadowed(c.path, root, c.args); got != c.want {
			t.Errorf("WindowsShadowed(%s, %q) = %v, want %v", c.path, c.args, got, c.want)
		}
	}
	if WindowsShadowed(`C:\Windows\System32\find.exe`, "", []string{"find", "."}) {
		t.Error("without SystemRoot nothing is Windows' own")
	}
}

func TestCmdShadowed(t *testing.T) {
	cases := []struct {
		args []string
		want bool
	}{
		{[]string{"mkdir", "-p", "build"}, true},
		{[]string{"MKDIR", "a"}, true},
		{[]string{"rmdir", "/s", "/q", "build"}, false},
		{[]string{"rmdir", "x"}, true},
		{[]string{"dir"}, false},
	}
	for _, c := range cases {
		if got := CmdShadowed(c.args); got != c.want {
			t.Errorf("CmdShadowed(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}

func TestModes(t *testing.T) {
	for _, c := range []struct {
		in      string
		windows bool
		want    Mode
	}{{"", true, ModeMissing}, {"", false, ModeNever}, {"ALWAYS", false, ModeAlways}, {"never", true, ModeNever}, {"missing", false, ModeMissing}} {
		m, err := ParseMode(c.in)
		if err != nil || m.For(c.windows) != c.want {
			t.Errorf("ParseMode(%q).For(%v) = %q, %v; want %q", c.in, c.windows, m.For(c.windows), err, c.want)
		}
	}
	if _, err := ParseMode("sometimes"); err == nil {
		t.Error("ParseMode(sometimes) accepted")
	}
}

func TestParseOptions(t *testing.T) {
	head, _ := Lookup("head")
	grep, _ := Lookup("grep")
	cases := []struct {
		spec     *Spec
		args     []string
		opts     string // key=val pairs
		operands []string
		err      string
	}{
		{&head.Spec, []string{"-20", "f"}, "n=20", []string{"f"}, ""},
		{&head.Spec, []string{"f", "-n", "3"}, "n=3", []string{"f"}, ""},
		{&head.Spec, []string{"--li=4", "--", "-f"}, "n=4", []string{"-f"}, ""},
		{&head.Spec, []string{"-n"}, "", nil, "option -n requires an argument"},
		{&head.Spec, []string{"-Z"}, "", nil, "option -Z not supported"},
		{&grep.Spec, []string{"-rnw", "x", "--include=*.go", "."}, "r= n= w= include=*.go", []string{"x", "."}, ""},
		{&grep.Spec, []string{"--exc=x"}, "", nil, "option --exc is ambiguous (exclude, exclude-dir)"},
	}
	for _, c := range cases {
		opts, operands, err := parse(c.spec, c.args)
		var got []string
		for _, o := range opts {
			got = append(got, o.key+"="+o.val)
		}
		if e := errText(err); e != c.err {
			t.Errorf("parse(%q): error %q, want %q", c.args, e, c.err)
			continue
		}
		if err == nil && (joinWords(got) != c.opts || joinWords(operands) != joinWords(c.operands)) {
			t.Errorf("parse(%q) = %q %q, want %q %q", c.args, got, operands, c.opts, c.operands)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func joinWords(w []string) string {
	s := ""
	for i, x := range w {
		if i > 0 {
			s += " "
		}
		s += x
	}
	return s
}

func TestJoinShown(t *testing.T) {
	want := `C:\src/a.txt`
	if runtime.GOOS == "windows" {
		want = `C:\src\a.txt` // a directory written with backslashes keeps them
	}
	for _, c := range [][3]string{{".", "a", "./a"}, {"sub/", "a", "sub/a"}, {`C:\src`, "a.txt", want}, {"C:/src", "a", "C:/src/a"}} {
		if got := joinShown(c[0], c[1]); got != c[2] {
			t.Errorf("joinShown(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}
