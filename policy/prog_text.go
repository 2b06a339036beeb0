package policy

// Text readers: programs that read the files they name and print what
// they find (coreutils, checksums, viewers, encoders). Their value-taking
// options are listed so a value is not read as a path; the few options
// that write (sort -o, base64 -o) are their guards.

func registerText() {
	registerAll(
		&program{names: []string{"cat", "comm", "rev"}, operands: roleRead, readOnly: true},
		&program{names: []string{"head"}, operands: roleRead, readOnly: true,
			opts: optSpec{shortVal: "nc", longVal: []string{"lines", "bytes"}, abbrev: true}},
		&program{names: []string{"tail"}, operands: roleRead, readOnly: true,
			opts: optSpec{shortVal: "ncs", longVal: []string{"lines", "bytes", "sleep-interval", "pid", "max-unchanged-stats"}, abbrev: true}},
		&program{names: []string{"cut"}, operands: roleRead, readOnly: true,
			opts: optSpec{shortVal: "bcdf", longVal: []string{"bytes", "characters", "delimiter", "fields", "output-delimiter"}, abbrev: true}},
		&program{names: []string{"wc"}, operands: roleRead, readOnly: true,
			opts: optSpec{longVal: []string{"files0-from"}, abbrev: true, roles: map[string]fileRole{"--files0-from": roleList}}},
		&program{names: []string{"nl"}, operands: roleRead, readOnly: true, opts: optSpec{shortVal: "bdfhilnsvwp", abbrev: true}},
		&program{names: []string{"od"}, operands: roleRead, readOnly: true, opts: optSpec{shortVal: "AjNStw", abbrev: true}},
		&program{names: []string{"column"}, operands: roleRead, readOnly: true, opts: optSpec{shortVal: "csoNtRdlEHTWrC", abbrev: true}},
		&program{names: []string{"paste"}, operands: roleRead, readOnly: true, opts: optSpec{shortVal: "d", longVal: []string{"delimiters"}, abbrev: true}},
		&program{names: []string{"fold"}, operands: roleRead, readOnly: true, opts: optSpec{shortVal: "w", longVal: []string{"width"}, abbrev: true}},
		&program{names: []string{"expand", "unexpand"}, operands: roleRead, readOnly: true, opts: optSpec{shortVal: "t", longVal: []string{"tabs"}, abbrev: true}},
		&program{names: []string{"tac"}, operands: roleRead, readOnly: true, opts: optSpec{shortVal: "s", longVal: []string{"separator"}, abbrev: true}},
		&program{names: []string{"tr"}, readOnly: true},
		&program{names: []string{"sort"}, operands: roleRead, readOnly: true, guard: specGuard,
			opts: optSpec{
				shortVal: "kotST",
				longVal: []string{"key", "output", "field-separator", "buffer-size", "temporary-directory", "compress-program", "batch-size",
					"files0-from", "random-source", "sort", "parallel"},
				longFlag: []string{"reverse", "numeric-sort", "unique", "check", "merge", "stable", "version-sort", "human-numeric-sort",
					"ignore-case", "zero-terminated", "general-numeric-sort", "month-sort", "random-sort", "debug", "dictionary-order",
					"ignore-leading-blanks", "ignore-nonprinting"},
				abbrev: true,
				danger: map[string]string{"-o": "sort -o writes a file", "--output": "sort --output writes a file",
					"--compress-program": "sort --compress-program runs a program"},
				roles: map[string]fileRole{"-o": roleWrite, "--output": roleWrite, "--files0-from": roleList, "-T": roleTouch,
					"--temporary-directory": roleTouch}}},
		// uniq writes its second operand.
		&program{names: []string{"uniq"}, operands: roleRead, readOnly: true, guard: uniqGuard, operandFiles: uniqOperands,
			opts: optSpec{shortVal: "fsw", longVal: []string{"skip-fields", "skip-chars", "check-chars", "all-repeated", "group"}, abbrev: true}},
		// Checksums: -c/--check reads the lists it is given and every file
		// they name (sumnames.go).
		&program{names: []string{"sha256sum", "sha1sum", "sha512sum", "sha224sum", "sha384sum", "md5sum", "b2sum", "cksum"},
			operands: roleRead, readOnly: true, guard: specGuard, operandFiles: sumOperands,
			opts: optSpec{shortVal: "la", shortFlag: "c", longVal: []string{"length", "algorithm"}, abbrev: true,
				longFlag: []string{"check", "binary", "text", "tag", "zero", "quiet", "status", "strict", "warn", "ignore-missing", "untagged",
					"base64", "raw"}}},
		&program{names: []string{"base64"}, operands: roleRead, guard: specGuard,
			opts: optSpec{shortVal: "bwio", longVal: []string{"wrap", "input", "output"}, abbrev: true,
				danger: map[string]string{"-o": "base64 -o writes a file", "--output": "base64 --output writes a file"},
				roles:  map[string]fileRole{"-i": roleRead, "--input": roleRead, "-o": roleWrite, "--output": roleWrite}}},
		&program{names: []string{"less", "more", "sum", "base32", "basenc", "strings", "xxd", "hexdump", "bat", "batcat", "zcat", "bzcat",
			"xzcat", "iconv", "look", "tsort", "shuf", "pr", "fmt", "join"}, operands: roleRead},
		// split reads its input and writes PREFIXaa, PREFIXab…; --filter
		// hands each piece to a shell command.
		&program{names: []string{"split", "csplit"}, operands: roleRead, operandFiles: splitOperands, guard: specGuard,
			opts: optSpec{shortVal: "abCflnt", longVal: []string{"suffix-length", "bytes", "line-bytes", "lines", "number", "separator",
				"additional-suffix", "filter", "prefix", "suffix-format", "digits"}, longOpt: []string{"numeric-suffixes", "hex-suffixes"},
				abbrev: true, danger: map[string]string{"--filter": "split --filter runs a shell command"}}},
	)
}

