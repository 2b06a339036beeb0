package policy

import (
	"strings"
)

// Archivers: tar reads or writes its archive (-f) and extracts into -C DIR
// or the current directory; tar and zip have options that run programs.

func registerArchive() {
	registerAll(
		&program{names: []string{"tar"}, guard: tarGuard, files: tarFiles, tree: followTree("h", "--dereference"),
			opts: optSpec{
				shortVal: "fCTXbgKLNVIFH",
				longVal: []string{"file", "directory", "files-from", "exclude-from", "blocking-factor", "listed-incremental",
					"starting-file", "tape-length", "newer", "label", "use-compress-program", "info-script",
					"new-volume-script", "format", "to-command", "checkpoint-action", "rmt-command", "rsh-command", "exclude", "transform"},
				longFlag: []string{"extract", "list", "create", "append", "update", "gzip", "bzip2", "xz", "zstd", "verbose",
					"checkpoint", "to-stdout", "totals", "numeric-owner", "overwrite", "keep-old-files", "strip-components"},
				abbrev: true,
				danger: map[string]string{
					"--to-command":           "tar --to-command runs a program",
					"--checkpoint-action":    "tar --checkpoint-action can run a program",
					"--use-compress-program": "tar --use-compress-program runs a program",
					"-I":                     "tar -I runs a compression program",
					"-F":                     "tar -F runs a volume script",
					"--info-script":          "tar --info-script runs a program",
					"--new-volume-script":    "tar --new-volume-script runs a program",
					"--rmt-command":          "tar --rmt-command runs a program",
					"--rsh-command":          "tar --rsh-command runs a program",
				},
				roles: map[string]fileRole{"-T": roleList, "--files-from": roleList, "-X": roleRead, "--exclude-from": roleRead}}},
		&program{names: []string{"zip"}, guard: zipGuard},
	)
}

// tarGuard reads old-style "tar xzf" as "tar -xzf" (a first word known
// only at run time is left for runtimeArgGuard).
func tarGuard(p *program, _ string, args []word) string {
	if c, ok := oldStyleTar(args, 0); ok {
		// Old-style "tar xzf file": the first word is an option cluster.
		args = append([]word{c}, args[1:]...)
	}
	_, r := scanFlags(args, &p.opts)
	return r
}

// oldStyleTar reads args[i], tar's first argument, as an option cluster
// written without its dash ("xzf"), and returns it with the dash; a word
// known only at run time is not one yet.
func oldStyleTar(args []word, i int) (word, bool) {
	if i >= len(args) {
		return word{}, false
	}
	a, ok := args[i].known()
	if !ok || a == "" || a[0] == '-' {
		return word{}, false
	}
	return lit("-" + a), true
}

// tarFiles: the archive (-f) is read, or written when creating; extracting
// writes into -C DIR or the current directory; -T lists are read.
func tarFiles(p *program, args []word) []fileArg {
	if c, ok := oldStyleTar(args, 1); ok {
		args = append([]word{args[0], c}, args[2:]...)
	}
	operands, opts := walkFlags(args[1:], &p.opts)
	files := optionFiles(opts, &p.opts)
	_, create := findFlag(opts, "-c", "--create", "-r", "--append", "-u", "--update", "-A", "--catenate")
	_, extract := findFlag(opts, "-x", "--extract", "--get")
	if f, ok := findFlag(opts, "-f", "--file"); ok && !f.is("-") {
		r := roleRead
		if create {
			r = roleWrite
		}
		files = append(files, fileArg{word: f, role: r, what: "tar archive"})
	}
	if extract {
		dir, ok := findFlag(opts, "-C", "--directory")
		if !ok {
			dir = lit(".")
		}
		// The archive's names are unknown: the extraction may write any
		// file below the directory.
		files = append(files, fileArg{word: dir, role: roleWrite, what: "tar extraction into", tree: treeBelow})
	}
	for _, o := range operands {
		r := roleRead
		if extract {
			continue
		}
		files = append(files, fileArg{word: o, role: r, what: "path"})
	}
	return files
}

// zipGuard: --unzip-command and -TT run a program to test the archive.
func zipGuard(_ *program, _ string, args []word) string {
	for a := range wordsBeforeEnd(args) {
		if strings.HasPrefix(a, "--unzip") { // --unzip-command and its abbreviations
			return "zip --unzip-command runs a program"
		}
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Contains(a, "TT") {
			return "zip -TT runs a program"
		}
	}
	return ""
}
