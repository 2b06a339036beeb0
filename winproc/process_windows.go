//go:build windows

package winproc

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// procThreadAttributeJobList is PROC_THREAD_ATTRIBUTE_JOB_LIST (Windows 10
// and later): the new process starts inside the listed jobs, before its
// first instruction runs, so no grandchild can escape.
const procThreadAttributeJobList = 0x0002000D

// KilledExitCode is the exit code Kill gives every process of the tree. It
// reads as bash's status for a SIGKILLed program, so a killed segment
// reports the same status on every OS.
const KilledExitCode = 137

// stillActive is STILL_ACTIVE (STATUS_PENDING), GetExitCodeProcess's answer
// for a running process.
const stillActive = 259

// Attr describes a process to start.
type Attr struct {
	// Path is the absolute path of the image, passed as lpApplicationName
	// so CreateProcess never searches for it.
	Path string
	// CommandLine is the whole lpCommandLine, argv0 included. The
	// package-level CommandLine returns it with Path for a resolved
	// program.
	CommandLine string
	// Dir is the working directory; "" means chainrun's.
	Dir string
	// Env is the environment as KEY=value; nil means chainrun's. It is
	// merged with MergeEnv (SYSTEMROOT kept) before encoding.
	Env []string
	// Stdin, Stdout and Stderr become the child's standard handles; nil
	// means the null device.
	Stdin, Stdout, Stderr *os.File
}

// Process is a started process and the job that holds its tree.
type Process struct {
	Pid int
	// Warning is set when the process could not be put in a job (a
	// sandbox or an old Windows refused): stopping it then reaches the
	// process alone, not its children.
	Warning string

	handle windows.Handle
	job    windows.Handle // 0 when unjobbed

	// bornInJob is set when PROC_THREAD_ATTRIBUTE_JOB_LIST placed the
	// process in its job at creation (rather than the suspended fallback).
	bornInJob bool

	mu     sync.Mutex
	closed bool
}

// Start creates the process inside a new kill-on-close job object.
//
// Only the three standard handles are inherited (PROC_THREAD_ATTRIBUTE_
// HANDLE_LIST), so concurrent starts never leak each other's pipe ends,
// and the process is born in its job (PROC_THREAD_ATTRIBUTE_JOB_LIST).
// Where the job list is not supported it is started suspended, assigned
// and resumed; where assignment fails it runs unjobbed and Warning says so.
func Start(a *Attr) (*Process, error) {
	if !filepath.IsAbs(a.Path) {
		return nil, fmt.Errorf("winproc: program path %q is not absolute", a.Path)
	}
	env := a.Env
	if env == nil {
		env = os.Environ()
	}
	block, err := EnvBlock(MergeEnv(env, os.Getenv("SYSTEMROOT")))
	if err != nil {
		return nil, err
	}
	job, err := newJob()
	if err != nil {
		return nil, err
	}
	p, err := start(a, block, job)
	if err != nil {
		windows.CloseHandle(job)
		return nil, err
	}
	return p, nil
}

// newJob creates an unnamed job, not inheritable (nil security attributes:
// an inherited job handle would keep the job, and the tree, alive), that
// kills every process in it when its last handle closes.
func newJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("winproc: CreateJobObject: %w", err)
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, fmt.Errorf("winproc: SetInformationJobObject: %w", err)
	}
	return job, nil
}

// jobListUnsupported makes start behave as on Windows versions without
// PROC_THREAD_ATTRIBUTE_JOB_LIST, so tests exercise the suspended
// fallback on any Windows (and under Wine, which has the job list).
var jobListUnsupported bool

func start(a *Attr, env []uint16, job windows.Handle) (*Process, error) {
	app, err := windows.UTF16PtrFromString(a.Path)
	if err != nil {
		return nil, err
	}
	var dir *uint16
	if a.Dir != "" {
		if dir, err = windows.UTF16PtrFromString(a.Dir); err != nil {
			return nil, err
		}
	}
	std, err := inheritableStd(a.Stdin, a.Stdout, a.Stderr)
	if err != nil {
		return nil, err
	}
	defer std.close()

	flags := uint32(windows.CREATE_UNICODE_ENVIRONMENT | windows.EXTENDED_STARTUPINFO_PRESENT | windows.CREATE_NEW_PROCESS_GROUP)
	if !hasConsole() {
		flags |= windows.CREATE_NO_WINDOW
	}
	p := &Process{job: job, bornInJob: true}
	var pi *windows.ProcessInformation
	if jobListUnsupported {
		err = windows.ERROR_NOT_SUPPORTED
	} else {
		pi, err = create(app, a.CommandLine, dir, env, std, flags, job)
	}
	if errors.Is(err, windows.ERROR_INVALID_PARAMETER) || errors.Is(err, windows.ERROR_NOT_SUPPORTED) {
		// No JOB_LIST (before Windows 10): start suspended, assign, resume.
		p.bornInJob = false
		pi, err = create(app, a.CommandLine, dir, env, std, flags|windows.CREATE_SUSPENDED, 0)
		if err == nil {
			if aerr := windows.AssignProcessToJobObject(job, pi.Process); aerr != nil {
				p.Warning = fmt.Sprintf("process %d runs outside a job object (%v): stopping it cannot reach its children", pi.ProcessId, aerr)
				windows.CloseHandle(job)
				p.job = 0
			}
			if _, rerr := windows.ResumeThread(pi.Thread); rerr != nil {
				windows.TerminateProcess(pi.Process, KilledExitCode)
				windows.CloseHandle(pi.Thread)
				windows.CloseHandle(pi.Process)
				return nil, fmt.Errorf("winproc: ResumeThread: %w", rerr)
			}
		}
	}
	if err != nil {
		return nil, &os.PathError{Op: "CreateProcess", Path: a.Path, Err: err}
	}
	windows.CloseHandle(pi.Thread)
	p.Pid = int(pi.ProcessId)
	p.handle = pi.Process
	return p, nil
}

