package sandbox

import (
	"os"
	"path/filepath"
)

// Access is what a Grant allows below its path.
type Access uint8

const (
	// Read allows reading files and running them.
	Read Access = 1 << iota
	// List allows listing directories.
	List
	// Write allows creating, changing, truncating, renaming and removing.
	Write
)

// Grant is one rule of a kernel that grants rights on whole trees
// (Landlock): Access below Path, or on Path alone when it is a file.
type Grant struct {
	Path   string
	Access Access
}

// Grants turns the boundary into rules that only grant, as Landlock's do.
// Writes: each writable tree, and the devices. Reads: every tree but the
// denied ones, by granting the entries beside each denied path on the way
// down from "/" (listing stays allowed everywhere, so a denied directory's
// names show, not its files). A granted tree cannot have a path taken
// back out of it: a denyWrite inside a writable tree, a denyRead inside
// one, or a denyRead in a directory a sandboxed program may add entries to
// (which the rules, fixed before it starts, could not grant) is a Carve,
// for another mechanism or for the policy alone.
func (b *Boundary) Grants() []Grant {
	var grants []Grant
	for _, w := range b.Write {
		grants = append(grants, Grant{Path: w, Access: Read | List | Write})
	}
	for _, d := range Devices {
		grants = append(grants, Grant{Path: d, Access: Read | List | Write})
	}
	_, hidden := b.split()
	grants = append(grants, Grant{Path: "/", Access: List})
	grants = readGrants("/", hidden, grants)
	for _, a := range b.AllowRead {
		grants = append(grants, Grant{Path: a, Access: Read | List})
	}
	return grants
}

// Carve is a denied path inside (or, for reads, beside) a writable tree:
// a kernel that grants whole trees cannot take it out, so another
// mechanism must (a private mount namespace that binds it read-only, or
// hides it under an empty one, for Hide).
type Carve struct {
	Path string
	Hide bool   // a denied read: hidden, not only read-only
	Why  string // "denyWrite X is inside the writable tree W"
}

// Carves lists the denied paths Grants cannot express.
func (b *Boundary) Carves() []Carve {
	c, _ := b.split()
	return c
}

// split sorts the denied paths into those Grants' rules cannot hold
// (carves) and the denied reads they hold by granting around them
// (hidden): one a sandboxed program may add entries beside could not be
// granted around by rules fixed before it starts.
func (b *Boundary) split() (carves []Carve, hidden []string) {
	for _, d := range b.DenyWrite {
		if w := under(d, b.Write); w != "" {
			carves = append(carves, Carve{Path: d, Why: "denyWrite " + d + " is inside the writable tree " + w})
		}
	}
	for _, d := range b.DenyRead {
		w := under(d, b.Write)
		if w == "" {
			w = under(filepath.Dir(d), b.Write)
		}
		switch {
		case under(d, b.AllowRead) != "":
		case w != "":
			carves = append(carves, Carve{Path: d, Hide: true, Why: "denyRead " + d + " is inside or beside the writable tree " + w})
		default:
			hidden = append(hidden, d)
		}
	}
	return carves, hidden
}

// readGrants grants reading dir's tree except the hidden paths: the whole
// tree when none is inside, else each entry apart, down to them. Links
// are left out: the kernel judges the object a link leads to, which has
// its own grant (or none, for a link into a hidden tree).
func readGrants(dir string, hidden []string, grants []Grant) []Grant {
	if under(dir, hidden) != "" {
		return grants
	}
	inside := false
	for _, h := range hidden {
		inside = inside || Within(h, dir)
	}
	if !inside {
		return append(grants, Grant{Path: dir, Access: Read | List})
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return grants
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		switch {
		case e.Type()&os.ModeSymlink != 0:
		case e.IsDir():
			grants = readGrants(p, hidden, grants)
		case under(p, hidden) == "":
			grants = append(grants, Grant{Path: p, Access: Read})
		}
	}
	return grants
}
