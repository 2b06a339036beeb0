package policy

import (
	"path/filepath"
	"strings"
	"sync"
)

// What a command does to the files it names: the policy judges reads and
// writes differently (a Read rule judges reads, an Edit rule writes, and
// a write needs permission of its own), so every path a segment names is
// given a role here, on the argv that will run. A program this file does
// not know gets roleTouch for its path-like words: read or written, it
// cannot be told.

// fileRole is what a command does to a path.
type fileRole uint8

const (
	roleRead   fileRole = iota + 1 // the command reads the file (or lists the directory)
	roleWrite                      // the command creates, changes or truncates it
	roleRemove                     // the command removes it (a write that may take a root with it)
	roleTouch                      // unknown: judged as a read, and by Edit deny and ask rules
	roleChdir                      // a wrapper moves the command to this directory or root
)

// reads reports a role Read rules judge.
func (r fileRole) reads() bool { return r == roleRead || r == roleTouch }

// writes reports a role that needs write permission.
func (r fileRole) writes() bool { return r == roleWrite || r == roleRemove }

// fileArg is one path a segment names, as written, with its role and what
// named it ("path", "output redirect", "time -o").
type fileArg struct {
	word string
	role fileRole
	what string
}

// commandFiles returns the paths one command (argv[0] canonical) names and
// their roles.
func commandFiles(args []string) []fileArg {
	name := args[0]
	switch name {
	case "cp", "install", "copy":
		return copyFiles(args, roleRead)
	case "mv", "move":
		return copyFiles(args, roleWrite)
	case "ln", "mklink":
		return linkFiles(args)
	case "dd":
		return ddFiles(args)
	case "file":
		return fileCmdFiles(args)
	case "find":
		return findFiles(args)
	case "tar":
		return tarFiles(args)
	case "git":
		return gitFiles(args)
	}
	role := operandRole(name)
	if role == 0 {
		return pathLikeFiles(args)
	}
	spec := operandSpecs()[name]
	if spec == nil {
		spec = &flagSpec{}
	}
	operands, opts := walkFlags(args[1:], spec)
	files := optionFiles(opts, spec)
	if name == "sed" || name == "gsed" {
		role = sedRole(opts)
		for _, script := range sedScripts(operands, opts) {
			for _, f := range sedScriptFiles(script) {
				if f.word != "" {
					files = append(files, f)
				}
			}
		}
	}
	operands = skipScript(name, operands, opts)
	for i, o := range operands {
		r := role
		if name == "uniq" && i == 1 {
			r = roleWrite
		}
		if (name == "awk" || name == "gawk" || name == "mawk" || name == "nawk") && isAssignWord(o) {
			continue
		}
		if name == "chmod" || name == "chown" || name == "chgrp" {
			if _, ref := findFlag(opts, "--reference"); !ref && i == 0 {
				continue
			}
		}
		files = append(files, fileArg{word: o, role: r, what: "path"})
	}
	return files
}

// operandRole is the role of the operands of the programs whose operands
// are all paths, or 0.
func operandRole(name string) fileRole {
	switch name {
	case "cat", "head", "tail", "less", "more", "wc", "sort", "uniq", "cut", "diff", "cmp", "stat", "du", "ls",
		"nl", "od", "column", "comm", "paste", "fold", "expand", "unexpand", "rev", "tac", "sha256sum", "sha1sum",
		"sha512sum", "sha224sum", "sha384sum", "md5sum", "b2sum", "cksum", "sum", "base64", "base32", "basenc",
		"strings", "xxd", "hexdump", "tree", "grep", "egrep", "fgrep", "rg", "sed", "gsed", "awk", "gawk", "mawk",
		"nawk", "jq", "bat", "batcat", "readlink", "realpath", "type", "zcat", "bzcat", "xzcat", "zgrep", "diff3",
		"sdiff", "iconv", "look", "tsort", "split", "csplit", "shuf", "pr", "fmt", "join", "yq":
		return roleRead
	case "touch", "mkdir", "tee", "truncate", "chmod", "chown", "chgrp":
		return roleWrite
	case "rm", "rmdir", "unlink", "shred", "del", "erase", "rd":
		return roleRemove
	}
	return 0
}

