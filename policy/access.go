package policy

import (
	"strconv"
	"strings"
)

// What a command does to the files it names: the policy judges reads and
// writes differently (a Read rule judges reads, an Edit rule writes, and
// a write needs permission of its own), so every path a segment names is
// given a role here, on the argv that will run, from the registry record
// of its program (the roles of its operands and option values). A program
// the registry does not give roles gets roleTouch for its path-like words:
// read or written, it cannot be told; its other words are judged by name
// (words.go).

// fileRole is what a command does to a path.
type fileRole uint8

const (
	roleRead   fileRole = iota + 1 // the command reads the file (or lists the directory)
	roleStat                       // the command reads only the file's metadata: its type, size, times (test -f)
	roleWrite                      // the command creates, changes or truncates it
	roleRemove                     // the command removes it (a write that may take a root with it)
	roleTouch                      // unknown: judged as a read, and by Edit deny and ask rules
	roleChdir                      // a wrapper moves the command to this directory or root
	roleCode                       // no path: code the program runs (sed's script, awk's program)
	roleInert                      // no path: text the program only matches or prints (grep's pattern)
	roleList                       // a file (or "-", standard input) naming the files the program touches
	roleDiff                       // a patch (or "-"): the files it names are written (diffnames.go)
	roleSums                       // a checksum list (or "-"): it and the files it names are read (sumnames.go)
)

// operandRoles appends the operands to files: the one at index at with
// role atRole (link's new name, uniq's output), every other with role.
func operandRoles(files []fileArg, operands []word, at int, atRole, role fileRole) []fileArg {
	for i, o := range operands {
		r := role
		if i == at {
			r = atRole
		}
		files = append(files, fileArg{word: o, role: r, what: "path"})
	}
	return files
}

// String names the role, for tests and messages.
func (r fileRole) String() string {
	names := [...]string{"", "read", "stat", "write", "remove", "touch", "chdir", "code", "inert", "list", "diff", "sums"}
	if int(r) < len(names) {
		return names[r]
	}
	return "role" + strconv.Itoa(int(r))
}

// names reports a role whose value is a path.
func (r fileRole) names() bool { return r >= roleRead && r <= roleChdir }

// reads reports a role Read rules judge.
func (r fileRole) reads() bool { return r == roleRead || r == roleStat || r == roleTouch }

// writes reports a role that needs write permission.
func (r fileRole) writes() bool { return r == roleWrite || r == roleRemove }

// fileArg is one path a segment names, as written, with its role and what
// named it ("path", "output redirect", "time -o").
type fileArg struct {
	word word
	role fileRole
	what string
	// tree is set on a write that reaches more files than the one named
	// (treeWrite).
	tree treeKind
	// strip is, for a patch (roleDiff), the leading components removed
	// from the names it holds (-pN); -1 when not given.
	strip int
	// below is set on a removal that reaches what is below the path but
	// never the path itself (find -delete's "."): no removal of a root,
	// but of every sensitive file below whose name matches names (the
	// expression's -name patterns; nil: any name).
	below bool
	names []string
	// fresh is set on a write that gives the file contents of its own
	// (an output redirect, a copy's or a move's destination) rather than
	// editing what it holds; appends on an output redirect that appends
	// (>>, &>>). See harmlessSecretsWrite.
	fresh, appends bool
}

// treeKind says which files a write reaches besides the path it names.
type treeKind uint8

const (
	treeNone   treeKind = iota
	treeBelow           // every file below it when it is a directory (a pathspec git restores, a removal, a move)
	treeNew             // every file below it, where a tree is made (cp -r's DIR/NAME)
	treePrefix          // every file whose name starts with it (split's output prefix)
)

// commandFiles returns the paths one command (argv[0] canonical) names and
// their roles.
func commandFiles(args []word) []fileArg { return lookupWord(args[0]).paths(args) }

// paths are the paths args names, p being the record of args[0] (nil for
// a program the registry does not know), and their roles.
func (p *program) paths(args []word) []fileArg {
	if p != nil && p.files != nil {
		return p.files(p, args)
	}
	if p != nil && p.text {
		return nil // text it prints or compares: echo ~ reads nothing
	}
	if p == nil || p.operands == 0 && !p.looseOpts {
		return pathLikeFiles(args)
	}
	operands, opts := walkFlags(args[1:], &p.opts)
	files := optionFiles(opts, &p.opts)
	if p.operands == 0 {
		return append(files, pathLikeFiles(args)...)
	}
	if p.operandFiles != nil {
		return p.operandFiles(p, files, operands, opts)
	}
	return p.plainOperands(files, operands, opts, p.operands)
}

