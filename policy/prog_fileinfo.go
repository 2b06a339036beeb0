package policy

import (
	"path/filepath"
	"strings"
)

// File information: programs that list, describe or compare the files
// they name (ls, stat, du, tree, file, diff). They read; tree -o writes.

func registerFileinfo() {
	registerAll(
		&program{names: []string{"ls"}, operands: roleRead, readOnly: true, tree: followTree("L", "--dereference"),
			opts: optSpec{shortVal: "ITw", longVal: []string{"ignore", "hide", "tabsize", "width", "block-size", "color", "format",
				"indicator-style", "quoting-style", "sort", "time", "time-style"}, abbrev: true}},
		&program{names: []string{"stat"}, operands: roleRead, readOnly: true,
			opts: optSpec{shortVal: "c", longVal: []string{"format", "printf"}, abbrev: true}},
		&program{names: []string{"du"}, operands: roleRead, readOnly: true, tree: followTree("L", "--dereference"),
			opts: optSpec{shortVal: "dBtX", longVal: []string{"max-depth", "block-size", "threshold", "exclude", "exclude-from", "files0-from",
				"time", "time-style"}, abbrev: true, roles: map[string]fileRole{"--files0-from": roleList, "-X": roleRead, "--exclude-from": roleRead}}},
		&program{names: []string{"tree"}, operands: roleRead, readOnly: true, guard: specGuard, tree: followTree("l", "--follow"),
			opts: optSpec{shortVal: "LPIoHT", longVal: []string{"filelimit", "timefmt", "sort", "charset"},
				danger: map[string]string{"-o": "tree -o writes a file"}, roles: map[string]fileRole{"-o": roleWrite}}},
		&program{names: []string{"diff"}, operands: roleRead, readOnly: true,
			opts: optSpec{shortVal: "CUIxXFLD", longVal: []string{"context", "unified", "ignore-matching-lines", "exclude", "exclude-from",
				"show-function-line", "label", "to-file", "from-file", "ifdef", "line-format", "width", "tabsize", "color", "palette",
				"horizon-lines"}, abbrev: true,
				roles: map[string]fileRole{"-X": roleRead, "--exclude-from": roleRead, "--to-file": roleRead, "--from-file": roleRead}}},
		&program{names: []string{"cmp"}, operands: roleRead, readOnly: true,
			opts: optSpec{shortVal: "inIN", longVal: []string{"ignore-initial", "bytes"}, abbrev: true}},
		&program{names: []string{"readlink", "realpath"}, operands: roleRead, readOnly: true},
		// test and [ look only at a file's type and metadata: their words
		// are text to them, as to echo.
		&program{names: []string{"test", "["}, text: true},
		&program{names: []string{"type", "diff3", "sdiff"}, operands: roleRead},
		&program{names: []string{"file"}, readOnly: true, files: fileCmdFiles,
			opts: optSpec{shortVal: "mfFeP", longVal: []string{"magic-file", "files-from", "separator", "exclude", "exclude-quiet", "parameter"},
				abbrev: true, roles: map[string]fileRole{"-m": roleRead, "--magic-file": roleRead, "-f": roleList, "--files-from": roleList}}},
	)
}

// followTree is the tree reading of a lister that walks directories only
// to follow links with the option short or long (ls -L, du -L, tree -l).
func followTree(short, long string) func(args []word) ([]word, string) {
	return func(args []word) ([]word, string) { return nil, treeOpt(args, short, long) }
}

// fileCmdFiles: file reads its operands, its magic files (-m) and name
// list (-f); -C compiles each magic file into NAME.mgc in the current
// directory.
func fileCmdFiles(p *program, args []word) []fileArg {
	operands, opts := walkFlags(args[1:], &p.opts)
	files := optionFiles(opts, &p.opts)
	if _, compile := findFlag(opts, "-C", "--compile"); compile {
		magic := []string{"magic"}
		if m, ok := findFlag(opts, "-m", "--magic-file"); ok {
			if s, known := m.known(); known {
				magic = strings.Split(s, ":")
			} else { // NAME.mgc for names known only at run time
				magic = nil
				files = append(files, fileArg{word: unknownWord(m.show() + ".mgc"), role: roleWrite, what: "file -C output"})
			}
		}
		for _, m := range magic {
			files = append(files, fileArg{word: lit(filepath.Base(m) + ".mgc"), role: roleWrite, what: "file -C output"})
		}
	}
	for _, o := range operands {
		files = append(files, fileArg{word: o, role: roleRead, what: "path"})
	}
	return files
}
