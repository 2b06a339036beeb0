package policy

import (
	"path/filepath"
	"strings"
)

// File operations: programs that create, change, copy, link or remove the
// files they name (coreutils, and Windows' copy, move, del, mklink). What
// they write needs permission of its own (an Edit rule, acceptEdits mode).

// recursiveForce are the aliases of rm, cp, scp and rsync: -r is -R.
var recursiveForce = sameFlags([]string{"-r", "-R", "--recursive"}, []string{"-f", "--force"})

// modeFlags are the aliases of chmod, chown and chgrp, whose -r is a mode.
var modeFlags = sameFlags([]string{"-R", "--recursive"}, []string{"-f", "--silent", "--quiet"})

// copyOpts are the value-taking options of cp, install and mv.
var copyOpts = optSpec{shortVal: "tSmogZ", longVal: []string{"target-directory", "suffix", "mode", "owner", "group", "context", "sparse",
	"reflink", "backup", "preserve", "no-preserve"}, abbrev: true}

func init() {
	registerAll(
		&program{names: []string{"cp"}, acceptEdits: true, opts: copyOpts, files: copyFiles(roleRead), tree: cpTree, aliases: recursiveForce},
		&program{names: []string{"install", "copy"}, opts: copyOpts, files: copyFiles(roleRead)},
		&program{names: []string{"mv"}, acceptEdits: true, opts: copyOpts, files: copyFiles(roleWrite)},
		&program{names: []string{"move"}, opts: copyOpts, files: copyFiles(roleWrite)},
		&program{names: []string{"ln"}, files: linkFiles,
			opts: optSpec{shortVal: "tS", longVal: []string{"target-directory", "suffix", "backup"}, abbrev: true}},
		&program{names: []string{"mklink"}, files: mklinkFiles},
		&program{names: []string{"dd"}, files: ddFiles},
		&program{names: []string{"tee"}, operands: roleWrite},
		&program{names: []string{"mkdir"}, acceptEdits: true, operands: roleWrite, opts: optSpec{shortVal: "m", longVal: []string{"mode", "context"}, abbrev: true}},
		&program{names: []string{"touch"}, acceptEdits: true, operands: roleWrite,
			opts: optSpec{shortVal: "drt", longVal: []string{"date", "reference", "time"}, abbrev: true,
				roles: map[string]fileRole{"-r": roleRead, "--reference": roleRead}}},
		&program{names: []string{"truncate"}, operands: roleWrite,
			opts: optSpec{shortVal: "sr", longVal: []string{"size", "reference"}, abbrev: true,
				roles: map[string]fileRole{"-r": roleRead, "--reference": roleRead}}},
		// chmod, chown and chgrp: the first operand is the mode or owner,
		// unless --reference gave it.
		&program{names: []string{"chmod", "chgrp"}, operands: roleWrite, operandFiles: modeOperands, aliases: modeFlags,
			opts: optSpec{longVal: []string{"reference"}, abbrev: true, roles: map[string]fileRole{"--reference": roleRead}}},
		&program{names: []string{"chown"}, operands: roleWrite, operandFiles: modeOperands, aliases: modeFlags,
			opts: optSpec{longVal: []string{"reference", "from"}, abbrev: true, roles: map[string]fileRole{"--reference": roleRead}}},
		&program{names: []string{"rm"}, acceptEdits: true, operands: roleRemove, aliases: recursiveForce},
		&program{names: []string{"rmdir"}, acceptEdits: true, operands: roleRemove},
		&program{names: []string{"unlink", "shred", "del", "erase", "rd"}, operands: roleRemove},
	)
}

// copyFiles: cp and install read their sources and write the last operand
// (or into -t DIR); mv writes (removes) its sources too.
func copyFiles(src fileRole) func(p *program, args []word) []fileArg {
	return func(p *program, args []word) []fileArg {
		operands, opts := walkFlags(args[1:], &p.opts)
		files := optionFiles(opts, &p.opts)
		dest := -1
		if dir, ok := findFlag(opts, "-t", "--target-directory"); ok {
			files = append(files, fileArg{word: dir, role: roleWrite, what: "destination"})
		} else if len(operands) > 0 {
			dest = len(operands) - 1
		}
		for i, o := range operands {
			r, what := src, "source"
			if i == dest {
				r, what = roleWrite, "destination"
			}
			files = append(files, fileArg{word: o, role: r, what: what})
		}
		return files
	}
}

// cpTree: cp -r reads whole trees, and -L follows links there.
func cpTree(args []word) (dirs []word, follow string) {
	follow = treeOpt(args, "L", "--dereference")
	if treeOpt(args, "rRa", "--recursive") != "" || treeOpt(args, "", "--archive") != "" {
		dirs = operandDirs(args[:len(args)-1])
	}
	return dirs, follow
}

// linkFiles: ln TARGET LINK writes LINK (the basename of TARGET in the
// current directory when LINK is left out); the target is touched.
func linkFiles(p *program, args []word) []fileArg {
	operands, opts := walkFlags(args[1:], &p.opts)
	files := optionFiles(opts, &p.opts)
	dir, hasDir := findFlag(opts, "-t", "--target-directory")
	if hasDir {
		files = append(files, fileArg{word: dir, role: roleWrite, what: "link directory"})
	}
	for i, o := range operands {
		r := roleTouch
		if !hasDir && len(operands) > 1 && i == len(operands)-1 {
			r = roleWrite
		}
		files = append(files, fileArg{word: o, role: r, what: "path"})
	}
	if !hasDir && len(operands) == 1 {
		link := operands[0] // known only at run time, the link's name is too
		if s, ok := link.known(); ok {
			link = lit(filepath.Base(s))
		}
		files = append(files, fileArg{word: link, role: roleWrite, what: "link"})
	}
	return files
}

// mklinkFiles: mklink LINK TARGET writes LINK; the target is touched.
func mklinkFiles(p *program, args []word) []fileArg {
	operands, opts := walkFlags(args[1:], &p.opts)
	files := optionFiles(opts, &p.opts)
	for i, o := range operands {
		r := roleTouch
		if i == 0 {
			r = roleWrite
		}
		files = append(files, fileArg{word: o, role: r, what: "path"})
	}
	return files
}

// ddFiles: dd if= reads, of= writes; an operand known only at run time
// may be of=, so it is judged as a write.
func ddFiles(_ *program, args []word) []fileArg {
	var files []fileArg
	for _, w := range args[1:] {
		a, known := w.known()
		k, v, ok := strings.Cut(a, "=")
		switch {
		case !known:
			files = append(files, fileArg{word: w, role: roleWrite, what: "dd operand"})
		case ok && k == "if":
			files = append(files, fileArg{word: lit(v), role: roleRead, what: "dd if="})
		case ok && k == "of":
			files = append(files, fileArg{word: lit(v), role: roleWrite, what: "dd of="})
		}
	}
	return files
}

// modeOperands: chmod, chown and chgrp change every operand but the first,
// their mode or owner, unless --reference named the file to copy it from.
func modeOperands(p *program, files []fileArg, operands []word, opts []flagUse) []fileArg {
	if _, ref := findFlag(opts, "--reference"); !ref && len(operands) > 0 {
		operands = operands[1:]
	}
	return p.plainOperands(files, operands, opts, p.operands)
}
