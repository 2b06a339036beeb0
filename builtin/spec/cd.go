package spec

import (
	"path/filepath"
	"runtime"
	"strings"
)

// CdHooks are what cd needs of the shell and the file system.
type CdHooks struct {
	// Lookup returns a shell variable (HOME, OLDPWD, CDPATH).
	Lookup func(name string) (string, bool)
	// Stat returns nil when path is a directory, else why it is not.
	Stat func(path string) error
	// Resolve returns path with its symbolic links resolved (cd -P); nil
	// leaves it as it is.
	Resolve func(path string) string
}

// CdResult is where a cd goes.
type CdResult struct {
	// Dir is the new directory, or "" when cd succeeds and stays (cd "").
	Dir string
	// Print is set when cd prints the new directory: cd - and a CDPATH
	// entry other than the current directory.
	Print bool
}

// CdError is why a cd fails: bash's message after "cd: ", its status,
// and for a target that is no directory, the target and the reason.
type CdError struct {
	Code int
	Msg  string
	Arg  string // the target cd could not enter, or the invalid option
	Err  error  // from CdHooks.Stat
}

func (e *CdError) Error() string {
	if e.Err != nil {
		return "cd: " + e.Arg + ": " + e.Err.Error()
	}
	return "cd: " + e.Msg
}

// Cd is bash's cd from directory dir with arguments args (after the
// name): -L and -P options (the last wins; "--" ends them); no operand is
// $HOME, "-" is $OLDPWD (printed); a relative operand that does not start
// with . or .. is searched in $CDPATH. The OS checks the path as written,
// so "missing/.." fails as in bash; the new directory is the lexically
// cleaned path (bash's logical cd), or with -P the resolved one.
func Cd(dir string, args []string, h CdHooks) (CdResult, error) {
	physical, args, bad := PhysicalOption(args)
	if bad != "" {
		return CdResult{}, &CdError{Code: 2, Msg: bad + ": invalid option", Arg: bad}
	}
	if len(args) > 1 {
		return CdResult{}, &CdError{Code: 1, Msg: "too many arguments"}
	}
	arg, print, err := cdArg(args, h.Lookup)
	if err != nil || arg == "" {
		return CdResult{}, err
	}
	if p, ok := cdPath(dir, arg, h); ok {
		arg, print = p, true
	}
	asWritten := JoinPath(dir, arg, runtime.GOOS == "windows")
	if err := h.Stat(asWritten); err != nil {
		return CdResult{}, &CdError{Code: 1, Arg: arg, Err: err}
	}
	resolve := h.Resolve
	if !physical {
		resolve = nil
	}
	return CdResult{Dir: LogicalDir(dir, arg, resolve), Print: print}, nil
}

// PhysicalOption reads the leading -L and -P options of cd and pwd (the
// last one wins; "--" ends them) and returns the remaining arguments, or
// the first invalid option.
func PhysicalOption(args []string) (physical bool, rest []string, bad string) {
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		for _, c := range a[1:] {
			switch c {
			case 'P':
				physical = true
			case 'L':
				physical = false
			default:
				return physical, args, a
			}
		}
	}
	return physical, args, ""
}

// cdArg is the directory cd goes to before CDPATH: its argument, $HOME
// without one, $OLDPWD for "-" (printed).
func cdArg(args []string, lookup func(string) (string, bool)) (arg string, print bool, err error) {
	if len(args) == 0 {
		home, ok := lookup("HOME")
		if !ok {
			return "", false, &CdError{Code: 1, Msg: "HOME not set"}
		}
		return home, false, nil
	}
	if args[0] != "-" {
		return args[0], false, nil
	}
	old, ok := lookup("OLDPWD")
	if !ok || old == "" {
		return "", false, &CdError{Code: 1, Msg: "OLDPWD not set"}
	}
	return old, true, nil
}

// UsesCdPath reports whether cd looks its operand arg up in CDPATH: a
// relative path that does not start with . or ...
func UsesCdPath(arg string) bool {
	return PathAnchor(arg, runtime.GOOS == "windows") == Relative && arg != "." && arg != ".." &&
		!strings.HasPrefix(arg, "./") && !strings.HasPrefix(arg, "../")
}

// cdPath searches CDPATH for arg, as bash does: the first entry holding
// the directory wins, and the new directory is printed unless the entry
// was empty (the current directory).
func cdPath(dir, arg string, h CdHooks) (string, bool) {
	if !UsesCdPath(arg) {
		return "", false
	}
	cdpath, ok := h.Lookup("CDPATH")
	if !ok || cdpath == "" {
		return "", false
	}
	for _, e := range filepath.SplitList(cdpath) {
		if e == "" {
			if h.Stat(filepath.Join(dir, arg)) == nil {
				return "", false
			}
			continue
		}
		p := JoinPath(dir, e+string(filepath.Separator)+arg, runtime.GOOS == "windows")
		if h.Stat(p) == nil {
			return p, true
		}
	}
	return "", false
}

// LogicalDir is the directory cd arg leads to from dir: the lexically
// cleaned path, or with resolve its symbolic links resolved. On POSIX a
// path that begins with exactly two slashes keeps them, as bash keeps
// them (POSIX leaves their meaning to the system): cd // prints //.
func LogicalDir(dir, arg string, resolve func(string) string) string {
	windows := runtime.GOOS == "windows"
	p := JoinPath(dir, arg, windows)
	twoSlashes := !windows && (doubleSlash(p) || !filepath.IsAbs(arg) && doubleSlash(dir))
	d := filepath.Clean(p)
	if resolve != nil {
		d = resolve(d)
	}
	if twoSlashes && runtime.GOOS != "windows" {
		d = "/" + d
	}
	return d
}

func doubleSlash(p string) bool { return strings.HasPrefix(p, "//") && !strings.HasPrefix(p, "///") }
