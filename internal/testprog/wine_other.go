//go:build !windows

package testprog

// wineVersion is "": Wine runs Windows programs only.
const wineVersion = ""
