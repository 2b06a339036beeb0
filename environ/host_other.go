//go:build !windows

package environ

// Host is how the running OS compares variable names.
const Host = Exact