// uniqGuard: uniq writes its second operand.
func uniqGuard(p *program, _ string, args []word) string {
	operands, _ := scanFlags(args, &p.opts)
	if len(operands) >= 2 {
		return "uniq writes its second operand " + quoteWord(operands[1])
	}
	return ""
}

// uniqOperands: uniq reads its first operand and writes its second.
func uniqOperands(p *program, files []fileArg, operands []word, opts []flagUse) []fileArg {
	return operandRoles(files, operands, 1, roleWrite, roleRead)
}

// sumOperands: with -c/--check the operands (none: standard input) are
// checksum lists, read with the files they name; else files to sum.
func sumOperands(p *program, files []fileArg, operands []word, opts []flagUse) []fileArg {
	if _, check := findFlag(opts, "-c", "--check"); !check {
		return p.plainOperands(files, operands, opts, roleRead)
	}
	if len(operands) == 0 {
		operands = []word{lit("-")}
	}
	for _, o := range operands {
		files = append(files, fileArg{word: o, role: roleSums, what: "checksum"})
	}
	return files
}

// splitOperands: split INPUT PREFIX reads INPUT and writes every file
// whose name is PREFIX (default x, or csplit's -f/--prefix; csplit's
// further operands are patterns) and a suffix.
func splitOperands(p *program, files []fileArg, operands []word, opts []flagUse) []fileArg {
	if len(operands) > 0 {
		files = append(files, fileArg{word: operands[0], role: roleRead, what: "path"})
	}
	prefix, given := findFlag(opts, "-f", "--prefix")
	if !given && len(operands) > 1 && p.names[0] == "split" {
		prefix, given = operands[1], true
	}
	if !given {
		prefix = lit("x")
	}
	return append(files, fileArg{word: prefix, role: roleWrite, what: "output prefix", tree: treePrefix})
}
