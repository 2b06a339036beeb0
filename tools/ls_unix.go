//go:build !windows

package tools

import (
	"io/fs"
	"os/user"
	"strconv"
	"syscall"
)

// fileDetails are -l's columns the file system keeps per OS.
type fileDetails struct {
	links        uint64
	owner, group string
	blocks       int64 // in 1 KiB units, as GNU's total counts them
}

// details reads the link count, owner, group and allocated blocks.
func details(_ string, fi fs.FileInfo) fileDetails {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileDetails{links: 1, owner: "?", group: "?"}
	}
	d := fileDetails{links: uint64(st.Nlink), blocks: int64(st.Blocks) / 2,
		owner: strconv.FormatUint(uint64(st.Uid), 10), group: strconv.FormatUint(uint64(st.Gid), 10)}
	if u, err := user.LookupId(d.owner); err == nil {
		d.owner = u.Username
	}
	if g, err := user.LookupGroupId(d.group); err == nil {
		d.group = g.Name
	}
	return d
}
