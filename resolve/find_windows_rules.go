package resolve

import (
	"io/fs"
	"strings"

	"github.com/chainrun/chainrun/environ"
)

// findWindows applies the Windows rules with the segment's environment:
//
//   - Names containing `\`, `/` or `:` are taken relative to dir (a drive
//     letter with the drive's own directory, `\x` on dir's drive) and never
//     searched in PATH.
//   - Bare names are searched in the directories of every PATH variant, in
//     order; never in the current directory. Relative PATH entries are
//     never used.
//   - In each directory the name itself is tried first when it has an
//     extension, then name+ext for each PATHEXT extension in order; the
//     first directory with a match wins. Directories and files without an
//     extension never match.
//   - A bare name that is a cmd.exe built-in, with no runnable file of that
//     name in PATH, is a CmdBuiltin.
//   - A bare name found only in dir or through a relative PATH entry is an
//     ErrDot error suggesting .\name.
func (r *Resolver) findWindows(name, dir string, env []string) (Target, error) {
	if name == "" || name == "." || name == ".." {
		return Target{}, &Error{Name: name, Err: ErrNotFound, Hint: "not a program name"}
	}
	exts := environ.WindowsPathExts(env)
	if strings.ContainsAny(name, `\/:`) {
		p := winAbs(name, dir, env)
		f, ok := r.winFindFile(p, exts)
		if !ok {
			return Target{}, &Error{Name: name, Err: ErrNoFile,
				Hint: "no file " + trimDotsSpaces(p) + " nor with an extension of PATHEXT (" + strings.Join(exts, " ") + ")"}
		}
		return winTarget(name, f)
	}

	var relHit, relEntry string
	for _, d := range environ.WindowsPathDirs(env) {
		if !winIsAbs(d) {
			if relHit == "" {
				if f, ok := r.winFindFile(winAbs(d+`\`+name, dir, env), exts); ok {
					relHit, relEntry = f, d
				}
			}
			continue
		}
		f, ok := r.winFindFile(winJoin(d, name), exts)
		if !ok {
			continue
		}
		t, err := winTarget(name, f)
		if err != nil && IsCmdBuiltin(name) {
			break // a built-in beats a file Windows cannot run either
		}
		return t, err
	}
	if IsCmdBuiltin(name) {
		return Target{Path: strings.ToLower(name), Kind: CmdBuiltin}, nil
	}
	if relHit != "" {
		return Target{}, &Error{Name: name, Err: ErrDot,
			Hint: "found as " + relHit + " through the relative PATH entry " + relEntry +
				"; use " + dotted(winJoin(relEntry, winBase(relHit))) + " or an absolute PATH entry"}
	}
	if _, ok := r.winFindFile(winJoin(dir, name), exts); ok {
		return Target{}, &Error{Name: name, Err: ErrDot,
			Hint: "use .\\" + name + " to run the program in the current directory"}
	}
	return Target{}, &Error{Name: name, Err: ErrNotFound}
}

// dotted spells a relative path so that it is not searched: .\x.
func dotted(p string) string {
	if winVolume(p) != "" || strings.HasPrefix(p, `\`) || strings.HasPrefix(p, "..") {
		return p
	}
	return `.\` + p
}

// winTarget classifies the file found for name.
func winTarget(name, path string) (Target, error) {
	kind, err := Classify(path)
	if err != nil {
		e := err.(*Error)
		return Target{}, &Error{Name: name, Err: ErrNotExecutable, Hint: path + " is " + e.Hint}
	}
	return Target{Path: path, Kind: kind}, nil
}

// winFindFile tries p itself when its last element has an extension, then
// p+ext for each extension, and returns the first existing file. Trailing
// dots and spaces are trimmed first, as Windows does.
func (r *Resolver) winFindFile(p string, exts []string) (string, bool) {
	p = trimDotsSpaces(p)
	if strings.Contains(winBase(p), ".") && r.winIsFile(p) {
		return p, true
	}
	for _, e := range exts {
		if r.winIsFile(p + e) {
			return p + e, true
		}
	}
	return "", false
}

// winIsFile reports whether p is a file Windows could start: a regular
// file, or an irregular one such as an App Execution Alias (a 0-byte
// reparse point under WindowsApps that only CreateProcess can follow).
func (r *Resolver) winIsFile(p string) bool {
	fi, err := r.fs().Stat(p)
	if err != nil {
		return false
	}
	m := fi.Mode()
	return m.IsRegular() || m.Type() == fs.ModeIrregular
}

// winAbs makes a name containing a separator or drive absolute against
// dir: `C:\x` and `\\host\share\x` as they are, `\x` on dir's drive,
// `C:x` in dir when dir is on drive C, else in the drive's current
// directory from the "=C:" environment variable, else in C:\.
func winAbs(name, dir string, env []string) string {
	vol := winVolume(name)
	rest := name[len(vol):]
	switch {
	case winIsAbs(name):
		return winClean(name)
	case vol != "": // drive-relative
		if strings.EqualFold(winVolume(dir), vol) {
			return winJoin(dir, rest)
		}
		if v := environ.Fold.Values(env, "="+strings.ToUpper(vol)); len(v) > 0 && strings.EqualFold(winVolume(v[0]), vol) {
			return winJoin(v[0], rest)
		}
		return winJoin(vol+`\`, rest)
	case rest != "" && isWinSep(rest[0]): // root of dir's drive
		return winJoin(winVolume(dir), rest)
	default:
		return winJoin(dir, name)
	}
}
