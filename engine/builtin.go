package engine

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/redirect"
)

// startBuiltin runs an engine built-in: inline when it is the whole
// pipeline (so cd and exit affect the chain), in a goroutine writing to
// its pipe when it is one stage of several (so they affect nothing after,
// as in bash's subshell).
func (r *runner) startBuiltin(st *stage, seg *chain.Segment, in, out *os.File, env []string, inPipeline bool) {
	files, opened, ok := r.redirectStage(st, seg, in, out)
	if !ok {
		return
	}
	st.res.Kind = "builtin"
	if !inPipeline {
		code, sigpipe := r.builtin(seg, files, env, false)
		closeAll(opened)
		st.res.ExitCode = code
		if sigpipe {
			// bash itself would have died of the SIGPIPE: nothing after
			// this runs, and the chain's status is the signal's.
			st.res.Signal = int(syscall.SIGPIPE)
			r.exited = true
		}
		st.res.Duration = time.Since(st.start)
		return
	}
	st.done = make(chan struct{})
	go func() {
		defer close(st.done)
		code, sigpipe := r.builtin(seg, files, env, true)
		closeAll(opened)
		if in != r.stdin {
			in.Close()
		}
		if out != r.out.w {
			out.Close()
		}
		st.res.ExitCode = code
		if sigpipe {
			st.res.Signal = int(syscall.SIGPIPE)
		}
		st.res.Duration = time.Since(st.start)
	}()
}

// builtinIO is a built-in's view of its fd table.
type builtinIO struct {
	files   []*os.File
	name    string // the built-in, for its error messages
	sigpipe bool   // a write found the reader gone
}

// write writes p to fd n as bash's built-ins do: a reader that is gone
// reads as death by SIGPIPE (141, as bash's process would die), any other
// failure as "NAME: write error: REASON" and status 1. Nothing to write is
// no write, so echo -n > /dev/full succeeds.
func (b *builtinIO) write(n int, p []byte) int {
	if len(p) == 0 {
		return 0
	}
	if n >= len(b.files) || b.files[n] == nil {
		return b.fail(1, b.name+": write error: "+redirect.Describe(syscall.EBADF))
	}
	if err := writeFile(b.files[n], p); err != nil {
		if isBrokenPipe(err) {
			b.sigpipe = true
			return 141
		}
		return b.fail(1, b.name+": write error: "+redirect.Describe(err))
	}
	return 0
}

// fail writes "chainrun: msg" to fd 2 and returns code; a message that
// cannot be written is lost, as bash's is.
func (b *builtinIO) fail(code int, msg string) int {
	if len(b.files) > 2 && b.files[2] != nil {
		writeFile(b.files[2], []byte("chainrun: "+msg+"\n"))
	}
	return code
}

// builtin runs seg's built-in and returns its status, and whether a write
// found its reader gone. Only when it is not inside a pipeline may it
// change the chain (cd, exit).
func (r *runner) builtin(seg *chain.Segment, files []*os.File, env []string, inPipeline bool) (int, bool) {
	var args []string
	name := ""
	if len(seg.Args) > 0 {
		name, args = seg.Args[0], seg.Args[1:]
	}
	io := &builtinIO{files: files, name: name}
	if len(seg.Args) == 0 {
		return r.assign(seg.Assigns, inPipeline), false
	}
	b := seg.Builtin // the canonical name: the Windows dialect matches any case
	if b == "" {
		b = chain.Builtin(name)
	}
	code := r.runBuiltin(io, b, args, env, inPipeline)
	return code, io.sigpipe
}

// runBuiltin dispatches to the built-in b.
func (r *runner) runBuiltin(io *builtinIO, b chain.Builtin, args, env []string, inPipeline bool) int {
	switch b {
	case "", chain.BuiltinTrue:
		return 0
	case chain.BuiltinFalse:
		return 1
	case chain.BuiltinEcho:
		return io.write(1, echo(args, localeIsUTF8(env)))
	case chain.BuiltinPwd:
		return r.pwd(io, args)
	case chain.BuiltinCd:
		return r.cd(io, args, env, inPipeline)
	case chain.BuiltinTest, chain.BuiltinBracket:
		return r.test(io, string(b), args, env)
	case chain.BuiltinPrintf:
		return printf(io, args, env, func(name, value string) {
			if !inPipeline {
				r.assign([]chain.Assign{{Name: name, Value: value}}, false)
			}
		})
	case chain.BuiltinExport:
		return r.export(io, args, inPipeline)
	case chain.BuiltinUnset:
		return r.unset(io, args, inPipeline)
	case chain.BuiltinExit:
		if len(args) > 0 && args[0] == "--help" {
			return help(io, "exit [n]", "End the chain with status N (default: the last status).")
		}
		code, exit := exitStatus(io, args, r.status)
		if exit && !inPipeline {
			r.exited = true
		}
		return code
	}
	return io.fail(127, io.name+": command not found")
}

