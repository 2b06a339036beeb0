package builtin

import (
	"errors"
	"io"
	"os"
	"strings"

	"github.com/chainrun/chainrun/builtin/spec"
)

// read runs read [-r] [-d DELIM] [NAME…]: one line (up to DELIM) of fd 0,
// read a byte at a time so that what follows stays for the next command,
// split by IFS into the names as bash splits it (the last name takes the
// rest), or the whole line into REPLY. Status 1 at end of input, the
// names assigned all the same; in a pipeline stage it assigns nothing.
func read(io *IO, args []string, c Call, st State) int {
	ra, bad := spec.Read(args)
	if bad != "" {
		return io.fail(2, "read: "+bad+": "+spec.ReadOptionHint(bad))
	}
	for _, n := range ra.Names {
		if !spec.ValidName(n) {
			return io.fail(1, "read: `"+n+"': not a valid identifier")
		}
	}
	var in *os.File
	if len(c.Files) > 0 {
		in = c.Files[0]
	}
	if ra.Prompt != "" && in != nil && isTerminal(in) {
		io.write(2, []byte(ra.Prompt)) // bash prompts only a terminal
	}
	line, quoted, eof := readLine(in, ra)
	sh := st.Shell()
	if len(ra.Names) == 0 {
		sh.Assign("REPLY", string(line))
	} else {
		ifs := " \t\n"
		if v, ok := lookup(c.Env, "IFS"); ok {
			ifs = v
		} else if v, ok := sh.Vars["IFS"]; ok {
			ifs = v
		}
		for i, v := range splitRead(line, quoted, ifs, len(ra.Names)) {
			sh.Assign(ra.Names[i], v)
		}
	}
	if !c.InPipeline {
		st.Keep(sh)
	}
	if eof {
		return 1
	}
	return 0
}

// readLine reads up to the delimiter, a byte at a time. Without -r a
// backslash quotes the next byte (quoted marks it: no IFS split there)
// and a backslash-newline is removed. eof is set when the input ended
// before the delimiter.
func readLine(in *os.File, ra spec.ReadArgs) (line []byte, quoted []bool, eof bool) {
	if in == nil {
		return nil, nil, true
	}
	var b [1]byte
	escape := false
	for {
		n, err := in.Read(b[:])
		if n == 0 || (err != nil && !errors.Is(err, io.EOF) && n == 0) {
			return line, quoted, true
		}
		c := b[0]
		switch {
		case escape:
			escape = false
			if c == '\n' {
				continue
			}
			line, quoted = append(line, c), append(quoted, true)
		case c == '\\' && !ra.Raw:
			escape = true
		case c == ra.Delim:
			return line, quoted, false
		default:
			line, quoted = append(line, c), append(quoted, false)
		}
	}
}

// splitRead splits a line into n values as bash's read does: leading
// and trailing IFS white space dropped, fields ended by an unquoted IFS
// byte (white space runs count once, with at most one other IFS byte),
// the last value the rest of the line; a rest that is one field and its
// delimiter is the field.
func splitRead(line []byte, quoted []bool, ifs string, n int) []string {
	isIFS := func(i int) bool { return !quoted[i] && strings.IndexByte(ifs, line[i]) >= 0 }
	isWhite := func(i int) bool { return isIFS(i) && strings.IndexByte(" \t\n", line[i]) >= 0 }
	skipDelim := func(i int) int {
		for i < len(line) && isWhite(i) {
			i++
		}
		if i < len(line) && isIFS(i) {
			i++
			for i < len(line) && isWhite(i) {
				i++
			}
		}
		return i
	}
	field := func(i int) (string, int) {
		j := i
		for j < len(line) && !isIFS(j) {
			j++
		}
		return string(line[i:j]), j
	}
	out := make([]string, n)
	i := 0
	for i < len(line) && isWhite(i) {
		i++
	}
	for k := 0; k < n-1 && i < len(line); k++ {
		out[k], i = field(i)
		i = skipDelim(i)
	}
	if i < len(line) {
		end := len(line)
		for end > i && isWhite(end-1) {
			end--
		}
		out[n-1] = string(line[i:end])
		if f, j := field(i); skipDelim(j) >= end {
			out[n-1] = f
		}
	}
	return out
}