// operandSpecs are the value-taking options of the programs whose
// operands are paths, so a value is not read as a path and the options
// that name files are found. files maps an option to the role of its
// value.
var operandSpecs = sync.OnceValue(func() map[string]*flagSpec {
	grep := &flagSpec{shortVal: "efmABCdD", longVal: []string{"regexp", "file", "max-count", "after-context", "before-context",
		"context", "label", "include", "exclude", "exclude-dir", "exclude-from", "binary-files", "devices", "color", "colour"},
		abbrev: true, files: map[string]fileRole{"-f": roleRead, "--file": roleRead, "--exclude-from": roleRead}}
	rg := *rgSpec()
	rg.files = map[string]fileRole{"-f": roleRead, "--file": roleRead, "--ignore-file": roleRead}
	sort := *sortSpec()
	sort.files = map[string]fileRole{"-o": roleWrite, "--output": roleWrite, "--files0-from": roleRead, "-T": roleTouch,
		"--temporary-directory": roleTouch}
	tree := *treeSpec()
	tree.files = map[string]fileRole{"-o": roleWrite}
	return map[string]*flagSpec{
		"grep": grep, "egrep": grep, "fgrep": grep, "zgrep": grep, "rg": &rg, "sort": &sort, "tree": &tree,
		"head":     {shortVal: "nc", longVal: []string{"lines", "bytes"}, abbrev: true},
		"tail":     {shortVal: "ncs", longVal: []string{"lines", "bytes", "sleep-interval", "pid", "max-unchanged-stats"}, abbrev: true},
		"cut":      {shortVal: "bcdf", longVal: []string{"bytes", "characters", "delimiter", "fields", "output-delimiter"}, abbrev: true},
		"uniq":     {shortVal: "fsw", longVal: []string{"skip-fields", "skip-chars", "check-chars", "all-repeated", "group"}, abbrev: true},
		"wc":       {longVal: []string{"files0-from"}, abbrev: true, files: map[string]fileRole{"--files0-from": roleRead}},
		"du":       {shortVal: "dBtX", longVal: []string{"max-depth", "block-size", "threshold", "exclude", "exclude-from", "files0-from", "time", "time-style"}, abbrev: true},
		"ls":       {shortVal: "ITw", longVal: []string{"ignore", "hide", "tabsize", "width", "block-size", "color", "format", "indicator-style", "quoting-style", "sort", "time", "time-style"}, abbrev: true},
		"stat":     {shortVal: "c", longVal: []string{"format", "printf"}, abbrev: true},
		"diff":     {shortVal: "CUIxXFLD", longVal: []string{"context", "unified", "ignore-matching-lines", "exclude", "exclude-from", "show-function-line", "label", "to-file", "from-file", "ifdef", "line-format", "width", "tabsize", "color", "palette", "horizon-lines"}, abbrev: true, files: map[string]fileRole{"-X": roleRead, "--exclude-from": roleRead, "--to-file": roleRead, "--from-file": roleRead}},
		"cmp":      {shortVal: "inIN", longVal: []string{"ignore-initial", "bytes"}, abbrev: true},
		"nl":       {shortVal: "bdfhilnsvwp", abbrev: true},
		"od":       {shortVal: "AjNStw", abbrev: true},
		"column":   {shortVal: "csoNtRdlEHTWrC", abbrev: true},
		"paste":    {shortVal: "d", longVal: []string{"delimiters"}, abbrev: true},
		"fold":     {shortVal: "w", longVal: []string{"width"}, abbrev: true},
		"expand":   {shortVal: "t", longVal: []string{"tabs"}, abbrev: true},
		"unexpand": {shortVal: "t", longVal: []string{"tabs"}, abbrev: true},
		"tac":      {shortVal: "s", longVal: []string{"separator"}, abbrev: true},
		"base64":   {shortVal: "wio", longVal: []string{"wrap", "input", "output"}, abbrev: true, files: map[string]fileRole{"-i": roleRead, "--input": roleRead, "-o": roleWrite, "--output": roleWrite}},
		"sed":      {shortVal: "efl", longVal: []string{"expression", "file", "line-length"}, abbrev: true, files: map[string]fileRole{"-f": roleRead, "--file": roleRead}},
		"awk":      {shortVal: "FfvW", longVal: []string{"field-separator", "assign", "file", "source"}, abbrev: true, files: map[string]fileRole{"-f": roleRead, "--file": roleRead}},
		"jq":       {shortVal: "fL", longVal: []string{"from-file", "indent", "arg", "argjson", "slurpfile", "rawfile"}, files: map[string]fileRole{"-f": roleRead, "--from-file": roleRead}},
		"truncate": {shortVal: "sr", longVal: []string{"size", "reference"}, abbrev: true, files: map[string]fileRole{"-r": roleRead, "--reference": roleRead}},
		"chmod":    {longVal: []string{"reference"}, abbrev: true, files: map[string]fileRole{"--reference": roleRead}},
		"chown":    {longVal: []string{"reference", "from"}, abbrev: true, files: map[string]fileRole{"--reference": roleRead}},
		"chgrp":    {longVal: []string{"reference"}, abbrev: true, files: map[string]fileRole{"--reference": roleRead}},
		"mkdir":    {shortVal: "m", longVal: []string{"mode", "context"}, abbrev: true},
		"touch":    {shortVal: "drt", longVal: []string{"date", "reference", "time"}, abbrev: true, files: map[string]fileRole{"-r": roleRead, "--reference": roleRead}},
		"split":    {shortVal: "abCdlnt", longVal: []string{"suffix-length", "bytes", "line-bytes", "lines", "number", "separator", "additional-suffix", "filter", "numeric-suffixes", "hex-suffixes"}, abbrev: true},
	}
})

