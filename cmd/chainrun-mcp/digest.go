package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// policyID digests the policy's files' names and contents (a missing one
// as empty), the mode flag and the working directories, so an approval
// given on a retried call is bound to the policy that asked for it.
func policyID(paths []string, mode string, dirs []string) string {
	h := sha256.New()
	for _, p := range paths {
		data, _ := os.ReadFile(p)
		abs, _ := filepath.Abs(p)
		fmt.Fprintf(h, "%s\x00%d\x00", abs, len(data))
		h.Write(data)
	}
	fmt.Fprintf(h, "mode\x00%s\x00dirs\x00%s", mode, strings.Join(dirs, "\x00"))
	return hex.EncodeToString(h.Sum(nil))
}
