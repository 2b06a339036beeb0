package policy

import (
	"path/filepath"
	"strconv"
	"strings"
)

// File operations: programs that create, change, copy, link or remove the
// files they name (coreutils, and Windows' copy, move, del, mklink). What
// they write needs permission of its own (an Edit rule, acceptEdits mode).

// recursiveForce are the aliases of rm, cp, scp and rsync: -r is -R.
func recursiveForce() map[string][]string {
	return sameFlags([]string{"-r", "-R", "--recursive"}, []string{"-f", "--force"})
}

// modeFlags are the aliases of chmod, chown and chgrp, whose -r is a mode.
func modeFlags() map[string][]string {
	return sameFlags([]string{"-R", "--recursive"}, []string{"-f", "--silent", "--quiet"})
}

// copyOpts are the value-taking options of cp, install and mv.
var copyOpts = optSpec{shortVal: "tSmog", longVal: []string{"target-directory", "suffix", "mode", "owner", "group", "context", "sparse",
	"reflink", "backup", "preserve", "no-preserve"}, abbrev: true}

func registerFileops() {
	registerAll(
		&program{names: []string{"cp"}, acceptEdits: true, opts: copyOpts, files: copyFiles(roleRead), tree: cpTree, aliases: recursiveForce()},
		&program{names: []string{"install", "copy"}, opts: copyOpts, files: copyFiles(roleRead)},
		&program{names: []string{"mv"}, acceptEdits: true, opts: copyOpts, files: copyFiles(roleWrite)},
		&program{names: []string{"move"}, opts: copyOpts, files: copyFiles(roleWrite)},
		&program{names: []string{"ln"}, files: linkFiles,
			opts: optSpec{shortVal: "tS", longVal: []string{"target-directory", "suffix", "backup"}, abbrev: true}},
		&program{names: []string{"link"}, operands: roleTouch, operandFiles: linkOperands},
		&program{names: []string{"mklink"}, files: mklinkFiles},
		&program{names: []string{"dd"}, files: ddFiles},
		&program{names: []string{"patch"}, operands: roleWrite, operandFiles: patchOperands,
			opts: optSpec{shortVal: "iopdrBDFVYzgx", longVal: []string{"input", "output", "strip", "directory", "reject-file", "prefix",
				"ifdef", "fuzz", "version-control", "basename-prefix", "suffix", "get", "debug", "quoting-style", "reject-format",
				"read-only"}, abbrev: true,
				roles: map[string]fileRole{"-i": roleRead, "--input": roleRead, "-o": roleWrite, "--output": roleWrite,
					"-r": roleWrite, "--reject-file": roleWrite, "-d": roleChdir, "--directory": roleChdir}}},
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
		&program{names: []string{"chmod", "chgrp"}, operands: roleWrite, operandFiles: modeOperands, aliases: modeFlags(),
			opts: optSpec{longVal: []string{"reference"}, abbrev: true, roles: map[string]fileRole{"--reference": roleRead}}},
		&program{names: []string{"chown"}, operands: roleWrite, operandFiles: modeOperands, aliases: modeFlags(),
			opts: optSpec{longVal: []string{"reference", "from"}, abbrev: true, roles: map[string]fileRole{"--reference": roleRead}}},
		&program{names: []string{"rm"}, acceptEdits: true, operands: roleRemove, aliases: recursiveForce()},
		&program{names: []string{"rmdir"}, acceptEdits: true, operands: roleRemove},
		&program{names: []string{"unlink", "shred", "del", "erase", "rd"}, operands: roleRemove},
	)
}