// optionFiles are the paths named by option values.
func optionFiles(opts []flagUse, spec *flagSpec) []fileArg {
	var files []fileArg
	for _, o := range opts {
		if r, ok := spec.files[o.flag]; ok && o.val != "" {
			files = append(files, fileArg{word: o.val, role: r, what: o.flag})
		} else if o.hasVal && isPathLike(o.val) {
			files = append(files, fileArg{word: o.val, role: roleTouch, what: o.flag})
		}
	}
	return files
}

// findFlag reports the value of the first option named flag.
func findFlag(opts []flagUse, flags ...string) (string, bool) {
	for _, o := range opts {
		for _, f := range flags {
			if o.flag == f {
				return o.val, true
			}
		}
	}
	return "", false
}

// skipScript drops the pattern, script or filter operand of the programs
// that take one first, unless it was given by option.
func skipScript(name string, operands []string, opts []flagUse) []string {
	var given bool
	switch name {
	case "grep", "egrep", "fgrep", "zgrep", "rg":
		_, given = findFlag(opts, "-e", "--regexp", "-f", "--file")
	case "sed", "gsed":
		_, given = findFlag(opts, "-e", "--expression", "-f", "--file")
	case "awk", "gawk", "mawk", "nawk":
		_, given = findFlag(opts, "-f", "--file", "-e", "--source")
	case "jq":
		_, given = findFlag(opts, "-f", "--from-file")
		for i, o := range operands {
			if o == "--args" || o == "--jsonargs" {
				operands = operands[:i]
				break
			}
		}
	default:
		return operands
	}
	if given || len(operands) == 0 {
		return operands
	}
	return operands[1:]
}

// sedScripts are the scripts of a sed call: its -e values, else its first
// operand.
func sedScripts(operands []string, opts []flagUse) []string {
	var scripts []string
	for _, o := range opts {
		if o.flag == "-e" || o.flag == "--expression" {
			scripts = append(scripts, o.val)
		}
	}
	if len(scripts) == 0 && len(operands) > 0 {
		scripts = operands[:1]
	}
	return scripts
}

// sedRole is the role of sed's file operands: written with -i.
func sedRole(opts []flagUse) fileRole {
	for _, o := range opts {
		if o.flag == "-i" || o.flag == "--in-place" || strings.HasPrefix(o.flag, "--in-place") {
			return roleWrite
		}
	}
	return roleRead
}

// pathLikeFiles are the path-like words of a program this file does not
// know: absolute, home-relative or climbing with "..", and --opt=PATH.
func pathLikeFiles(args []string) []fileArg {
	var files []fileArg
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			if _, v, ok := strings.Cut(a, "="); ok && isPathLike(v) {
				files = append(files, fileArg{word: v, role: roleTouch, what: "path"})
			}
			continue
		}
		if isPathLike(a) {
			files = append(files, fileArg{word: a, role: roleTouch, what: "path"})
		}
	}
	return files
}

