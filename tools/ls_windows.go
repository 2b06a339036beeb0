package tools

import (
	"io/fs"
	"os"
)

// fileDetails are -l's columns the file system keeps per OS.
type fileDetails struct {
	links        uint64
	owner, group string
	blocks       int64 // in 1 KiB units, as GNU's total counts them
}

// details on Windows: one link, the user running chainrun as owner and
// group (as Git for Windows' ls shows files the user owns), and the size
// rounded up to 4 KiB clusters for the total.
func details(_ string, fi fs.FileInfo) fileDetails {
	name := os.Getenv("USERNAME")
	if name == "" {
		name = "user"
	}
	return fileDetails{links: 1, owner: name, group: name, blocks: (fi.Size() + 4095) / 4096 * 4}
}