// create calls CreateProcess once; job 0 leaves the job list out.
func create(app *uint16, cmdline string, dir *uint16, env []uint16, std *stdHandles, flags uint32, job windows.Handle) (*windows.ProcessInformation, error) {
	// CreateProcessW may write to the command line buffer: a fresh copy.
	line, err := windows.UTF16FromString(cmdline)
	if err != nil {
		return nil, err
	}
	nattr := uint32(1)
	if job != 0 {
		nattr = 2
	}
	attrs, err := windows.NewProcThreadAttributeList(nattr)
	if err != nil {
		return nil, err
	}
	defer attrs.Delete()
	list := std.list()
	if err := attrs.Update(windows.PROC_THREAD_ATTRIBUTE_HANDLE_LIST, unsafe.Pointer(&list[0]), uintptr(len(list))*unsafe.Sizeof(list[0])); err != nil {
		return nil, err
	}
	jobs := []windows.Handle{job}
	if job != 0 {
		if err := attrs.Update(procThreadAttributeJobList, unsafe.Pointer(&jobs[0]), unsafe.Sizeof(jobs[0])); err != nil {
			return nil, err
		}
	}
	si := &windows.StartupInfoEx{ProcThreadAttributeList: attrs.List()}
	si.Cb = uint32(unsafe.Sizeof(*si))
	si.Flags = windows.STARTF_USESTDHANDLES
	si.StdInput, si.StdOutput, si.StdErr = std.h[0], std.h[1], std.h[2]
	pi := new(windows.ProcessInformation)
	err = windows.CreateProcess(app, &line[0], nil, nil, true, flags, &env[0], dir, &si.StartupInfo, pi)
	if err != nil {
		return nil, err
	}
	return pi, nil
}

// stdHandles are inheritable duplicates of the child's standard handles,
// closed once the child has its own copies.
type stdHandles struct {
	h    [3]windows.Handle
	dups []windows.Handle
	null *os.File
}

func inheritableStd(files ...*os.File) (*stdHandles, error) {
	s := &stdHandles{}
	self := windows.CurrentProcess()
	seen := map[windows.Handle]windows.Handle{}
	for i, f := range files {
		if f == nil {
			if s.null == nil {
				// Opened without O_TRUNC, which Wine's NUL rejects.
				n, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
				if err != nil {
					s.close()
					return nil, err
				}
				s.null = n
			}
			f = s.null
		}
		src := windows.Handle(f.Fd())
		if d, ok := seen[src]; ok {
			s.h[i] = d
			continue
		}
		var d windows.Handle
		if err := windows.DuplicateHandle(self, src, self, &d, 0, true, windows.DUPLICATE_SAME_ACCESS); err != nil {
			s.close()
			return nil, fmt.Errorf("winproc: DuplicateHandle: %w", err)
		}
		seen[src] = d
		s.dups = append(s.dups, d)
		s.h[i] = d
	}
	return s, nil
}

// list is the HANDLE_LIST: each handle once, no NULLs.
func (s *stdHandles) list() []windows.Handle { return s.dups }

func (s *stdHandles) close() {
	for _, d := range s.dups {
		windows.CloseHandle(d)
	}
	s.dups = nil
	if s.null != nil {
		s.null.Close()
	}
}

// hasConsole reports whether chainrun has a console its children can
// share; without one each console child would open a window.
func hasConsole() bool {
	if procGetConsoleWindow.Find() != nil {
		return true
	}
	h, _, _ := procGetConsoleWindow.Call()
	return h != 0
}

// Jobbed reports whether the process runs inside its own job.
func (p *Process) Jobbed() bool { return p.job != 0 }

// Wait blocks until the process itself exits and returns its exit code.
// Its children may still run; see WaitTree.
func (p *Process) Wait() (uint32, error) {
	if _, err := windows.WaitForSingleObject(p.handle, windows.INFINITE); err != nil {
		return 0, fmt.Errorf("winproc: WaitForSingleObject: %w", err)
	}
	var code uint32
	if err := windows.GetExitCodeProcess(p.handle, &code); err != nil {
		return 0, fmt.Errorf("winproc: GetExitCodeProcess: %w", err)
	}
	return code, nil
}

// jobBasicAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION.
type jobBasicAccounting struct {
	TotalUserTime             int64
	TotalKernelTime           int64
	ThisPeriodTotalUserTime   int64
	ThisPeriodTotalKernelTime int64
	TotalPageFaultCount       uint32
	TotalProcesses            uint32
	ActiveProcesses           uint32
	TotalTerminatedProcesses  uint32
}

// ActiveProcesses counts the processes of the tree still running: the
// job's count, or 0/1 for an unjobbed process.
func (p *Process) ActiveProcesses() (int, error) {
	if p.job == 0 {
		var code uint32
		if err := windows.GetExitCodeProcess(p.handle, &code); err != nil {
			return 0, err
		}
		if code == stillActive {
			if ev, _ := windows.WaitForSingleObject(p.handle, 0); ev == uint32(windows.WAIT_TIMEOUT) {
				return 1, nil
			}
		}
		return 0, nil
	}
	var info jobBasicAccounting
	if err := windows.QueryInformationJobObject(p.job, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil); err != nil {
		return 0, fmt.Errorf("winproc: QueryInformationJobObject: %w", err)
	}
	return int(info.ActiveProcesses), nil
}

// CPUTimes returns the CPU time the tree used in user and kernel mode:
// the job's accounting (every process that ran in it), or the process's
// own times when those are more: outside a job, and under Wine, whose job
// accounting stays at zero. Call it before Close.
func (p *Process) CPUTimes() (user, kernel time.Duration, err error) {
	var creation, exit, k, u windows.Filetime
	if err := windows.GetProcessTimes(p.handle, &creation, &exit, &k, &u); err != nil {
		return 0, 0, fmt.Errorf("winproc: GetProcessTimes: %w", err)
	}
	user, kernel = filetimeSpan(u), filetimeSpan(k)
	if p.job == 0 {
		return user, kernel, nil
	}
	var info jobBasicAccounting
	if err := windows.QueryInformationJobObject(p.job, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil); err != nil {
		return 0, 0, fmt.Errorf("winproc: QueryInformationJobObject: %w", err)
	}
	if ju, jk := time.Duration(info.TotalUserTime)*100, time.Duration(info.TotalKernelTime)*100; ju+jk > user+kernel {
		user, kernel = ju, jk
	}
	return user, kernel, nil
}

// filetimeSpan reads a FILETIME that holds a span (100 ns units), not a
// date.
func filetimeSpan(f windows.Filetime) time.Duration {
	return time.Duration(int64(f.HighDateTime)<<32|int64(f.LowDateTime)) * 100
}

// WaitTree waits up to d for every process of the tree to exit and
// reports whether they did.
func (p *Process) WaitTree(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for sleep := time.Millisecond; ; sleep = min(2*sleep, 20*time.Millisecond) {
		n, err := p.ActiveProcesses()
		if err != nil || n == 0 {
			return err == nil
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(sleep)
	}
}

// Interrupt sends Ctrl+Break to the process group the process leads (it
// was started with CREATE_NEW_PROCESS_GROUP); its default handler exits
// with 0xC000013A. It fails when chainrun shares no console with the
// process (and always under Wine); callers then Kill.
func (p *Process) Interrupt() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		// The pid may name another process by now.
		return os.ErrProcessDone
	}
	if err := windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(p.Pid)); err != nil {
		return fmt.Errorf("winproc: GenerateConsoleCtrlEvent: %w", err)
	}
	return nil
}

// Kill terminates every process of the tree with KilledExitCode
// (TerminateJobObject); an unjobbed process alone is terminated.
func (p *Process) Kill() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return os.ErrProcessDone
	}
	return p.kill()
}

func (p *Process) kill() error {
	if p.job != 0 {
		if err := windows.TerminateJobObject(p.job, KilledExitCode); err != nil {
			return fmt.Errorf("winproc: TerminateJobObject: %w", err)
		}
		return nil
	}
	err := windows.TerminateProcess(p.handle, KilledExitCode)
	if errors.Is(err, windows.ERROR_ACCESS_DENIED) {
		// Already exited.
		return nil
	}
	return err
}

// closeWait bounds how long Close waits for a terminated tree to be gone.
const closeWait = 5 * time.Second

// Close ends whatever is left of the tree, waits until the job counts no
// active process, and releases the job and process handles. After Close
// returns nil no process of the tree remains.
func (p *Process) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil
	}
	p.closed = true
	var err error
	if n, _ := p.ActiveProcesses(); n > 0 {
		err = p.kill()
	}
	if !p.WaitTree(closeWait) && err == nil {
		err = fmt.Errorf("winproc: process %d: tree still running %v after termination", p.Pid, closeWait)
	}
	if p.job != 0 {
		windows.CloseHandle(p.job) // kill-on-close: the last word
	}
	windows.CloseHandle(p.handle)
	return err
}