// copyFiles: cp and install read their sources and write the last operand
// (or into -t DIR); mv writes (removes) its sources too.
func copyFiles(args []string, src fileRole) []fileArg {
	spec := &flagSpec{shortVal: "tSmogZ", longVal: []string{"target-directory", "suffix", "mode", "owner", "group", "context", "sparse", "reflink", "backup", "preserve", "no-preserve"}, abbrev: true}
	operands, opts := walkFlags(args[1:], spec)
	files := optionFiles(opts, spec)
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

// linkFiles: ln TARGET LINK writes LINK (the basename of TARGET in the
// current directory when LINK is left out); the target is touched.
func linkFiles(args []string) []fileArg {
	spec := &flagSpec{shortVal: "tS", longVal: []string{"target-directory", "suffix", "backup"}, abbrev: true}
	operands, opts := walkFlags(args[1:], spec)
	files := optionFiles(opts, spec)
	if args[0] == "mklink" {
		for i, o := range operands {
			r := roleTouch
			if i == 0 {
				r = roleWrite
			}
			files = append(files, fileArg{word: o, role: r, what: "path"})
		}
		return files
	}
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
		files = append(files, fileArg{word: filepath.Base(operands[0]), role: roleWrite, what: "link"})
	}
	return files
}

// ddFiles: dd if= reads, of= writes; an operand known only at run time
// may be of=, so it is judged as a write.
func ddFiles(args []string) []fileArg {
	var files []fileArg
	for _, a := range args[1:] {
		k, v, ok := strings.Cut(a, "=")
		switch {
		case isUnknown(a):
			files = append(files, fileArg{word: a, role: roleWrite, what: "dd operand"})
		case ok && k == "if":
			files = append(files, fileArg{word: v, role: roleRead, what: "dd if="})
		case ok && k == "of":
			files = append(files, fileArg{word: v, role: roleWrite, what: "dd of="})
		}
	}
	return files
}

// fileCmdFiles: file reads its operands, its magic files (-m) and name
// list (-f); -C compiles each magic file into NAME.mgc in the current
// directory.
func fileCmdFiles(args []string) []fileArg {
	spec := &flagSpec{shortVal: "mfFeP", longVal: []string{"magic-file", "files-from", "separator", "exclude", "exclude-quiet", "parameter"},
		abbrev: true, files: map[string]fileRole{"-m": roleRead, "--magic-file": roleRead, "-f": roleRead, "--files-from": roleRead}}
	operands, opts := walkFlags(args[1:], spec)
	files := optionFiles(opts, spec)
	if _, compile := findFlag(opts, "-C", "--compile"); compile {
		magic := []string{"magic"}
		if m, ok := findFlag(opts, "-m", "--magic-file"); ok {
			magic = strings.Split(m, ":")
		}
		for _, m := range magic {
			files = append(files, fileArg{word: filepath.Base(m) + ".mgc", role: roleWrite, what: "file -C output"})
		}
	}
	for _, o := range operands {
		files = append(files, fileArg{word: o, role: roleRead, what: "path"})
	}
	return files
}

// findFiles: find's starting points (the words before its expression) are
// read, as are the files its tests compare with.
func findFiles(args []string) []fileArg {
	var files []fileArg
	i := 1
	for i < len(args) && (args[i] == "-H" || args[i] == "-L" || args[i] == "-P" || strings.HasPrefix(args[i], "-O") || args[i] == "-D") {
		if args[i] == "-D" {
			i++
		}
		i++
	}
	for ; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == ")" || a == "," {
			break
		}
		files = append(files, fileArg{word: a, role: roleRead, what: "path"})
	}
	for ; i < len(args)-1; i++ {
		switch a := args[i]; {
		case a == "-newer" || a == "-anewer" || a == "-cnewer" || a == "-samefile" || a == "-files0-from" ||
			strings.HasPrefix(a, "-newer") && len(a) == 8:
			files = append(files, fileArg{word: args[i+1], role: roleRead, what: "find " + a})
		case a == "-fprint" || a == "-fprint0" || a == "-fprintf" || a == "-fls":
			files = append(files, fileArg{word: args[i+1], role: roleWrite, what: "find " + a})
		}
	}
	if len(files) == 0 || files[0].what != "path" {
		files = append(files, fileArg{word: ".", role: roleRead, what: "path"})
	}
	return files
}

