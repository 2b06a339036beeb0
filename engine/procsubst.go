package engine

import (
	"errors"
	"os"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/expand"
)

// procState holds the process substitutions of the pipeline being run:
// the pipe ends the segment being started gets (fds, by descriptor) and
// the inner chains running beside the pipeline.
type procState struct {
	fds  map[int]*os.File
	runs []*procRun
}

// procRun is one inner chain of a process substitution, running in its
// own goroutine; err is its Run's error once done is closed.
type procRun struct {
	done chan struct{}
	err  error
}

// startProc starts the inner chain of a process substitution as its own
// Run (judged again as each of its segments starts, audited, in a copy of
// the shell state, as a command substitution's), connected by a pipe: for
// <(…) the inner chain's stdout is the pipe and the segment reads the
// other end; for >(…) its stdin is the pipe, the segment writes the other
// end, and its stdout is the chain's. The segment's end becomes descriptor
// fd of its child (redirectStage puts it in the fd table). Its status is
// ignored, as bash ignores it.
func (r *runner) startProc(sb *chain.Subst, fd int, sh *expand.Shell) error {
	opts, ok := r.innerOptions(sb, sh)
	if !ok {
		return timeoutError(r.opts.Timeout)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return err
	}
	child, inner := pr, pw
	if sb.Proc == chain.ProcIn {
		opts.Stdout = pw
	} else {
		child, inner = pw, pr
		opts.Stdin, opts.Stdout = pr, r.out.w
	}
	if r.proc.fds == nil {
		r.proc.fds = map[int]*os.File{}
	}
	if old := r.proc.fds[fd]; old != nil {
		old.Close()
	}
	r.proc.fds[fd] = child
	run := &procRun{done: make(chan struct{})}
	r.proc.runs = append(r.proc.runs, run)
	go func() {
		defer close(run.done)
		_, run.err = Run(r.ctx, sb.Chain, opts)
		inner.Close()
	}()
	return nil
}

// takeProcFds returns the pipe ends the segment being started gets and
// forgets them: the caller closes them once the segment holds its own
// copies.
func (r *runner) takeProcFds() map[int]*os.File {
	fds := r.proc.fds
	r.proc.fds = nil
	return fds
}

// procTable puts the process substitutions' pipe ends into a segment's
// fd table and returns the table and the ends, for the caller to close.
func procTable(files []*os.File, fds map[int]*os.File) ([]*os.File, []*os.File) {
	if len(fds) == 0 {
		return files, nil
	}
	ends := make([]*os.File, 0, len(fds))
	for fd, f := range fds {
		for len(files) <= fd {
			files = append(files, nil)
		}
		files[fd] = f
		ends = append(ends, f)
	}
	return files, ends
}

// waitProcs waits for the inner chains of the pipeline's process
// substitutions, so that nothing of them outlives it and what they wrote
// is complete when the next pipeline starts; one denied at run time ends
// the chain as denied.
func (r *runner) waitProcs() {
	closeAll(mapFiles(r.takeProcFds()))
	for _, run := range r.proc.runs {
		<-run.done
		var denied *chain.DeniedError
		if errors.As(run.err, &denied) && r.denied == nil {
			r.denied, r.exited = run.err, true
		}
	}
	r.proc.runs = r.proc.runs[:0]
}

func mapFiles(m map[int]*os.File) []*os.File {
	out := make([]*os.File, 0, len(m))
	for _, f := range m {
		out = append(out, f)
	}
	return out
}

// closeProcFds closes the pipe ends of a segment that did not start.
func (r *runner) closeProcFds() {
	if r.proc.fds != nil {
		closeAll(mapFiles(r.takeProcFds()))
	}
}
