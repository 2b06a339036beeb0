// Package redirect applies a segment's redirects (chain.Redirect) to its
// file-descriptor table with bash's semantics: in source order, the last
// one for an fd winning. It also knows the null device's names on every
// OS and renders OS errors as bash's messages.
package redirect

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/chainrun/chainrun/chain"
)

// Error reports a redirect that could not be applied. Its message is the
// one bash prints: "out/log: No such file or directory".
type Error struct {
	Target string
	Err    error
}

func (e *Error) Error() string { return e.Target + ": " + Describe(e.Err) }

func (e *Error) Unwrap() error { return e.Err }

// ErrBadFd is the cause when a redirect names a closed or invalid fd
// (bash: "5: Bad file descriptor").
//
//lint:ignore ST1005 the text is strerror's, printed as bash prints it
var ErrBadFd = errors.New("Bad file descriptor")

// ErrUnsupported is the cause for a form chainrun refuses (<>, >&-, fds
// above chain.MaxFd); the parser refuses them first.
var ErrUnsupported = errors.New("unsupported redirect")

// ErrAmbiguous is bash's error for a target that expanded to no word or
// to several (chain.Redirect.Ambiguous); Error.Target is the word as
// written.
var ErrAmbiguous = errors.New("ambiguous redirect")

// Describe renders an OS error as the C library's strerror does, so
// chainrun's messages read as bash's ("No such file or directory").
func Describe(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
		// Windows reports a missing directory on the way to a file as
		// ERROR_PATH_NOT_FOUND, which Go names ENOTDIR; bash on POSIX
		// says what the user sees: no such file or directory.
		if runtime.GOOS == "windows" && errors.Is(err, fs.ErrNotExist) {
			return "No such file or directory"
		}
	}
	switch {
	case errors.Is(err, ErrBadFd), errors.Is(err, syscall.EBADF):
		return "Bad file descriptor"
	case errors.Is(err, syscall.EISDIR):
		return "Is a directory"
	case errors.Is(err, syscall.ENOTDIR):
		return "Not a directory"
	case errors.Is(err, fs.ErrNotExist):
		return "No such file or directory"
	case errors.Is(err, fs.ErrPermission):
		return "Permission denied"
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		// Go's texts are the C library's in lower case: "no space left
		// on device" is strerror's "No space left on device".
		msg := errno.Error()
		if msg != "" && msg[0] >= 'a' && msg[0] <= 'z' {
			msg = string(msg[0]-'a'+'A') + msg[1:]
		}
		return msg
	}
	return err.Error()
}

// Opener applies redirects for one segment.
type Opener struct {
	// Dir is the chain's current directory; relative targets resolve
	// against it.
	Dir string
	// Windows selects the Windows null-device rules (see NullDevice).
	Windows bool
	// Feeds, when set, counts the goroutines that write heredoc bodies,
	// so the caller can wait for them when its run ends (see feed).
	Feeds *sync.WaitGroup
	// Judged, when set, is what the targets were when the policy judged
	// them (Pin): Apply opens each file target without truncating it,
	// checks that it is the file judged, and truncates it only then; one
	// that is not fails with ErrChanged.
	Judged *Judged
	// Confine, when set, judges each file target before it is opened
	// (path as opened, write for > and >>): the sandbox boundary a
	// sandboxed segment's own opens would meet, so a redirect cannot do
	// what the program could not. Its error fails the redirect.
	Confine func(path string, write bool) error
}