// tarFiles: the archive (-f) is read, or written when creating; extracting
// writes into -C DIR or the current directory; -T lists are read.
func tarFiles(args []string) []fileArg {
	if len(args) > 1 && oldStyleTar(args[1]) {
		args = append([]string{args[0], "-" + args[1]}, args[2:]...)
	}
	spec := *tarSpec()
	spec.files = map[string]fileRole{"-T": roleRead, "--files-from": roleRead, "-X": roleRead, "--exclude-from": roleRead}
	operands, opts := walkFlags(args[1:], &spec)
	files := optionFiles(opts, &spec)
	_, create := findFlag(opts, "-c", "--create", "-r", "--append", "-u", "--update", "-A", "--catenate")
	_, extract := findFlag(opts, "-x", "--extract", "--get")
	if f, ok := findFlag(opts, "-f", "--file"); ok && f != "-" {
		r := roleRead
		if create {
			r = roleWrite
		}
		files = append(files, fileArg{word: f, role: r, what: "tar archive"})
	}
	if extract {
		dir, ok := findFlag(opts, "-C", "--directory")
		if !ok {
			dir = "."
		}
		files = append(files, fileArg{word: dir, role: roleWrite, what: "tar extraction into"})
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

// gitFiles: git diff --no-index reads its operands; --shallow-file and
// other path-like words are touched.
func gitFiles(args []string) []fileArg {
	files := pathLikeFiles(args)
	noIndex := false
	for _, a := range args {
		if a == "--no-index" {
			noIndex = true
		}
	}
	for i, a := range args {
		if a == "--shallow-file" && i+1 < len(args) {
			files = append(files, fileArg{word: args[i+1], role: roleRead, what: "git --shallow-file"})
		}
	}
	if !noIndex {
		return files
	}
	seenDiff := false
	for _, a := range args[1:] {
		if a == "diff" {
			seenDiff = true
			continue
		}
		if seenDiff && !strings.HasPrefix(a, "-") {
			files = append(files, fileArg{word: a, role: roleRead, what: "git diff --no-index"})
		}
	}
	return files
}

// treeReads reports what a command reads by walking directories: the
// directories whose files it reads (grep -r, rg, cp -r, tar -c) and, when
// it follows symlinks while walking, the option that makes it (grep -R,
// rg -L, find -L, cp -L, tar -h). A Read deny rule cannot be checked file
// by file there, and a followed link can lead outside the roots.
func treeReads(args []string) (dirs []string, follow string) {
	name := args[0]
	has := func(short, long string) string {
		for _, a := range args[1:] {
			if a == "--" {
				break
			}
			if long != "" && strings.HasPrefix(a, "--") && strings.HasPrefix(long, strings.SplitN(a, "=", 2)[0]) && len(a) > 3 {
				return a
			}
			if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], short) {
				return a
			}
		}
		return ""
	}
	switch name {
	case "grep", "egrep", "fgrep":
		follow = has("R", "--dereference-recursive")
		if follow != "" || has("r", "--recursive") != "" {
			dirs = patternDirs(args, has("ef", "--regexp") != "" || has("", "--file") != "")
		}
	case "rg":
		follow = has("L", "--follow")
		dirs = patternDirs(args, has("ef", "--regexp") != "" || has("", "--file") != "")
	case "cp":
		follow = has("L", "--dereference")
		if has("rRa", "--recursive") != "" || has("", "--archive") != "" {
			dirs = operandDirs(args[:len(args)-1])
		}
	case "tar":
		follow = has("h", "--dereference")
	case "find":
		for _, a := range args[1:] {
			if a == "-L" || a == "-follow" {
				follow = a
			}
		}
	case "du", "tree", "ls":
		follow = has("L", "--dereference")
		if name == "tree" {
			follow = has("l", "--follow")
		}
	}
	return dirs, follow
}

// patternDirs are the directory operands of grep and rg: without -e or -f
// (given) the first operand is the pattern; none means ".".
func patternDirs(args []string, given bool) []string {
	var ops []string
	for _, a := range args[1:] {
		if !strings.HasPrefix(a, "-") {
			ops = append(ops, a)
		}
	}
	if !given && len(ops) > 0 {
		ops = ops[1:]
	}
	if len(ops) == 0 {
		ops = []string{"."}
	}
	return ops
}

// operandDirs are the operands of a recursive reader that are not options
// (option values are taken as directories too: a stricter reading), "."
// when there are none.
func operandDirs(args []string) []string {
	var dirs []string
	for _, a := range args[1:] {
		if !strings.HasPrefix(a, "-") {
			dirs = append(dirs, a)
		}
	}
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	return dirs
}
