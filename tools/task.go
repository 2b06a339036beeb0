package tools

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/chainrun/chainrun/redirect"
)

// task is one running tool: its call, its options and operands as read,
// and its output.
type task struct {
	Call
	name     string
	opts     []opt
	operands []string
	out      *output
}

func newTask(t *Tool, c Call) *task {
	return &task{Call: c, name: t.Name, out: &output{w: bufio.NewWriterSize(c.Stdout, 32<<10), ctx: c.Ctx}}
}

// output is a tool's stdout, buffered. The first failed write ends the
// output: a reader that is gone sets pipe (the real program would die of
// SIGPIPE), a stop sets err to the context's error.
type output struct {
	w    *bufio.Writer
	ctx  interface{ Err() error }
	err  error
	pipe bool
}

// Write writes p unless an earlier write failed or the run was stopped.
func (o *output) Write(p []byte) (int, error) {
	if o.err == nil {
		o.err = o.ctx.Err()
	}
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(p)
	o.fail(err)
	return n, o.err
}

func (o *output) WriteString(s string) (int, error) { return o.Write([]byte(s)) }

// flush writes what is buffered; a tool calls it before it ends and
// before it writes to stderr, so the two streams interleave as a
// program's with unbuffered output would.
func (o *output) flush() {
	if o.err == nil {
		o.fail(o.w.Flush())
	}
}

func (o *output) fail(err error) {
	if err != nil && o.err == nil {
		o.err = err
		o.pipe = isBrokenPipe(err)
	}
}

// stopped reports whether the tool should end now: its output failed or
// its run was stopped.
func (k *task) stopped() bool {
	if k.out.err == nil {
		k.out.err = k.Ctx.Err()
	}
	return k.out.err != nil
}

// errorf writes "NAME: message" to stderr, as the GNU tools do.
func (k *task) errorf(format string, a ...any) {
	k.out.flush()
	fmt.Fprintf(k.Stderr, k.name+": "+format+"\n", a...)
}

// fileError reports err for the operand as written, quoted only where a
// shell would need it: "cat: x: No such file or directory".
func (k *task) fileError(operand string, err error) {
	k.errorf("%s: %s", shellQuote(operand), describe(err))
}

// describe is the C library's text for err, as GNU prints it.
func describe(err error) string { return redirect.Describe(err) }

// usage reports an option the tool does not accept, and how to run the
// real program instead. Its status is 2, GNU's for a usage error.
func (k *task) usage(err error) int {
	var ue *UsageError
	if errors.As(err, &ue) && ue.Reason == "not supported" {
		k.errorf("option %s is not supported by chainrun's built-in %s (it runs because no %s program was found); "+
			"put the GNU tools on PATH (for example Git for Windows' usr\\bin), or write the command without %s",
			ue.Option, k.name, k.name, ue.Option)
		return 2
	}
	k.errorf("%s", err)
	return 2
}

// path is operand p resolved against the chain's directory.
func (k *task) path(p string) string {
	if filepath.IsAbs(p) || k.Dir == "" {
		return p
	}
	return filepath.Join(k.Dir, p)
}

// open opens operand p for reading; "-" is stdin.
func (k *task) open(p string) (io.ReadCloser, error) {
	if p == "-" {
		return io.NopCloser(k.Stdin), nil
	}
	f, err := os.Open(k.path(p))
	if err != nil {
		return nil, err
	}
	// head and tail report a directory when they read it, after its header
	if fi, err := f.Stat(); err == nil && fi.IsDir() && k.name != "head" && k.name != "tail" {
		f.Close()
		return nil, &os.PathError{Op: "read", Path: p, Err: errIsDir}
	}
	return f, nil
}

// inputs are the tool's file operands, or "-" (stdin) when there are none.
func (k *task) inputs() []string {
	if len(k.operands) == 0 {
		return []string{"-"}
	}
	return k.operands
}
