package resolve

import (
	"io/fs"
	"strings"
	"time"
)

// fakeFS is an in-memory file system. With fold set, names compare
// case-insensitively and `/` equals `\`, as on Windows.
type fakeFS struct {
	fold  bool
	files map[string]fs.FileMode
}

// newFakeFS creates files from specs: "path" is a regular file with mode
// 0o755, "path\" or "path/" a directory, "alias:path" an irregular file
// (an App Execution Alias), "noexec:path" a regular file with mode 0o644.
// Parent directories are created implicitly.
func newFakeFS(fold bool, specs ...string) *fakeFS {
	f := &fakeFS{fold: fold, files: map[string]fs.FileMode{}}
	for _, s := range specs {
		mode := fs.FileMode(0o755)
		if rest, ok := strings.CutPrefix(s, "alias:"); ok {
			s, mode = rest, fs.ModeIrregular
		} else if rest, ok := strings.CutPrefix(s, "noexec:"); ok {
			s, mode = rest, 0o644
		}
		if strings.HasSuffix(s, `\`) || strings.HasSuffix(s, "/") {
			s, mode = s[:len(s)-1], fs.ModeDir|0o755
		}
		f.files[f.key(s)] = mode
		for i := len(s) - 1; i > 0; i-- {
			if s[i] == '/' || (fold && s[i] == '\\') {
				if k := f.key(s[:i]); k != "" && f.files[k] == 0 {
					f.files[k] = fs.ModeDir | 0o755
				}
			}
		}
	}
	return f
}

func (f *fakeFS) key(name string) string {
	if f.fold {
		return strings.ToLower(strings.ReplaceAll(name, "/", `\`))
	}
	return name
}

func (f *fakeFS) Stat(name string) (fs.FileInfo, error) {
	m, ok := f.files[f.key(name)]
	if !ok {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	return fakeInfo{name: name, mode: m}, nil
}

type fakeInfo struct {
	name string
	mode fs.FileMode
}

func (i fakeInfo) Name() string       { return i.name }
func (i fakeInfo) Size() int64        { return 0 }
func (i fakeInfo) Mode() fs.FileMode  { return i.mode }
func (i fakeInfo) ModTime() time.Time { return time.Time{} }
func (i fakeInfo) IsDir() bool        { return i.mode.IsDir() }
func (i fakeInfo) Sys() any           { return nil }
