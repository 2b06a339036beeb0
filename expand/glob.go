package expand

import "github.com/chainrun/chainrun/chain"

// GlobOptions are the shopt options that change how words expand; all
// off by default, as in bash.
type GlobOptions struct {
	GlobStar   bool // ** matches any depth of directories
	NullGlob   bool // a pattern that matches nothing expands to nothing
	DotGlob    bool // patterns match names starting with a dot
	NoCaseGlob bool // patterns match in any case
}

// Set turns the option name (spec.ShoptNames) on or off.
func (g *GlobOptions) Set(name string, on bool) {
	switch name {
	case "globstar":
		g.GlobStar = on
	case "nullglob":
		g.NullGlob = on
	case "dotglob":
		g.DotGlob = on
	case "nocaseglob":
		g.NoCaseGlob = on
	}
}

// Get reports whether the option name is on.
func (g GlobOptions) Get(name string) bool {
	switch name {
	case "globstar":
		return g.GlobStar
	case "nullglob":
		return g.NullGlob
	case "dotglob":
		return g.DotGlob
	case "nocaseglob":
		return g.NoCaseGlob
	}
	return false
}

// planShopt follows shopt -s and -u in a plan when they run for sure with
// words written out; otherwise the options, and so every glob after, are
// known only at run time.
func (p *Shell) planShopt(s *chain.Segment, certain bool) {
	if len(s.Args) < 3 || s.Args[1] != "-s" && s.Args[1] != "-u" {
		return // a query changes nothing
	}
	if !certain || anyRuntime(s) {
		p.markUnknown("files", true)
		return
	}
	for _, n := range s.Args[2:] {
		p.Glob.Set(n, s.Args[1] == "-s")
	}
}
