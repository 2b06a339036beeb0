package resolve

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"runtime"
	"strings"
)

// Sentinels for errors.Is. Every failure of Find is an *Error wrapping one.
var (
	// ErrNotFound: no program of that name (status 127).
	ErrNotFound = errors.New("not found in PATH")
	// ErrNoFile: a name with a path separator names no file (status
	// 127; bash says "No such file or directory"). Such a name is never
	// searched in PATH.
	ErrNoFile = errors.New("no such file")
	// ErrDot: the name was found only through a relative PATH entry such
	// as "." or an empty one; chainrun never runs it (status 127). Write
	// ./name (or .\name) to run a program in the current directory.
	ErrDot = errors.New("found only relative to the current directory")
	// ErrNotExecutable: the file exists but cannot be run (status 126).
	ErrNotExecutable = errors.New("not executable")
)

// Error reports a failed resolution.
type Error struct {
	Name string
	Err  error
	// Hint suggests a fix ("use ./name").
	Hint string
}

func (e *Error) Error() string {
	s := e.Err.Error()
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// FS is the file system Find consults; tests substitute a fake.
type FS interface {
	Stat(name string) (fs.FileInfo, error)
}

type osFS struct{}

func (osFS) Stat(name string) (fs.FileInfo, error) { return os.Stat(name) }

// Resolver finds programs by one OS's rules. The zero value uses the host
// OS and the real file system.
type Resolver struct {
	// GOOS selects the rules: "windows", or anything else for POSIX.
	GOOS string
	// FS is consulted for every candidate; nil means the real one.
	FS FS
}

// Find resolves name with the host's rules; see Resolver.Find.
func Find(name, dir string, env []string) (Target, error) {
	return (&Resolver{}).Find(name, dir, env)
}

// Find resolves the program a segment names. env is the segment's own
// environment (its PATH, not chainrun's); dir is the chain's current
// directory ("" means the process's own when the rules are the host's).
// A name containing a separator is taken relative to dir and never
// searched; a bare name is searched in PATH only, never in the current
// directory. On Windows (see findWindows) PATHEXT applies, a bare cmd.exe
// built-in name yields a CmdBuiltin target, and every Target is
// classified: a file Windows cannot run directly or through cmd.exe or
// PowerShell is ErrNotExecutable.
func (r *Resolver) Find(name, dir string, env []string) (Target, error) {
	if dir == "" && r.goos() == runtime.GOOS {
		if wd, err := os.Getwd(); err == nil {
			dir = wd
		}
	}
	if r.goos() == "windows" {
		return r.findWindows(name, dir, env)
	}
	return r.findPOSIX(name, dir, env)
}

func (r *Resolver) goos() string {
	if r.GOOS == "" {
		return runtime.GOOS
	}
	return r.GOOS
}

func (r *Resolver) fs() FS {
	if r.FS == nil {
		return osFS{}
	}
	return r.FS
}

func (r *Resolver) findPOSIX(name, dir string, env []string) (Target, error) {
	if name == "" {
		return Target{}, &Error{Name: name, Err: ErrNotFound}
	}
	if strings.Contains(name, "/") {
		p := name
		if !path.IsAbs(p) {
			p = path.Join(dir, p)
		}
		t, err := r.checkPOSIX(name, p)
		if errors.Is(err, ErrNotFound) {
			err = &Error{Name: name, Err: ErrNoFile}
		}
		return t, err
	}
	dotHit := false
	for _, d := range splitPOSIXList(lookupEnv(env, "PATH", false)) {
		rel := d == "" || !path.IsAbs(d)
		if d == "" {
			d = "."
		}
		p := path.Join(d, name)
		if rel {
			p = path.Join(dir, p)
		}
		t, err := r.checkPOSIX(name, p)
		if err != nil {
			continue
		}
		if rel {
			dotHit = true
			continue
		}
		return t, nil
	}
	if dotHit {
		return Target{}, &Error{Name: name, Err: ErrDot, Hint: "use ./" + name + " to run it"}
	}
	return Target{}, &Error{Name: name, Err: ErrNotFound}
}

func (r *Resolver) checkPOSIX(name, p string) (Target, error) {
	fi, err := r.fs().Stat(p)
	if err != nil {
		return Target{}, &Error{Name: name, Err: ErrNotFound}
	}
	if fi.IsDir() || fi.Mode()&0o111 == 0 {
		return Target{}, &Error{Name: name, Err: ErrNotExecutable}
	}
	return Target{Path: p, Kind: Native}, nil
}

// splitPOSIXList splits a colon-separated PATH; an empty PATH has no
// entries. (filepath.SplitList would use the host's separator: these rules
// are plain text so that they hold whatever the host.)
func splitPOSIXList(list string) []string {
	if list == "" {
		return nil
	}
	return strings.Split(list, ":")
}

// lookupEnv returns the last value of key in env; with fold, keys compare
// case-insensitively (Windows).
func lookupEnv(env []string, key string, fold bool) string {
	val := ""
	for _, kv := range env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		if k == key || (fold && strings.EqualFold(k, key)) {
			val = v
		}
	}
	return val
}
