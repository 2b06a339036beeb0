package tools

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The file tools: mkdir, rmdir, rm, touch, cp and mv, with GNU's messages
// and statuses (1 when any operand failed; the others are still done).

func registerFiles() {
	register(&Tool{Name: "mkdir", Spec: Spec{Flags: "pv", LongFlags: map[string]string{"parents": "p", "verbose": "v"}}, run: mkdir})
	register(&Tool{Name: "rmdir", Spec: Spec{Flags: "p", LongFlags: map[string]string{"parents": "p",
		"ignore-fail-on-non-empty": ""}}, run: rmdir})
	register(&Tool{Name: "rm", Spec: Spec{Flags: "rRfd", LongFlags: map[string]string{"recursive": "r", "force": "f", "dir": "d"}}, run: rm})
	register(&Tool{Name: "touch", Spec: Spec{Flags: "cam", LongFlags: map[string]string{"no-create": "c"}}, run: touch})
	register(&Tool{Name: "cp", Spec: Spec{Flags: "rRfnv", Values: "t", LongFlags: map[string]string{"recursive": "r", "force": "f",
		"no-clobber": "n", "verbose": "v"}, LongValues: map[string]string{"target-directory": "t"}}, run: cp})
	register(&Tool{Name: "mv", Spec: Spec{Flags: "fnv", Values: "t", LongFlags: map[string]string{"force": "f", "no-clobber": "n",
		"verbose": "v"}, LongValues: map[string]string{"target-directory": "t"}}, run: mv})
}

// missing reports a tool run without operands: "mkdir: missing operand".
func (k *task) missing() int {
	what := "operand"
	if k.name == "touch" || k.name == "cp" || k.name == "mv" {
		what = "file operand"
	}
	k.errorf("missing %s\nTry '%s --help' for more information.", what, k.name)
	return 1
}

// each runs f on every operand, reporting failures; status 1 if any.
func (k *task) each(f func(operand string) error) int {
	if len(k.operands) == 0 {
		return k.missing()
	}
	status := 0
	for _, o := range k.operands {
		if k.stopped() {
			return 1
		}
		if err := f(o); err != nil {
			k.errorf("%s", err)
			status = 1
		}
	}
	k.out.flush()
	return status
}

// failure is a GNU message: "cannot create directory 'x': File exists".
func failure(what, operand string, err error) error {
	return errors.New(what + " " + quote(operand) + ": " + describe(err))
}

// quote is GNU's shell-escape-always quoting of a name in messages: 'x',
// "it's", and $'\n' pieces for control characters.
func quote(s string) string {
	q := shellQuote(s)
	if q == s {
		return "'" + s + "'"
	}
	return q
}

func mkdir(k *task) int {
	return k.each(func(o string) error {
		if has(k.opts, "p") {
			return k.mkdirParents(o)
		}
		return k.mkdirOne(o)
	})
}

// mkdirOne creates one directory, saying so under -v.
func (k *task) mkdirOne(o string) error {
	if err := os.Mkdir(k.path(o), 0o777); err != nil {
		return failure("cannot create directory", o, err)
	}
	if has(k.opts, "v") {
		k.out.WriteString("mkdir: created directory " + quote(o) + "\n")
	}
	return nil
}

// mkdirParents creates o and its missing parents, one at a time as GNU
// does (each named under -v); an existing directory is no error.
func (k *task) mkdirParents(o string) error {
	parts := strings.Split(filepath.ToSlash(o), "/")
	for i := range parts {
		p := strings.Join(parts[:i+1], "/")
		if parts[i] == "" || parts[i] == "." || parts[i] == ".." {
			continue
		}
		if fi, err := os.Stat(k.path(p)); err == nil && fi.IsDir() {
			continue
		}
		if err := k.mkdirOne(p); err != nil {
			return err
		}
	}
	return nil
}

func rmdir(k *task) int {
	return k.each(func(o string) error {
		for {
			if err := removeDir(k.path(o)); err != nil {
				if has(k.opts, "ignore-fail-on-non-empty") && isNotEmpty(err) {
					return nil
				}
				return failure("failed to remove", o, err)
			}
			parent := filepath.Dir(o)
			if !has(k.opts, "p") || parent == o || parent == "." || parent == "/" {
				return nil
			}
			o = parent
		}
	})
}

// removeDir removes an empty directory, and only a directory.
func removeDir(p string) error {
	fi, err := os.Lstat(p)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return errNotDir
	}
	return os.Remove(p)
}

func rm(k *task) int {
	force, recursive := has(k.opts, "f"), has(k.opts, "r") || has(k.opts, "R")
	if len(k.operands) == 0 && force {
		return 0
	}
	return k.each(func(o string) error {
		p := k.path(o)
		fi, err := os.Lstat(p)
		switch {
		case err != nil && force && errors.Is(err, fs.ErrNotExist):
			return nil
		case err != nil:
			return failure("cannot remove", o, err)
		case fi.IsDir() && !recursive && !has(k.opts, "d"):
			return failure("cannot remove", o, errIsDirRemove)
		case filepath.Base(filepath.Clean(o)) == "." || filepath.Base(filepath.Clean(o)) == "..":
			return errors.New("refusing to remove '.' or '..' directory: skipping " + quote(o))
		case fi.IsDir() && recursive:
			return k.removeTree(o)
		default:
			err = os.Remove(p)
		}
		if err != nil {
			return failure("cannot remove", o, err)
		}
		return nil
	})
}

// removeTree removes the directory o and everything below it, entry by
// entry as GNU's rm -r does (not os.RemoveAll, whose handle-relative
// removal some Windows file systems refuse), reporting the first entry it
// cannot remove.
func (k *task) removeTree(o string) error {
	entries, err := os.ReadDir(k.path(o))
	if err != nil {
		return failure("cannot remove", o, err)
	}
	var first error
	for _, e := range entries {
		if k.stopped() {
			return k.out.err
		}
		child := filepath.Join(o, e.Name())
		if e.IsDir() {
			err = k.removeTree(child)
		} else if err = os.Remove(k.path(child)); err != nil {
			err = failure("cannot remove", child, err)
		}
		if err != nil && first == nil {
			first = err
		}
	}
	if first != nil {
		return first
	}
	if err := os.Remove(k.path(o)); err != nil {
		return failure("cannot remove", o, err)
	}
	return nil
}

func touch(k *task) int {
	now := time.Now()
	return k.each(func(o string) error {
		p := k.path(o)
		err := os.Chtimes(p, now, now)
		if errors.Is(err, fs.ErrNotExist) && !has(k.opts, "c") {
			var f *os.File
			if f, err = os.OpenFile(p, os.O_CREATE|os.O_WRONLY, 0o666); err == nil {
				err = f.Close()
			}
		} else if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return failure("cannot touch", o, err)
		}
		return nil
	})
}

// copyFile copies the regular file src to dst, keeping its permission bits.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, fi.Mode().Perm())
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}
