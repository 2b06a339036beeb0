package policy

import "strings"

// awk runs the program it is given (-e/--source, or the first operand)
// on the files it names; NAME=value operands are assignments. After -W
// (mawk -W exec FILE) the first operand may be the program's file, so it
// is judged as a path then. Its guard
// refuses the options that load code from files and reads every program
// for what runs commands or writes files.

func registerAwk() {
	register(&program{names: []string{"awk", "gawk", "mawk", "nawk"}, operands: roleRead, first: roleCode, firstGiven: []string{"-f", "--file", "-e", "--source", "-W"},
		operandFiles: awkOperands, guard: awkGuard, runsCode: true,
		opts: optSpec{shortVal: "FfveilW", longVal: []string{"field-separator", "assign", "source", "file", "include", "load", "exec"},
			abbrev: true,
			danger: map[string]string{
				"-f": "awk -f reads a program that cannot be checked", "--file": "awk --file reads a program that cannot be checked",
				"-i": "awk -i includes a library", "--include": "awk --include includes a library",
				"-l": "awk -l loads an extension", "--load": "awk --load loads an extension",
				"-E": "awk -E reads a program that cannot be checked", "--exec": "awk --exec reads a program that cannot be checked",
				"-W": "awk -W options can read a program from a file (mawk -W exec)",
			},
			roles: map[string]fileRole{"-e": roleCode, "--source": roleCode, "-f": roleRead, "--file": roleRead}}})
}

// awkGuard refuses awk's options that load code from files, and reads
// every program (-e/--source, or the first operand) for what runs commands
// or writes files.
func awkGuard(p *program, _ string, args []word) string {
	operands, opts := walkFlags(args, &p.opts)
	if r := p.opts.dangerIn(opts); r != "" {
		return r
	}
	progs := p.opts.valuesOf(opts, roleCode)
	if len(progs) == 0 && len(operands) > 0 {
		progs = operands[:1]
	}
	for _, w := range progs {
		prog, ok := w.known()
		if !ok {
			continue // runtimeArgGuard stops a program known only at run time
		}
		if r := awkProgramDanger(prog); r != "" {
			return r
		}
	}
	return ""
}

// awkOperands: awk's operands are files it reads, but for NAME=value
// assignments.
func awkOperands(p *program, files []fileArg, operands []word, opts []flagUse) []fileArg {
	for _, o := range p.skipScript(operands, opts) {
		if _, ok := assignWord(o); !ok {
			files = append(files, fileArg{word: o, role: roleRead, what: "path"})
		}
	}
	return files
}

// awkProgramDanger finds system(), pipes to or from commands, and print or
// printf output redirected to a file, outside string literals.
func awkProgramDanger(p string) string {
	code := awkBlankStrings(p)
	for off := 0; ; {
		idx := strings.Index(code[off:], "system")
		if idx < 0 {
			break
		}
		off += idx + len("system")
		rest := strings.TrimLeft(code[off:], " \t\n")
		if strings.HasPrefix(rest, "(") {
			return "awk system() runs a command"
		}
	}
	if strings.Contains(code, "@load") || strings.Contains(code, "@include") {
		return "awk @load/@include brings in outside code"
	}
	if strings.Contains(strings.ReplaceAll(code, "||", ""), "|") {
		return "awk pipes to or from a command"
	}
	if awkPrintRedirect(code) {
		return "awk print > file writes a file"
	}
	return ""
}

// awkBlankStrings empties the string literals of an awk program, so a
// "|" or "system(" inside one is not read as code.
func awkBlankStrings(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '"' {
			b.WriteString(`""`)
			for i++; i < len(p) && p[i] != '"'; i++ {
				if p[i] == '\\' {
					i++
				}
			}
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// awkPrintRedirect reports a print or printf statement with a ">" outside
// parentheses before the statement ends: output to a file.
func awkPrintRedirect(code string) bool {
	for _, kw := range []string{"printf", "print"} {
		for off := 0; ; {
			j := strings.Index(code[off:], kw)
			if j < 0 {
				break
			}
			j += off
			off = j + len(kw)
			if j > 0 && isWordByte(code[j-1]) || off < len(code) && isWordByte(code[off]) {
				continue
			}
			depth := 0
			for k := off; k < len(code); k++ {
				c := code[k]
				if c == '(' {
					depth++
				} else if c == ')' {
					depth--
				} else if depth <= 0 && (c == ';' || c == '}' || c == '\n') {
					break
				} else if depth <= 0 && c == '>' {
					return true
				}
			}
		}
	}
	return false
}

// isWordByte reports a byte of an awk identifier.
func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
