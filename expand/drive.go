package expand

import (
	"runtime"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/chainrun/chainrun/builtin/spec"
)

// driveGlob is a word whose Windows path mvdan's glob would read from
// the wrong place, made absolute for the glob: mvdan reads a path rooted
// on the current drive ("\src\*.go", "/src/*.go") or relative to a drive
// ("C:*.go") as relative to the shell's directory. The word is globbed as
// the absolute path Windows reads (spec.JoinPath) and each field given
// back the prefix as written.
type driveGlob struct {
	word           *syntax.Word
	written, asAbs string // the field prefixes: as written, as globbed
}

// anchorDrive returns the driveGlob for w, or ok false when w needs none:
// off Windows, and for a word that is not all literal text (an expansion
// inside it could make fields that do not start with the prefix).
func (s *Shell) anchorDrive(w *syntax.Word) (g driveGlob, ok bool) {
	if runtime.GOOS != "windows" || len(w.Parts) != 1 {
		return g, false
	}
	lit, isLit := w.Parts[0].(*syntax.Lit)
	if !isLit {
		return g, false
	}
	// The literal spells a kept backslash as "\\" (chain's Windows
	// dialect); its first path characters decide the anchor.
	head := strings.ReplaceAll(lit.Value[:min(len(lit.Value), 6)], `\\`, `\`)
	var written, abs string
	switch spec.PathAnchor(head, true) {
	case spec.DriveRooted:
		written, abs = "", spec.VolumeName(s.Dir, true)
	case spec.DriveRelative:
		written = head[:2]
		abs = spec.JoinPath(s.Dir, written, true)
		if !strings.HasSuffix(abs, `\`) {
			abs += `\`
		}
	default:
		return g, false
	}
	if abs == "" {
		return g, false
	}
	value := strings.ReplaceAll(abs, `\`, `\\`) + lit.Value[len(written):]
	g.word = &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{ValuePos: lit.ValuePos, ValueEnd: lit.ValueEnd, Value: value}}}
	g.written, g.asAbs = written, abs
	return g, true
}

// restore gives each field its prefix as written.
func (g driveGlob) restore(fields []string) []string {
	for i, f := range fields {
		if strings.HasPrefix(f, g.asAbs) {
			fields[i] = g.written + f[len(g.asAbs):]
		}
	}
	return fields
}