// copyFiles: cp and install read their sources and write the last operand
// (or into -t DIR); mv writes (removes) its sources too. A destination
// that is, or may be, a directory is written at DIR/NAME for each source
// NAME (copyInto); cp -l makes each source a second name (linkSources).
func copyFiles(src fileRole) func(p *program, args []word) []fileArg {
	return func(p *program, args []word) []fileArg {
		operands, opts := walkFlags(args[1:], &p.opts)
		files := optionFiles(opts, &p.opts)
		dir, hasDir := findFlag(opts, "-t", "--target-directory")
		sources := operands
		if !hasDir && len(operands) > 1 {
			sources, dir = operands[:len(operands)-1], operands[len(operands)-1]
		}
		_, recursive := findFlag(opts, "-r", "-R", "--recursive", "-a", "--archive")
		if hasDir || len(operands) > 1 {
			f := fileArg{word: dir, role: roleWrite, what: "destination", fresh: true}
			if recursive {
				f.tree = treeNew // a copied tree may land at DIR itself
			}
			files = append(files, f)
		}
		role, what := src, "source"
		if _, link := findFlag(opts, "-l", "--link"); link && src == roleRead {
			role, what = roleTouch, "hard-linked source"
		}
		tree := treeNone
		if role == roleWrite {
			tree = treeBelow // mv takes a directory's files with it
		}
		for _, o := range sources {
			files = append(files, fileArg{word: o, role: role, what: what, tree: tree})
		}
		if _, noDir := findFlag(opts, "-T", "--no-target-directory"); !noDir && (hasDir || len(operands) > 1) {
			n := len(files)
			files = copyInto(files, dir, sources)
			if recursive {
				for i := n; i < len(files); i++ {
					files[i].tree = treeNew // the copied tree lands below DIR/NAME
				}
			}
		}
		return files
	}
}

// copyInto adds the files a copy, move or link into the directory dir
// writes: DIR/NAME for each source NAME (cp -t . sub/prot.txt writes
// ./prot.txt). A destination that turns out to be a file is written
// itself; judging DIR/NAME too only adds a write.
func copyInto(files []fileArg, destination word, sources []word) []fileArg {
	dir, ok := destination.known()
	if !ok || dir == "" {
		return files
	}
	for _, w := range sources {
		s, ok := w.known()
		if !ok {
			continue
		}
		if base := filepath.Base(s); base != "." && base != ".." && base != string(filepath.Separator) && base != "/" {
			files = append(files, fileArg{word: lit(filepath.Join(dir, base)), role: roleWrite, what: "destination", fresh: true})
		}
	}
	return files
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
// current directory when LINK is left out, DIR/NAME for each TARGET when
// LINK is a directory or -t DIR gave one); the target is touched: a hard
// link is a second name through which it is read and changed, so Read and
// Edit deny rules judge it.
func linkFiles(p *program, args []word) []fileArg {
	operands, opts := walkFlags(args[1:], &p.opts)
	files := optionFiles(opts, &p.opts)
	dir, hasDir := findFlag(opts, "-t", "--target-directory")
	if hasDir {
		files = append(files, fileArg{word: dir, role: roleWrite, what: "link directory"})
	}
	targets := operands
	for i, o := range operands {
		r := roleTouch
		if !hasDir && len(operands) > 1 && i == len(operands)-1 {
			r, dir, targets = roleWrite, o, operands[:i]
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
	if _, noDir := findFlag(opts, "-T", "--no-target-directory"); !noDir && (hasDir || len(operands) > 1) {
		files = copyInto(files, dir, targets)
	}
	return files
}

// linkOperands: link FILE1 FILE2 makes FILE2 a second name of FILE1.
func linkOperands(p *program, files []fileArg, operands []word, _ []flagUse) []fileArg {
	return operandRoles(files, operands, 1, roleWrite, roleTouch)
}

// mklinkFiles: mklink LINK TARGET writes LINK; the target is touched.
func mklinkFiles(p *program, args []word) []fileArg {
	operands, opts := walkFlags(args[1:], &p.opts)
	return operandRoles(optionFiles(opts, &p.opts), operands, 0, roleWrite, roleTouch)
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

// patchOperands: patch ORIGINAL [PATCHFILE] changes ORIGINAL; without it
// patch changes the files its patch (PATCHFILE, -i, or standard input)
// names (roleDiff). Under -d DIR they are relative to DIR: a list.
func patchOperands(_ *program, files []fileArg, operands []word, opts []flagUse) []fileArg {
	source, given := findFlag(opts, "-i", "--input")
	if len(operands) > 1 {
		files = append(files, fileArg{word: operands[1], role: roleRead, what: "patch file"})
		source, given = operands[1], true
	}
	if len(operands) > 0 {
		return append(files, fileArg{word: operands[0], role: roleWrite, what: "path"})
	}
	if !given {
		source = lit("-")
	}
	strip := -1
	if v, ok := findFlag(opts, "-p", "--strip"); ok {
		if n, err := strconv.Atoi(knownOr(v, "")); err == nil && n >= 0 {
			strip = n
		}
	}
	if _, moved := findFlag(opts, "-d", "--directory"); moved {
		return append(files, fileArg{word: source, role: roleList, what: "patch -d"})
	}
	return append(files, fileArg{word: source, role: roleDiff, what: "patch", strip: strip})
}
