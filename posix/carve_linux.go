package posix

import (
	"fmt"
	"os"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/chainrun/chainrun/sandbox"
)

// Carving: Landlock grants whole trees, so a denied path inside a
// writable tree (a denyWrite, an Edit deny, the settings files inside the
// project) cannot be taken back out by its rules. Where unprivileged user
// namespaces exist, the processes of a confinement whose boundary needs
// that are started through a helper, as bubblewrap does it: this
// executable again (as the watchdog is), in a new user and mount
// namespace, which binds each such path read-only over itself (a denied
// read: an empty read-only file system over a directory, the null device
// over a file) and restricts its serving thread with the run's Landlock
// ruleset. One helper serves the whole confinement (zygote_linux.go). The
// contract: argv is carverArg0, then "ro PATH" and "hide PATH" pairs; the
// environment is exactly carverEnv=1; fd zygoteSock is its socket to
// chainrun and fd zygoteRuleset the ruleset. The mounts happen before
// Landlock, which forbids a restricted thread to change them; they stay
// private to the namespace.
const (
	carverArg0 = "chainrun-sandbox"
	carverEnv  = "CHAINRUN_POSIX_SANDBOX"
)

func init() {
	if len(os.Args) > 2 && os.Args[0] == carverArg0 && os.Getenv(carverEnv) == "1" {
		os.Exit(runZygote(os.Args[1:]))
	}
}

// usernsWorks reports, once, whether this process may start a child in a
// new user namespace (probed by starting /bin/true in one).
var usernsWorks = sync.OnceValue(func() bool {
	sys := &syscall.SysProcAttr{}
	userns(sys)
	pid, err := syscall.ForkExec("/bin/true", []string{"true"}, &syscall.ProcAttr{Sys: sys})
	if err != nil {
		return false
	}
	var ws syscall.WaitStatus
	syscall.Wait4(pid, &ws, 0, nil)
	return ws.Exited() && ws.ExitStatus() == 0
})

// userns asks for a new user namespace mapping this process's user and
// group to themselves, and a new mount namespace.
func userns(sys *syscall.SysProcAttr) {
	sys.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS
	sys.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
	sys.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
	sys.GidMappingsEnableSetgroups = false
}

// carvings are the helper's arguments for the carves of b that exist (a
// path that does not exist has nothing to bind over), and the carves it
// cannot hold.
func carvings(b *sandbox.Boundary) (args []string, left []sandbox.Carve) {
	for _, c := range b.Carves() {
		if _, err := os.Lstat(c.Path); err != nil {
			left = append(left, c)
			continue
		}
		op := "ro"
		if c.Hide {
			op = "hide"
		}
		args = append(args, op, c.Path)
	}
	return args, left
}

// carveOne binds path read-only over itself ("ro"), or hides it ("hide")
// under an empty read-only file system (a directory) or the null device
// (a file). A remount in a user namespace must keep the flags the mount
// was locked with (nosuid, nodev, noexec, the atime ones).
func carveOne(op, path string) error {
	src, fstype, flags := path, "", uintptr(unix.MS_BIND)
	if op == "hide" {
		if fi, err := os.Stat(path); err == nil && fi.IsDir() {
			src, fstype, flags = "none", "tmpfs", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV
		} else {
			src = os.DevNull
		}
	}
	if err := unix.Mount(src, path, fstype, flags, ""); err != nil {
		return fmt.Errorf("%s %s: %w", op, path, err)
	}
	if fstype != "" {
		return nil
	}
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return fmt.Errorf("%s %s: %w", op, path, err)
	}
	keep := uintptr(st.Flags) & (unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC | unix.MS_NOATIME | unix.MS_NODIRATIME | unix.MS_RELATIME)
	if err := unix.Mount("", path, "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY|keep, ""); err != nil {
		return fmt.Errorf("%s %s read-only: %w", op, path, err)
	}
	return nil
}
