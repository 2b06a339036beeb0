package resolve

import (
	"errors"
	"testing"
)

func TestFindPOSIX(t *testing.T) {
	for _, tt := range []struct {
		name    string
		files   []string
		path    string // PATH; default /p1:/p2
		find    string
		want    string
		wantErr error
	}{
		{name: "first match", files: []string{"/p1/a", "/p2/a"}, find: "a", want: "/p1/a"},
		{name: "second dir", files: []string{"/p2/a"}, find: "a", want: "/p2/a"},
		{name: "case-sensitive", files: []string{"/p1/A"}, find: "a", wantErr: ErrNotFound},
		{name: "no PATHEXT", files: []string{"/p1/a.exe"}, find: "a", wantErr: ErrNotFound},
		{name: "non-executable skipped", files: []string{"noexec:/p1/a", "/p2/a"}, find: "a", want: "/p2/a"},
		{name: "only non-executable", files: []string{"noexec:/p1/a"}, find: "a", wantErr: ErrNotFound},
		{name: "directory skipped", files: []string{"/p1/a/", "/p2/a"}, find: "a", want: "/p2/a"},
		{name: "dot entry", files: []string{"/w/a"}, path: ".", find: "a", wantErr: ErrDot},
		{name: "empty entry", files: []string{"/w/a"}, path: "/p1::/p2", find: "a", wantErr: ErrDot},
		{name: "trailing empty entry", files: []string{"/w/a"}, path: "/p1:", find: "a", wantErr: ErrDot},
		{name: "relative entry", files: []string{"/w/bin/a"}, path: "bin", find: "a", wantErr: ErrDot},
		{name: "relative entry then absolute", files: []string{"/w/bin/a", "/p2/a"}, path: "bin:/p2", find: "a", want: "/p2/a"},
		{name: "not in dir implicitly", files: []string{"/w/a"}, find: "a", wantErr: ErrNotFound},
		{name: "with slash", files: []string{"/w/x/a"}, find: "x/a", want: "/w/x/a"},
		{name: "dot slash", files: []string{"/w/a"}, find: "./a", want: "/w/a"},
		{name: "absolute", files: []string{"/x/a"}, find: "/x/a", want: "/x/a"},
		{name: "with slash never via PATH", files: []string{"/p1/x/a"}, find: "x/a", wantErr: ErrNoFile},
		{name: "with slash, no exec bit", files: []string{"noexec:/w/a"}, find: "./a", wantErr: ErrNotExecutable},
		{name: "with slash, directory", files: []string{"/w/d/"}, find: "./d", wantErr: ErrNotExecutable},
		{name: "empty name", find: "", wantErr: ErrNotFound},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.path
			if path == "" {
				path = "/p1:/p2"
			}
			r := &Resolver{GOOS: "linux", FS: newFakeFS(false, tt.files...)}
			got, err := r.Find(tt.find, "/w", []string{"PATH=" + path})
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Find(%q) = %+v, %v; want %v", tt.find, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != (Target{Path: tt.want, Kind: Native}) {
				t.Fatalf("Find(%q) = %+v, %v; want %s", tt.find, got, err, tt.want)
			}
		})
	}
}
