package testprog

import (
	"os"
	"strconv"
)

func init() { Register("where-am-i", whereAmI) }

// whereAmI prints its mount namespace and its parent's pid: the
// processes one sandbox helper started share a namespace not the
// test's, and each is the test's own child.
func whereAmI([]string) int {
	ns, err := os.Readlink("/proc/self/ns/mnt")
	if err != nil {
		return 1
	}
	os.Stdout.WriteString(ns + " " + strconv.Itoa(os.Getppid()) + "\n")
	return 0
}
