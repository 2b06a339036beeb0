package redirect

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"

	"github.com/chainrun/chainrun/builtin/spec"
	"github.com/chainrun/chainrun/chain"
)

// ErrChanged is the cause when a file target is no longer the file it
// was when the policy judged it: a link was made, moved or retargeted, or
// the file or its directory replaced, between the judgement and the open.
// The caller refuses the segment as denied, since what would be opened
// was never judged.
var ErrChanged = errors.New("changed after it was judged")

// Judged is what a segment's file targets were when the policy judged
// them, taken just before the judgement (Opener.Pin): the identity of
// each one (device and inode; the volume serial and file ID on Windows),
// so that Apply can check what it opened against what was judged. Paths
// the policy resolved may have changed in between; identities that match
// show they did not.
type Judged struct {
	pins map[string]pin
}

// pin is one target as judged. file is the file it named, links
// followed; nil when there was none. Then dir is the directory that
// would hold it and link the target itself when it was a link to nothing
// (a write creates the link's target).
type pin struct {
	file, dir, link os.FileInfo
}

// Pin notes the identity of each file target of rules, resolved against
// o.Dir. Set the result as o.Judged to have Apply check each target it
// opens against it.
func (o *Opener) Pin(rules []chain.Redirect) *Judged {
	j := &Judged{pins: make(map[string]pin, len(rules))}
	for _, r := range rules {
		if !opensFile(r.Op) || r.Ambiguous || o.special(r.Target) {
			continue
		}
		path := o.path(r.Target)
		var p pin
		if fi, err := os.Stat(path); err == nil {
			p.file = loaded(fi)
		} else {
			if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
				p.link = loaded(fi)
			}
			if fi, err := os.Stat(holder(path, p.link != nil)); err == nil {
				p.dir = loaded(fi)
			}
		}
		j.pins[r.Target] = p
	}
	return j
}

// opensFile reports the operators that open a file target.
func opensFile(op chain.RedirOp) bool {
	switch op {
	case chain.RedirOut, chain.RedirAppend, chain.RedirIn, chain.RedirBoth, chain.RedirBothAppend:
		return true
	}
	return false
}

// holder is the directory that holds the file path names, or, for a link
// to nothing, the file the link names (a link cannot be changed in place,
// only replaced, which its identity shows).
func holder(path string, link bool) string {
	if link {
		if t, err := os.Readlink(path); err == nil {
			if !filepath.IsAbs(t) {
				t = filepath.Join(filepath.Dir(path), t)
			}
			return filepath.Dir(t)
		}
	}
	return filepath.Dir(path)
}

// loaded makes fi carry its identity now: on Windows os.Stat defers
// reading the file ID to the first os.SameFile, which would read the file
// the path names then, not the one judged.
func loaded(fi os.FileInfo) os.FileInfo {
	os.SameFile(fi, fi)
	return fi
}

// special reports a target that names no file of the file system's:
// one of the segment's own fds or the null device.
func (o *Opener) special(target string) bool {
	_, std := StdStream(target)
	return std || NullDevice(target, o.Windows)
}

// path is target as the OS opens it: relative to o.Dir, and on Windows a
// path rooted on the drive ("\x", "/x") on o.Dir's drive, one relative
// to a drive ("C:x") in o.Dir when it is on that drive (spec.JoinPath).
func (o *Opener) path(target string) string {
	if target != "" && spec.PathAnchor(target, runtime.GOOS == "windows") != spec.Absolute {
		return filepath.Clean(spec.JoinPath(o.Dir, target, runtime.GOOS == "windows"))
	}
	return target
}

// verify checks the file opened for target against its pin. An existing
// file must be the very file judged. A file that did not exist must now
// be the one the path names in the directory judged, reached through no
// link but the one judged. A mismatch closes f and returns ErrChanged.
func (j *Judged) verify(target, path string, f *os.File) error {
	p, ok := j.pins[target]
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err == nil && !p.matches(path, fi) {
		err = ErrChanged
	}
	if err != nil {
		f.Close()
		return &Error{Target: target, Err: err}
	}
	return nil
}

func (p pin) matches(path string, fi os.FileInfo) bool {
	if p.file != nil {
		return os.SameFile(p.file, fi)
	}
	l, err := os.Lstat(path)
	if err != nil {
		return false
	}
	isLink := l.Mode()&os.ModeSymlink != 0
	switch {
	case p.link != nil:
		if !isLink || !os.SameFile(l, p.link) {
			return false
		}
		l, err = os.Stat(path)
		if err != nil {
			return false
		}
	case isLink:
		return false
	}
	if !os.SameFile(l, fi) {
		return false
	}
	d, err := os.Stat(holder(path, p.link != nil))
	return err == nil && p.dir != nil && os.SameFile(d, p.dir)
}
