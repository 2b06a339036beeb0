//go:build !unix

package main

import (
	"fmt"
	"os"
	"time"
)

func timeBare(string) time.Duration {
	fmt.Fprintln(os.Stderr, "libbench: -bare needs a Unix fork/exec")
	os.Exit(2)
	return 0
}