// exitStatus reads exit's argument as bash does: none → the last status,
// a number → it modulo 256, text → 2 with an error, several → 1.
func exitStatus(io *builtinIO, args []string, last int) (code int, exit bool) {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return last, true
	}
	n, err := strconv.ParseInt(strings.TrimSpace(args[0]), 10, 64)
	if err != nil {
		return io.fail(2, "exit: "+args[0]+": numeric argument required"), true
	}
	if len(args) > 1 {
		return io.fail(1, "exit: too many arguments"), true
	}
	return int(uint8(n)), true
}

// physicalOption reads the leading -L and -P options of cd and pwd (the
// last one wins; "--" ends them) and returns the remaining arguments, or
// the first invalid option.
func physicalOption(args []string) (physical bool, rest []string, bad string) {
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

func (r *runner) pwd(io *builtinIO, args []string) int {
	if len(args) > 0 && args[0] == "--help" {
		return help(io, "pwd [-LP]", "Print the chain's working directory (-P: with symbolic links resolved).")
	}
	physical, _, bad := physicalOption(args)
	if bad != "" {
		return io.fail(2, "pwd: "+bad+": invalid option")
	}
	d := r.dir
	if physical {
		d = logicalDir(r.dir, ".", true)
	}
	return io.write(1, []byte(d+"\n"))
}

// cd changes the chain's directory for the rest of the chain; inside a
// pipeline it only checks and reports, as bash's subshell would.
func (r *runner) cd(io *builtinIO, args []string, env []string, inPipeline bool) int {
	if len(args) > 0 && args[0] == "--help" {
		return help(io, "cd [-L|-P] [dir]", "Change the chain's working directory to DIR (default: $HOME), searching CDPATH.")
	}
	physical, args, bad := physicalOption(args)
	if bad != "" {
		return io.fail(2, "cd: "+bad+": invalid option")
	}
	if len(args) > 1 {
		return io.fail(1, "cd: too many arguments")
	}
	arg, printNew, code := cdArg(io, args, env)
	if code != 0 || arg == "" {
		return code
	}
	if p, ok := r.cdPath(arg, env); ok {
		arg, printNew = p, true
	}
	// The OS checks the path as written, so "missing/.." fails as in
	// bash; the chain's directory is then the lexically cleaned path
	// (bash's logical cd), or the resolved one with -P.
	asWritten := arg
	if !filepath.IsAbs(asWritten) {
		asWritten = r.dir + string(filepath.Separator) + arg
	}
	fi, err := os.Stat(asWritten)
	if err == nil && !fi.IsDir() {
		err = syscall.ENOTDIR
	}
	if err != nil {
		return io.fail(1, "cd: "+arg+": "+redirect.Describe(err))
	}
	dir := logicalDir(r.dir, arg, physical)
	if printNew {
		code = io.write(1, []byte(dir+"\n"))
	}
	if !inPipeline {
		r.setEnv("OLDPWD", r.dir)
		r.setEnv("PWD", dir)
		r.dir = dir
	}
	return code
}

// cdArg is the directory cd goes to before CDPATH: its argument, $HOME
// without one, $OLDPWD for "-" (printed); code is non-zero when it is not
// set.
func cdArg(io *builtinIO, args, env []string) (arg string, printNew bool, code int) {
	if len(args) == 0 {
		home, ok := lookup(env, "HOME")
		if !ok {
			return "", false, io.fail(1, "cd: HOME not set")
		}
		return home, false, 0
	}
	if args[0] != "-" {
		return args[0], false, 0
	}
	old, ok := lookup(env, "OLDPWD")
	if !ok || old == "" {
		return "", false, io.fail(1, "cd: OLDPWD not set")
	}
	return old, true, 0
}

// cdPath searches the segment's CDPATH for a relative arg that does not
// start with . or .., as bash does: the first entry holding the directory
// wins, and the new directory is printed unless the entry was empty (the
// current directory).
func (r *runner) cdPath(arg string, env []string) (string, bool) {
	cdpath, ok := lookup(env, "CDPATH")
	if !ok || cdpath == "" || filepath.IsAbs(arg) || arg == "." || arg == ".." ||
		strings.HasPrefix(arg, "./") || strings.HasPrefix(arg, "../") {
		return "", false
	}
	for _, e := range filepath.SplitList(cdpath) {
		if e == "" {
			if fi, err := os.Stat(filepath.Join(r.dir, arg)); err == nil && fi.IsDir() {
				return "", false
			}
			continue
		}
		p := e + string(filepath.Separator) + arg
		if !filepath.IsAbs(p) {
			p = r.dir + string(filepath.Separator) + p
		}
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return p, true
		}
	}
	return "", false
}

