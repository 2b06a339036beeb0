package engine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

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
		st.res.ExitCode = r.builtin(seg, files, env, false)
		closeAll(opened)
		st.res.Duration = time.Since(st.start)
		return
	}
	st.done = make(chan struct{})
	go func() {
		defer close(st.done)
		code := r.builtin(seg, files, env, true)
		closeAll(opened)
		if in != r.stdin {
			in.Close()
		}
		if out != r.out.w {
			out.Close()
		}
		st.res.ExitCode = code
		if code == 141 {
			st.res.Signal = int(syscall.SIGPIPE)
		}
		st.res.Duration = time.Since(st.start)
	}()
}

// builtinIO is a built-in's view of its fd table.
type builtinIO struct{ files []*os.File }

// write writes to fd n; a write to a closed pipe reads as SIGPIPE (141).
func (b builtinIO) write(n int, p []byte) int {
	if n >= len(b.files) || b.files[n] == nil {
		return 1
	}
	if _, err := b.files[n].Write(p); err != nil {
		if errors.Is(err, syscall.EPIPE) {
			return 141
		}
		return 1
	}
	return 0
}

// errorf writes "chainrun: msg" to fd 2 and returns code.
func (b builtinIO) fail(code int, msg string) int {
	b.write(2, []byte("chainrun: "+msg+"\n"))
	return code
}

// builtin runs seg's built-in and returns its status. Only when it is not
// inside a pipeline may it change the chain (cd, exit).
func (r *runner) builtin(seg *chain.Segment, files []*os.File, env []string, inPipeline bool) int {
	io := builtinIO{files}
	var args []string
	name := ""
	if len(seg.Args) > 0 {
		name, args = seg.Args[0], seg.Args[1:]
	}
	switch chain.Builtin(name) {
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
	case chain.BuiltinExit:
		code, exit := exitStatus(io, args, r.status)
		if exit && !inPipeline {
			r.exited = true
		}
		return code
	}
	return io.fail(127, name+": command not found")
}

// exitStatus reads exit's argument as bash does: none → the last status,
// a number → it modulo 256, text → 2 with an error, several → 1.
func exitStatus(io builtinIO, args []string, last int) (code int, exit bool) {
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

func (r *runner) pwd(io builtinIO, args []string) int {
	physical, _, bad := physicalOption(args)
	if bad != "" {
		return io.fail(2, "pwd: "+bad+": invalid option")
	}
	d := r.dir
	if physical {
		if p, err := filepath.EvalSymlinks(d); err == nil {
			d = p
		}
	}
	return io.write(1, []byte(d+"\n"))
}

// cd changes the chain's directory for the rest of the chain; inside a
// pipeline it only checks and reports, as bash's subshell would.
func (r *runner) cd(io builtinIO, args []string, env []string, inPipeline bool) int {
	physical, args, bad := physicalOption(args)
	if bad != "" {
		return io.fail(2, "cd: "+bad+": invalid option")
	}
	if len(args) > 1 {
		return io.fail(1, "cd: too many arguments")
	}
	var arg string
	printNew := false
	if len(args) == 0 {
		home, ok := lookup(env, "HOME")
		if !ok {
			return io.fail(1, "cd: HOME not set")
		}
		arg = home
	} else {
		arg = args[0]
		if arg == "-" {
			old, ok := lookup(env, "OLDPWD")
			if !ok || old == "" {
				return io.fail(1, "cd: OLDPWD not set")
			}
			arg, printNew = old, true
		}
	}
	if arg == "" {
		return 0
	}
	// The OS checks the path as written, so "missing/.." fails as in
	// bash; the chain's directory is then the lexically cleaned path
	// (bash's logical cd), or the resolved one with -P.
	asWritten := arg
	if !filepath.IsAbs(asWritten) {
		asWritten = r.dir + string(filepath.Separator) + arg
	}
	dir := filepath.Clean(asWritten)
	fi, err := os.Stat(asWritten)
	if err == nil && !fi.IsDir() {
		err = syscall.ENOTDIR
	}
	if err != nil {
		return io.fail(1, "cd: "+arg+": "+redirect.Describe(err))
	}
	if physical {
		if p, err := filepath.EvalSymlinks(dir); err == nil {
			dir = p
		}
	}
	code := 0
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
// \U character beyond ASCII is written in UTF-8 only in a UTF-8 locale;
// elsewhere bash writes the escape back as \uXXXX (or \UXXXXXXXX).
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
			switch {
			case s[i] == 'x' || v < utf8.RuneSelf:
				b = append(b, byte(v))
			case utf8Locale:
				b = utf8.AppendRune(b, rune(v))
			case v <= 0xffff:
				b = fmt.Appendf(b, "\\u%04X", v)
			default:
				b = fmt.Appendf(b, "\\U%08X", v)
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