// plainOperands appends the operands to files, each a path of role role,
// but for the script or pattern operand (skipScript).
func (p *program) plainOperands(files []fileArg, operands []word, opts []flagUse, role fileRole) []fileArg {
	for _, o := range p.skipScript(operands, opts) {
		files = append(files, fileArg{word: o, role: role, what: "path"})
	}
	return files
}

// skipScript drops the first operand when it is code or a pattern (the
// record's first role), unless an option gave that.
func (p *program) skipScript(operands []word, opts []flagUse) []word {
	if p.first == 0 || len(operands) == 0 {
		return operands
	}
	if _, given := findFlag(opts, p.firstGiven...); given {
		return operands
	}
	return operands[1:]
}

// optionFiles are the paths named by option values.
func optionFiles(opts []flagUse, spec *optSpec) []fileArg {
	var files []fileArg
	for _, o := range opts {
		r, mapped := spec.roles[o.flag]
		v, known := o.val.known()
		switch {
		case mapped && (r.names() || r == roleList) && !o.val.is(""):
			files = append(files, fileArg{word: o.val, role: r, what: o.flag})
		case o.hasVal && known && (isPathLike(v) || !mapped && nameMaySensitive(v)):
			// An option the record gives no role: its value may name a
			// file (tar --index-file=.git/hooks/x).
			files = append(files, fileArg{word: o.val, role: roleTouch, what: o.flag})
		}
	}
	return files
}

// pathLikeFiles are the path-like words of a program this file does not
// know: absolute, home-relative or climbing with "..", and --opt=PATH.
func pathLikeFiles(args []word) []fileArg {
	var files []fileArg
	for _, a := range args[1:] {
		s, ok := a.known()
		if !ok {
			continue // not guessed to be a path: judged before it starts
		}
		if strings.HasPrefix(s, "-") && len(s) > 1 {
			if _, v, ok := strings.Cut(s, "="); ok && isPathLike(v) {
				files = append(files, fileArg{word: lit(v), role: roleTouch, what: "path"})
			}
			continue
		}
		if isPathLike(s) {
			files = append(files, fileArg{word: a, role: roleTouch, what: "path"})
		}
	}
	return files
}

// treeReads reports what a command whose record is p (or nil) reads by
// walking directories: the directories whose files it reads (grep -r, rg,
// cp -r, tar -c) and, when it follows symlinks while walking, the option
// that makes it (grep -R, rg -L, find -L, cp -L, tar -h). A Read deny rule cannot be checked file
// by file there, and a followed link can lead outside the roots.
func (p *program) treeReads(args []word) (dirs []word, follow string) {
	if p != nil && p.tree != nil {
		return p.tree(args)
	}
	return nil, ""
}

// treeOpt returns the first word of args that is one of the short options
// short (in a cluster) or abbreviates the long option long, or "".
func treeOpt(args []word, short, long string) string {
	for a := range wordsBeforeEnd(args[1:]) {
		if long != "" && strings.HasPrefix(a, "--") && strings.HasPrefix(long, strings.SplitN(a, "=", 2)[0]) && len(a) > 3 {
			return a
		}
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], short) {
			return a
		}
	}
	return ""
}

// patternDirs are the directory operands of grep and rg: without -e or -f
// (given) the first operand is the pattern; none means ".".
func patternDirs(args []word, given bool) []word {
	var ops []word
	for _, a := range args[1:] {
		if !a.hasPrefix("-") {
			ops = append(ops, a)
		}
	}
	if !given && len(ops) > 0 {
		ops = ops[1:]
	}
	if len(ops) == 0 {
		ops = []word{lit(".")}
	}
	return ops
}

// operandDirs are the operands of a recursive reader that are not options
// (option values are taken as directories too: a stricter reading), "."
// when there are none.
func operandDirs(args []word) []word {
	var dirs []word
	for _, a := range args[1:] {
		if !a.hasPrefix("-") {
			dirs = append(dirs, a)
		}
	}
	if len(dirs) == 0 {
		dirs = []word{lit(".")}
	}
	return dirs
}
