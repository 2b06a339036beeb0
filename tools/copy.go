package tools

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// cp and mv: sources and a destination (the last operand, or -t DIR); a
// destination that is a directory receives each source under its name.

// transfer is one cp or mv run's view of its operands.
type transfer struct {
	k       *task
	sources []string
	dest    string
	intoDir bool
}

// plan reads the operands as GNU does, reporting a missing destination or
// several sources with a destination that is not a directory.
func (k *task) plan() (*transfer, bool) {
	t := &transfer{k: k}
	if dir, ok := last(k.opts, "t"); ok {
		t.sources, t.dest, t.intoDir = k.operands, dir, true
	} else if len(k.operands) < 2 {
		if len(k.operands) == 0 {
			k.missing()
		} else {
			k.errorf("missing destination file operand after %s\nTry '%s --help' for more information.", quote(k.operands[0]), k.name)
		}
		return nil, false
	} else {
		n := len(k.operands)
		t.sources, t.dest = k.operands[:n-1], k.operands[n-1]
		fi, err := os.Stat(k.path(t.dest))
		t.intoDir = err == nil && fi.IsDir()
		if !t.intoDir && n > 2 {
			if err == nil {
				err = errNotDir
			}
			k.errorf("target %s: %s", quote(t.dest), describe(err))
			return nil, false
		}
	}
	return t, true
}

// target is where source goes.
func (t *transfer) target(source string) string {
	if t.intoDir {
		return filepath.Join(t.dest, filepath.Base(filepath.Clean(source)))
	}
	return t.dest
}

func cp(k *task) int { return transferEach(k, (*transfer).copy) }

func mv(k *task) int { return transferEach(k, (*transfer).move) }

// transferEach does op for each source, to its target, as cp and mv do:
// a failure is reported and the rest still done (status 1).
func transferEach(k *task, op func(t *transfer, src, dst string) error) int {
	t, ok := k.plan()
	if !ok {
		return 1
	}
	status := 0
	for _, s := range t.sources {
		if k.stopped() {
			return 1
		}
		if err := op(t, s, t.target(s)); err != nil {
			k.errorf("%s", err)
			status = 1
		}
	}
	k.out.flush()
	return status
}

func (t *transfer) copy(src, dst string) error {
	k := t.k
	fi, err := os.Stat(k.path(src))
	if err != nil {
		return failure("cannot stat", src, err)
	}
	if fi.IsDir() && !has(k.opts, "r") && !has(k.opts, "R") {
		return errors.New("-r not specified; omitting directory " + quote(src))
	}
	if dfi, err := os.Stat(k.path(dst)); err == nil {
		if has(k.opts, "n") {
			return nil
		}
		if os.SameFile(fi, dfi) {
			return errors.New(quote(src) + " and " + quote(dst) + " are the same file")
		}
	}
	if fi.IsDir() {
		return t.copyTree(src, dst)
	}
	if err := t.copyOne(src, dst); err != nil {
		return err
	}
	return nil
}

// copyOne copies one file; -f removes a destination it cannot open.
func (t *transfer) copyOne(src, dst string) error {
	k := t.k
	if has(k.opts, "v") { // GNU names the copy before it makes it
		k.out.WriteString(quote(src) + " -> " + quote(dst) + "\n")
	}
	err := copyFile(k.path(src), k.path(dst))
	if err != nil && has(k.opts, "f") && errors.Is(err, fs.ErrPermission) {
		if os.Remove(k.path(dst)) == nil {
			err = copyFile(k.path(src), k.path(dst))
		}
	}
	if err != nil {
		return failure("cannot create regular file", dst, err)
	}
	return nil
}

// copyTree copies the directory src to dst (created when missing).
func (t *transfer) copyTree(src, dst string) error {
	k := t.k
	if err := os.Mkdir(k.path(dst), 0o777); err != nil && !errors.Is(err, fs.ErrExist) {
		return failure("cannot create directory", dst, err)
	} else if err == nil && has(k.opts, "v") {
		k.out.WriteString(quote(src) + " -> " + quote(dst) + "\n")
	}
	entries, err := os.ReadDir(k.path(src))
	if err != nil {
		return failure("cannot access", src, err)
	}
	var first error
	for _, e := range entries {
		if k.stopped() {
			return k.out.err
		}
		s, d := filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())
		var err error
		if e.IsDir() {
			err = t.copyTree(s, d)
		} else {
			err = t.copyOne(s, d)
		}
		if err != nil && first == nil {
			first = err
		}
	}
	return first
}

func (t *transfer) move(src, dst string) error {
	k := t.k
	fi, err := os.Lstat(k.path(src))
	if err != nil {
		return failure("cannot stat", src, err)
	}
	if dfi, err := os.Lstat(k.path(dst)); err == nil {
		if lastIndex(k.opts, "n") > lastIndex(k.opts, "f") { // the later of -n and -f wins
			return nil
		}
		if os.SameFile(fi, dfi) {
			return errors.New(quote(src) + " and " + quote(dst) + " are the same file")
		}
		if fi.IsDir() && !dfi.IsDir() {
			return errors.New("cannot overwrite non-directory " + quote(dst) + " with directory " + quote(src))
		}
	}
	if err := os.Rename(k.path(src), k.path(dst)); err != nil {
		return errors.New("cannot move " + quote(src) + " to " + quote(dst) + ": " + describe(err))
	}
	if has(k.opts, "v") {
		k.out.WriteString("renamed " + quote(src) + " -> " + quote(dst) + "\n")
	}
	return nil
}
