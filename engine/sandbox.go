package engine

import (
	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/sandbox"
)

// SandboxError is Run's error when Options.Sandbox is set and the system
// cannot hold processes to it; nothing of the chain started.
type SandboxError struct{ Err error }

func (e *SandboxError) Error() string { return "sandbox unavailable: " + e.Err.Error() }

func (e *SandboxError) Unwrap() error { return e.Err }

// ErrorKind is KindInternal: the OS failed chainrun.
func (e *SandboxError) ErrorKind() chain.ErrorKind { return chain.KindInternal }

// SandboxAvailable reports why this system cannot confine a chain to a
// sandbox boundary, nil when it can (Linux with Landlock; macOS with
// sandbox-exec). A caller told to fail when the sandbox is unavailable
// (failIfUnavailable) refuses the chain on an error; otherwise it may
// warn and run without Options.Sandbox.
func SandboxAvailable() error {
	if err := sandboxSupport(); err != nil {
		return &SandboxError{Err: err}
	}
	return nil
}

// SandboxNotes says what of b this system's kernel cannot enforce, so the
// policy's judgement alone guards it (for --explain), beside what the
// boundary itself notes.
func SandboxNotes(b *sandbox.Boundary) []string {
	notes := append([]string{}, b.Notes...)
	return append(notes, platformNotes(b)...)
}

// openSandbox starts the run's confinement when Options.Sandbox is set.
func (r *runner) openSandbox() error {
	if r.opts.Sandbox == nil {
		return nil
	}
	j, err := newConfinement(r.opts.Sandbox)
	if err != nil {
		return &SandboxError{Err: err}
	}
	r.jail = j
	return nil
}

// explainSandboxed notes the boundary on every sandboxed segment that
// failed by itself (not stopped by chainrun, not failed to start).
func (r *runner) explainSandboxed() {
	if r.jail == nil {
		return
	}
	for i := range r.res.Segments {
		s := &r.res.Segments[i]
		if s.Sandboxed && s.ExitCode != 0 && !s.Skipped && !s.Signalled && s.Err == nil {
			s.Sandbox = r.opts.Sandbox.Refused()
		}
	}
}

// confined returns the confinement argv runs in: nil outside a sandbox
// and for the excludedCommands.
func (r *runner) confined(argv []string) *confinement {
	if r.jail == nil || r.opts.Sandbox.Excludes(argv) {
		return nil
	}
	return r.jail
}
