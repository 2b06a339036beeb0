package policy

import (
	"testing"
)

// TestPathRuleMatching covers Claude Code's pattern forms on Linux keys
// and on Windows paths (drive letters, backslashes, case, trailing dots
// and spaces, streams), through the OS-independent key form.
func TestPathRuleMatching(t *testing.T) {
	linux := &pathKeys{home: "/home/u", start: "/work/p", fold: false}
	windows := &pathKeys{home: pathKey(`C:\Users\Alice`, true), start: pathKey(`C:\Work\P`, true), fold: true, windows: true}
	tests := []struct {
		name, rule, base, path string
		keys                   *pathKeys
		want                   bool
	}{
		{"relative name any depth", "Read(.env)", "", "/work/p/sub/.env", linux, true},
		{"relative ./ anchored", "Read(./.env)", "", "/work/p/.env", linux, true},
		{"relative ./ not deeper", "Read(./.env)", "", "/work/p/sub/.env", linux, false},
		{"glob any depth", "Read(*.env)", "", "/work/p/a/b/x.env", linux, true},
		{"glob outside start", "Read(*.env)", "", "/other/x.env", linux, false},
		{"doublestar", "Edit(./src/**/*.ts)", "", "/work/p/src/a/b/c.ts", linux, true},
		{"doublestar zero dirs", "Edit(./src/**/*.ts)", "", "/work/p/src/c.ts", linux, true},
		{"doublestar other ext", "Edit(./src/**/*.ts)", "", "/work/p/src/c.go", linux, false},
		{"directory matches contents", "Read(./secrets)", "", "/work/p/secrets/k/key", linux, true},
		{"trailing slash", "Read(./secrets/)", "", "/work/p/secrets/key", linux, true},
		{"absolute //", "Read(//etc/**)", "", "/etc/passwd", linux, true},
		{"absolute // not elsewhere", "Read(//etc/**)", "", "/work/p/etc/x", linux, false},
		{"home ~/", "Read(~/.ssh/**)", "", "/home/u/.ssh/id_rsa", linux, true},
		{"home ~/ not other home", "Read(~/.ssh/**)", "", "/home/v/.ssh/id_rsa", linux, false},
		{"/ relative to project", "Edit(/build/**)", "/proj", "/proj/build/x", linux, true},
		{"/ not the filesystem root", "Edit(/build/**)", "/proj", "/build/x", linux, false},
		{"bare tool", "Edit", "", "/anything/at/all", linux, true},
		{"star pattern is bare", "Edit(*)", "", "/anything", linux, true},
		{"question mark", "Read(./f?.txt)", "", "/work/p/f1.txt", linux, true},
		{"class", "Read(./f[0-9].txt)", "", "/work/p/f7.txt", linux, true},
		{"case on Linux", "Read(./.ENV)", "", "/work/p/.env", linux, false},

		{"windows drive //c", "Read(//c/Users/**)", "", `C:\Users\Alice\x`, windows, true},
		{"windows drive case", "Read(//C/users/**)", "", `c:\USERS\alice\x`, windows, true},
		{"windows other drive", "Read(//c/**)", "", `D:\x`, windows, false},
		{"windows home", "Read(~/.ssh/**)", "", `C:\Users\Alice\.ssh\id_rsa`, windows, true},
		{"windows relative", "Read(./.env)", "", `C:\Work\P\.env`, windows, true},
		{"windows case-insensitive", "Read(./.env)", "", `C:\WORK\p\.ENV`, windows, true},
		{"windows trailing dot", "Read(./.env)", "", `C:\Work\P\.env.`, windows, true},
		{"windows trailing space", "Read(./.env)", "", `C:\Work\P\.env `, windows, true},
		{"windows stream", "Read(./.env)", "", `C:\Work\P\.env::$DATA`, windows, true},
		{"windows named stream", "Edit(./secrets/**)", "", `C:\Work\P\secrets.\k:s`, windows, true},
		{"windows project /", "Edit(/build/**)", `C:\Proj`, `C:\Proj\build\x`, windows, true},
		{"windows forward slashes", "Read(./a/b)", "", `C:/Work/P/a/b`, windows, true},
		{"windows // without a drive", "Read(//etc/passwd)", "", `C:\etc\passwd`, windows, true},
		{"windows // without a drive, any drive", "Read(//etc/passwd)", "", `D:\etc\passwd`, windows, true},
		{"windows // without a drive, elsewhere", "Read(//etc/passwd)", "", `C:\Work\etc\passwd`, windows, false},
		{"windows // share", "Read(//srv/share/**)", "", `\\srv\share\x`, windows, true},
		{"linux // keeps /c", "Read(//etc/passwd)", "", "/c/etc/passwd", linux, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ok := parsePathRule(tt.rule)
			if !ok {
				t.Fatalf("parsePathRule(%q) failed", tt.rule)
			}
			r.Base = tt.base
			if got := r.matches(pathKey(tt.path, tt.keys.fold), tt.keys); got != tt.want {
				t.Errorf("%s matches %q = %v, want %v", tt.rule, tt.path, got, tt.want)
			}
		})
	}
}

func TestParsePathRule(t *testing.T) {
	for text, want := range map[string][2]string{
		"Read(./.env)": {"Read", "./.env"}, "Edit": {"Edit", ""}, "Write(src/**)": {"Edit", "src/**"},
		"Read": {"Read", ""}, "Edit(*)": {"Edit", ""}, " Read( x ) ": {"Read", "x"},
	} {
		r, ok := parsePathRule(text)
		if !ok || r.Tool != want[0] || r.Pattern != want[1] {
			t.Errorf("parsePathRule(%q) = %+v, %v", text, r, ok)
		}
	}
	for _, text := range []string{"Bash(ls)", "WebFetch", "Reader(x)", "Edits"} {
		if _, ok := parsePathRule(text); ok {
			t.Errorf("parsePathRule(%q) accepted", text)
		}
	}
}

func TestPathKeyAndSensitiveWindowsNames(t *testing.T) {
	for in, want := range map[string]string{
		`C:\Users\A\.git\config.`: "/c/Users/A/.git/config", `c:\x\.git.\config`: "/c/x/.git/config",
		"/a/b": "/a/b", "/a/./b/../c": "/a/./b/../c", `/a/.env:s:$DATA`: "/a/.env", "/a/b. /c": "/a/b/c",
	} {
		if got := pathKey(in, false); got != want {
			t.Errorf("pathKey(%q) = %q, want %q", in, got, want)
		}
	}
	e := &pathEnv{p: &Policy{Home: "/home/u"}, startDir: "/work/p"}
	e.init()
	for _, p := range []string{`C:\w\.git\config.`, `C:\w\.git\config `, `C:\w\.git.\config`, `C:\w\.claude.\settings.json`,
		`C:\w\.git\config::$DATA`, `C:\w\.GIT\HOOKS\pre-commit`, `C:\w\GIT~1\config`, `C:\w\.env:x`} {
		if e.sensitive(p) == "" {
			t.Errorf("sensitive(%q) = no", p)
		}
	}
	for _, p := range []string{`C:\w\main.go`, `C:\w\.git\HEAD`, `C:\w\notes~x.txt`} {
		if why := e.sensitive(p); why != "" {
			t.Errorf("sensitive(%q) = %s", p, why)
		}
	}
}
