// Package policy judges chains against permission rules (allow, ask, deny)
// before anything runs.
package policy