// Apply applies rules in source order to a copy of files, where files[n]
// is fd n, and returns the new table (entries above 2 only where a rule
// set them) and the files it opened, which the caller closes once the
// segment has started. files is never modified.
//
// On error it returns an *Error with the table as it stood when the
// failing rule was reached, and the files opened until then, still open:
// bash writes its message to fd 2 as the earlier redirects left it
// (echo hi 2>err.txt >nodir/f puts the message in err.txt), so the caller
// writes there and then closes opened.
func (o *Opener) Apply(files []*os.File, rules []chain.Redirect) (out, opened []*os.File, err error) {
	out = make([]*os.File, max(len(files), 3))
	copy(out, files)
	fail := func(e error) ([]*os.File, []*os.File, error) {
		return out, opened, e
	}
	set := func(fd int, f *os.File) {
		for len(out) <= fd {
			out = append(out, nil)
		}
		out[fd] = f
	}
	get := func(fd int) *os.File {
		if fd < 0 || fd >= len(out) {
			return nil
		}
		return out[fd]
	}
	for _, r := range rules {
		if r.Fd < 0 || r.Fd > chain.MaxFd {
			return fail(&Error{Target: strconv.Itoa(r.Fd), Err: ErrUnsupported})
		}
		if r.Ambiguous {
			return fail(&Error{Target: r.Target, Err: ErrAmbiguous})
		}
		op := r.Op
		switch op {
		case chain.RedirDupOut, chain.RedirDupIn:
			if r.Target == "-" {
				return fail(&Error{Target: r.Target, Err: ErrUnsupported})
			}
			if !isFdNumber(r.Target) {
				return fail(&Error{Target: r.Target, Err: ErrAmbiguous})
			}
			m, _ := strconv.Atoi(r.Target)
			src := get(m)
			if src == nil {
				return fail(&Error{Target: r.Target, Err: ErrBadFd})
			}
			set(r.Fd, src)
		case chain.RedirOut, chain.RedirAppend, chain.RedirIn, chain.RedirBoth, chain.RedirBothAppend:
			f, isNew, e := o.open(r.Target, op, get)
			if e != nil {
				return fail(e)
			}
			if isNew {
				opened = append(opened, f)
			}
			set(r.Fd, f)
			if op == chain.RedirBoth || op == chain.RedirBothAppend {
				set(1, f)
				set(2, f)
			}
		case chain.RedirHeredoc, chain.RedirHeredocTabs, chain.RedirHereString:
			f, e := o.feed(r.Body)
			if e != nil {
				return fail(&Error{Target: string(op), Err: e})
			}
			opened = append(opened, f)
			set(r.Fd, f)
		default:
			return fail(&Error{Target: r.Target, Err: ErrUnsupported})
		}
	}
	for len(out) > 3 && out[len(out)-1] == nil {
		out = out[:len(out)-1]
	}
	return out, opened, nil
}

// feed returns the read end of a pipe that a goroutine fills with body
// and then closes: the text reaches the fd without any file left behind.
// The goroutine ends once the body is written or every read end is closed
// (the write then fails); the read end is in Apply's opened, and the
// stage's own copy ends with the stage, so it never outlives the run.
func (o *Opener) feed(body string) (*os.File, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	if body == "" {
		w.Close()
		return r, nil
	}
	wg := o.Feeds
	if wg != nil {
		wg.Add(1)
	}
	go func() {
		io.WriteString(w, body)
		w.Close()
		if wg != nil {
			wg.Done()
		}
	}()
	return r, nil
}

