package policy

// JSON and YAML processors: jq and yq read the files they name after
// their filter (unless -f gave it); yq -i edits them in place. jq's
// --arg, --argjson, --slurpfile and --rawfile take a name and a value, the
// last two a file they read.

func registerJson() {
	registerAll(
		&program{names: []string{"jq"}, operands: roleRead, first: roleCode, firstGiven: []string{"-f", "--from-file"}, files: jqFiles, readOnly: true,
			opts: optSpec{shortVal: "fL", longVal: []string{"from-file", "indent"}, longPair: []string{"arg", "argjson", "slurpfile", "rawfile"},
				roles: map[string]fileRole{"-f": roleRead, "--from-file": roleRead, "--slurpfile": roleRead, "--rawfile": roleRead, "-L": roleRead}}},
		&program{names: []string{"yq"}, operands: roleRead, guard: specGuard,
			opts: optSpec{danger: map[string]string{"-i": "yq -i edits files in place", "--inplace": "yq --inplace edits files in place"}}},
	)
}

// jqFiles: the words after --args or --jsonargs are values, not files.
func jqFiles(p *program, args []word) []fileArg {
	for i, a := range args {
		if a.is("--") {
			break
		}
		if a.isOneOf("--args", "--jsonargs") {
			args = args[:i]
			break
		}
	}
	operands, opts := walkFlags(args[1:], &p.opts)
	return p.plainOperands(optionFiles(opts, &p.opts), operands, opts, p.operands)
}