// logicalDir is the directory cd arg leads to from dir: the lexically
// cleaned path, or with physical the symbolic links resolved. On POSIX a
// path that begins with exactly two slashes keeps them, as bash keeps
// them (POSIX leaves their meaning to the system): cd // prints //.
func logicalDir(dir, arg string, physical bool) string {
	p := arg
	if !filepath.IsAbs(p) {
		p = dir + string(filepath.Separator) + arg
	}
	twoSlashes := runtime.GOOS != "windows" && doubleSlash(p) || !filepath.IsAbs(arg) && doubleSlash(dir)
	d := filepath.Clean(p)
	if physical {
		if e, err := filepath.EvalSymlinks(d); err == nil {
			d = e
		}
	}
	if twoSlashes && runtime.GOOS != "windows" {
		d = "/" + d
	}
	return d
}

func doubleSlash(p string) bool { return strings.HasPrefix(p, "//") && !strings.HasPrefix(p, "///") }

// help answers NAME --help as bash's built-ins do: a usage line and what
// the built-in does, on stdout, and status 2.
func help(io *builtinIO, usage, what string) int {
	io.write(1, []byte(io.name+": "+usage+"\n    "+what+"\n"))
	return 2
}

// echo renders bash's builtin echo: leading words made only of -n, -e and
// -E letters are options; -e turns on backslash escapes, and \c stops all
// output.
func echo(args []string, utf8Locale bool) []byte {
	newline, escapes := true, false
	for len(args) > 0 {
		a := args[0]
		if len(a) < 2 || a[0] != '-' || strings.Trim(a[1:], "neE") != "" {
			break
		}
		for _, c := range a[1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	var b []byte
	for i, a := range args {
		if i > 0 {
			b = append(b, ' ')
		}
		if !escapes {
			b = append(b, a...)
			continue
		}
		var stop bool
		b, stop = appendEscaped(b, a, utf8Locale)
		if stop {
			return b
		}
	}
	if newline {
		b = append(b, '\n')
	}
	return b
}

// appendEscaped expands echo -e escapes in s; stop is set by \c. A \u or
// \U character is written as appendUnicode says.
func appendEscaped(b []byte, s string, utf8Locale bool) (_ []byte, stop bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b = append(b, c)
			continue
		}
		i++
		switch s[i] {
		case 'a':
			b = append(b, 7)
		case 'b':
			b = append(b, 8)
		case 'c':
			return b, true
		case 'e', 'E':
			b = append(b, 27)
		case 'f':
			b = append(b, 12)
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'v':
			b = append(b, 11)
		case '\\':
			b = append(b, '\\')
		case '0':
			v, j := 0, i+1
			for ; j < len(s) && j < i+4 && s[j] >= '0' && s[j] <= '7'; j++ {
				v = v*8 + int(s[j]-'0')
			}
			b = append(b, byte(v))
			i = j - 1
		case 'x', 'u', 'U':
			maxDigits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[s[i]]
			v, j := 0, i+1
			for ; j < len(s) && j < i+1+maxDigits && isHex(s[j]); j++ {
				v = v*16 + hexVal(s[j])
			}
			if j == i+1 {
				b = append(b, '\\', s[i])
				continue
			}
			if s[i] == 'x' {
				b = append(b, byte(v))
			} else {
				b = appendUnicode(b, uint64(v), utf8Locale)
			}
			i = j - 1
		default:
			b = append(b, '\\', s[i])
		}
	}
	return b, false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) int {
	switch {
	case c >= 'a':
		return int(c-'a') + 10
	case c >= 'A':
		return int(c-'A') + 10
	}
	return int(c - '0')
}

// localeIsUTF8 reports whether the chain's locale (LC_ALL, else LC_CTYPE,
// else LANG) names UTF-8, which is how bash decides whether echo can write
// a \u character: by the name, whether or not the locale is installed.
func localeIsUTF8(env []string) bool {
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v, ok := lookup(env, k); ok && v != "" {
			v = strings.ToLower(v)
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
		}
	}
	return false
}