// open opens a file target, or returns the current fd a /dev/std* target
// names (isNew false).
func (o *Opener) open(target string, op chain.RedirOp, get func(int) *os.File) (f *os.File, isNew bool, err error) {
	if fd, ok := StdStream(target); ok {
		cur := get(fd)
		if fd > chain.MaxFd && cur == nil {
			// Above MaxFd a segment has only its process substitutions.
			return nil, false, &Error{Target: target, Err: ErrFdRange}
		}
		if cur != nil {
			return cur, false, nil
		}
		// What opening /dev/fd/N for a closed N says on Linux.
		return nil, false, &Error{Target: target, Err: fs.ErrNotExist}
	}
	flag := os.O_RDONLY
	switch op {
	case chain.RedirOut, chain.RedirBoth:
		flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	case chain.RedirAppend, chain.RedirBothAppend:
		flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	path := o.path(target)
	if NullDevice(target, o.Windows) {
		// Never O_TRUNC the null device: Windows (and Wine) refuse it.
		path = os.DevNull
		flag &^= os.O_TRUNC | os.O_CREATE | os.O_APPEND
	} else {
		if o.Confine != nil {
			if err := o.Confine(path, flag != os.O_RDONLY); err != nil {
				return nil, false, &Error{Target: target, Err: err}
			}
		}
		if o.Judged != nil {
			return o.openJudged(target, path, flag)
		}
	}
	f, err = os.OpenFile(path, flag, 0o666)
	if err != nil {
		return nil, false, &Error{Target: target, Err: err}
	}
	return f, true, nil
}

// openJudged opens a file target the policy judged: without O_TRUNC, so
// that a file that turns out not to be the one judged is left as it was,
// then checked against o.Judged, then truncated as > asks.
func (o *Opener) openJudged(target, path string, flag int) (*os.File, bool, error) {
	f, err := os.OpenFile(path, flag&^os.O_TRUNC, 0o666)
	if err != nil {
		return nil, false, &Error{Target: target, Err: err}
	}
	if err := o.Judged.verify(target, path, f); err != nil {
		return nil, false, err
	}
	if flag&os.O_TRUNC != 0 {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > 0 {
			if err := f.Truncate(0); err != nil {
				f.Close()
				return nil, false, &Error{Target: target, Err: err}
			}
		}
	}
	return f, true, nil
}

// StdStream reports whether target names one of the segment's own fds:
// /dev/stdin, /dev/stdout and /dev/stderr (0, 1, 2), /dev/fd/N,
// /proc/self/fd/N and /proc/thread-self/fd/N, spelled with any redundant
// slashes or dots. They mean the segment's current fd N on every OS: on
// Linux the names would open chainrun's own descriptors, not the
// segment's, and elsewhere they may not exist. An fd above chain.MaxFd is
// reported too, for the caller to refuse (CheckTarget).
func StdStream(target string) (fd int, ok bool) {
	if !strings.HasPrefix(target, "/") {
		return 0, false
	}
	p := path.Clean(target)
	switch p {
	case "/dev/stdin":
		return 0, true
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	for _, dir := range []string{"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"} {
		n, found := strings.CutPrefix(p, dir)
		if !found || n == "" || len(n) > 1 && n[0] == '0' || strings.Trim(n, "0123456789") != "" {
			continue
		}
		fd, err := strconv.Atoi(n)
		if err != nil {
			return chain.MaxFd + 1, true
		}
		return fd, true
	}
	return 0, false
}

// CheckTarget refuses a redirect target naming an fd chainrun does not
// have (/dev/fd/N with N above chain.MaxFd), before anything runs.
func CheckTarget(target string) error {
	if fd, ok := StdStream(target); ok && fd > chain.MaxFd {
		return &Error{Target: target, Err: ErrFdRange}
	}
	return nil
}

// ErrFdRange is the cause when a /dev/fd/N target names an fd above
// chain.MaxFd.
var ErrFdRange = errors.New("chainrun supports fds 0-9 only")

// NullDevice reports whether a redirect target means the null device.
// "/dev/null" does on every OS. With windows set, so does any name whose
// last element is "nul" in any case, with or without an extension
// ("NUL", "nul.txt", "logs\Nul.log"), as Windows itself reads them; on
// POSIX such names are ordinary files.
func NullDevice(target string, windows bool) bool {
	if target == "/dev/null" {
		return true
	}
	if !windows {
		return false
	}
	base := target
	if i := strings.LastIndexAny(base, `/\:`); i >= 0 {
		base = base[i+1:]
	}
	if i := strings.IndexByte(base, '.'); i >= 0 {
		base = base[:i]
	}
	base = strings.TrimRight(base, " ")
	return strings.EqualFold(base, "nul")
}

func isFdNumber(s string) bool {
	return len(s) == 1 && s[0] >= '0' && s[0] <= '9'
}
