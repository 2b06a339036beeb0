package policy

// JSON and YAML processors: jq and yq read the files they name after
// their filter (unless -f gave it); yq -i edits them in place.

func init() {
	registerAll(
		&program{names: []string{"jq"}, operands: roleRead, script: []string{"-f", "--from-file"}, operandFiles: jqOperands, readOnly: true,
			opts: optSpec{shortVal: "fL", longVal: []string{"from-file", "indent", "arg", "argjson", "slurpfile", "rawfile"},
				roles: map[string]fileRole{"-f": roleRead, "--from-file": roleRead}}},
		&program{names: []string{"yq"}, operands: roleRead, guard: specGuard,
			opts: optSpec{danger: map[string]string{"-i": "yq -i edits files in place", "--inplace": "yq --inplace edits files in place"}}},
	)
}

// jqOperands: the words after --args or --jsonargs are values, not files.
func jqOperands(p *program, files []fileArg, operands []string, opts []flagUse) []fileArg {
	for i, o := range operands {
		if o == "--args" || o == "--jsonargs" {
			operands = operands[:i]
			break
		}
	}
	return p.plainOperands(files, operands, opts, p.operands)
}
