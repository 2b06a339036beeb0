package spec

import (
	"reflect"
	"testing"
)

func TestSetOperands(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []string
		ok   bool
	}{
		{[]string{"--", "a", "-b"}, []string{"a", "-b"}, true},
		{[]string{"--"}, []string{}, true},
		{[]string{"-e", "x", "-u"}, []string{"x", "-u"}, true},
		{[]string{"-euo", "pipefail"}, nil, false},
		{[]string{"-q", "x"}, nil, false},
	} {
		got, ok := SetOperands(tt.args)
		if ok != tt.ok || len(got) != len(tt.want) || ok && !reflect.DeepEqual(got, tt.want) {
			t.Errorf("SetOperands(%q) = %q, %v; want %q, %v", tt.args, got, ok, tt.want, tt.ok)
		}
	}
}

func TestSet(t *testing.T) {
	on := func(o string) SetChange { return SetChange{Option: o, On: true} }
	off := func(o string) SetChange { return SetChange{Option: o} }
	for _, tt := range []struct {
		args    []string
		want    []SetChange
		err     string
		invalid bool
	}{
		{args: []string{"-e"}, want: []SetChange{on("errexit")}},
		{args: []string{"+eu"}, want: []SetChange{off("errexit"), off("nounset")}},
		{args: []string{"-euo", "pipefail"}, want: []SetChange{on("errexit"), on("nounset"), on("pipefail")}},
		{args: []string{"-oe", "pipefail"}, want: []SetChange{on("pipefail"), on("errexit")}},
		{args: []string{"-o", "errexit", "+o", "nounset"}, want: []SetChange{on("errexit"), off("nounset")}},
		{args: nil, err: "set alone lists the shell's variables, which chainrun does not; use env or printenv"},
		{args: []string{"--", "a"}},
		{args: []string{"-e", "a"}, want: []SetChange{on("errexit")}},
		{args: []string{"-"}, err: "-: set - and set + are not supported; write set -- to end the options"},
		{args: []string{"-xv"}, err: "-v: not supported: " + SetSupported},
		{args: []string{"+x"}, want: []SetChange{off("xtrace")}},
		{args: []string{"-o", "vi"}, err: "-o vi: not supported: " + SetSupported},
		{args: []string{"-o"}, err: "-o: set -o alone lists the options, which chainrun does not"},
		{args: []string{"-eq"}, err: "-q: invalid option", invalid: true},
		{args: []string{"-o", "nosuch"}, err: "nosuch: invalid option name", invalid: true},
	} {
		got, err := Set(tt.args)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err || err.Invalid != tt.invalid {
				t.Errorf("Set(%q) = %v, want error %q (invalid %v)", tt.args, err, tt.err, tt.invalid)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Set(%q) = %v, %v; want %v", tt.args, got, err, tt.want)
		}
	}
}

func TestCommandAndType(t *testing.T) {
	for _, tt := range []struct {
		args  []string
		query byte
		at    int
		bad   string
	}{
		{[]string{"ls", "-l"}, 0, 0, ""},
		{[]string{"-v", "ls"}, 'v', 1, ""},
		{[]string{"-vV", "ls"}, 'V', 1, ""},
		{[]string{"-V", "-v", "ls"}, 'v', 2, ""},
		{[]string{"--", "-v"}, 0, 1, ""},
		{[]string{"-p", "ls"}, 0, 0, "-p"},
		{[]string{"-x"}, 0, 0, "-x"},
		{nil, 0, 0, ""},
	} {
		q, at, bad := Command(tt.args)
		if q != tt.query || at != tt.at || bad != tt.bad {
			t.Errorf("Command(%q) = %q, %d, %q; want %q, %d, %q", tt.args, q, at, bad, tt.query, tt.at, tt.bad)
		}
	}
	for _, tt := range []struct {
		args []string
		opts string
		at   int
		bad  string
	}{
		{[]string{"ls"}, "", 0, ""},
		{[]string{"-tp", "-P", "ls"}, "tpP", 2, ""},
		{[]string{"-f", "--", "-t"}, "f", 2, ""},
		{[]string{"-a", "ls"}, "", 0, "-a"},
	} {
		opts, at, bad := Type(tt.args)
		if opts != tt.opts || at != tt.at || bad != tt.bad {
			t.Errorf("Type(%q) = %q, %d, %q; want %q, %d, %q", tt.args, opts, at, bad, tt.opts, tt.at, tt.bad)
		}
	}
}

func TestRead(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want ReadArgs
		bad  string
	}{
		{nil, ReadArgs{Delim: '\n'}, ""},
		{[]string{"-r", "a", "b"}, ReadArgs{Raw: true, Delim: '\n', Names: []string{"a", "b"}}, ""},
		{[]string{"-rd", ",", "a"}, ReadArgs{Raw: true, Delim: ',', Names: []string{"a"}}, ""},
		{[]string{"-d,", "a"}, ReadArgs{Delim: ',', Names: []string{"a"}}, ""},
		{[]string{"-d", "", "a"}, ReadArgs{Delim: 0, Names: []string{"a"}}, ""},
		{[]string{"--", "-r"}, ReadArgs{Delim: '\n', Names: []string{"-r"}}, ""},
		{[]string{"-a", "arr"}, ReadArgs{}, "-a"},
		{[]string{"-rp", "Go? ", "x"}, ReadArgs{Raw: true, Delim: '\n', Prompt: "Go? ", Names: []string{"x"}}, ""},
		{[]string{"-rt", "1", "x"}, ReadArgs{}, "-t"},
		{[]string{"-d"}, ReadArgs{}, "-d"},
	} {
		got, bad := Read(tt.args)
		if bad != tt.bad || (bad == "" && !reflect.DeepEqual(got, tt.want)) {
			t.Errorf("Read(%q) = %+v, %q; want %+v, %q", tt.args, got, bad, tt.want, tt.bad)
		}
	}
}
