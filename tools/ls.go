package tools

import (
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ls lists one name a line (as GNU's ls does into a pipe or a file), or
// in -l's long format; names in byte order (GNU's under LC_ALL=C), or by
// time with -t.

func registerLs() {
	register(&Tool{Name: "ls", Spec: Spec{Flags: "laAdRrth1", LongFlags: map[string]string{"all": "a", "almost-all": "A",
		"directory": "d", "recursive": "R", "reverse": "r", "human-readable": "h"}}, run: ls})
}

// entry is one name ls shows: as it prints it, and its file's details.
type entry struct {
	name string
	info fs.FileInfo
	path string
}

func ls(k *task) int {
	operands, status := k.operands, 0
	if len(operands) == 0 {
		operands = []string{"."}
	}
	var files, dirs []entry
	for _, o := range operands {
		fi, err := os.Stat(k.path(o))
		if err != nil {
			if fi, err = os.Lstat(k.path(o)); err != nil {
				k.errorf("cannot access %s: %s", quote(o), describe(err))
				status = 2
				continue
			}
		}
		e := entry{name: o, info: fi, path: k.path(o)}
		if fi.IsDir() && !has(k.opts, "d") {
			dirs = append(dirs, e)
		} else {
			files = append(files, e)
		}
	}
	k.sortEntries(files)
	k.sortEntries(dirs)
	if len(files) > 0 {
		// GNU sizes the columns over every operand, directories too
		k.printEntries(files, false, append(slices.Clone(files), dirs...))
	}
	header := len(operands) > 1 || has(k.opts, "R")
	for i, d := range dirs {
		if i > 0 || len(files) > 0 {
			k.out.WriteString("\n")
		}
		status = max(status, k.listDir(d.name, d.path, header))
	}
	k.out.flush()
	return status
}

// listDir lists one directory, and under -R those below it.
func (k *task) listDir(name, path string, header bool) int {
	if k.stopped() {
		return 2
	}
	if header {
		k.out.WriteString(name + ":\n")
	}
	des, err := os.ReadDir(path)
	if err != nil {
		k.errorf("cannot open directory %s: %s", quote(name), describe(err))
		return 2
	}
	var entries []entry
	all := lastIndex(k.opts, "a") > lastIndex(k.opts, "A") // the later of -a and -A wins
	if all {
		for _, dot := range []string{".", ".."} {
			if fi, err := os.Stat(filepath.Join(path, dot)); err == nil {
				entries = append(entries, entry{name: dot, info: fi, path: filepath.Join(path, dot)})
			}
		}
	}
	for _, d := range des {
		if strings.HasPrefix(d.Name(), ".") && !has(k.opts, "a") && !has(k.opts, "A") {
			continue
		}
		if fi, err := d.Info(); err == nil {
			entries = append(entries, entry{name: d.Name(), info: fi, path: filepath.Join(path, d.Name())})
		}
	}
	k.sortEntries(entries)
	k.printEntries(entries, true, entries)
	status := 0
	if has(k.opts, "R") {
		for _, e := range entries {
			if e.info.IsDir() && e.name != "." && e.name != ".." {
				k.out.WriteString("\n")
				status = max(status, k.listDir(joinShown(name, e.name), e.path, true))
			}
		}
	}
	return status
}

// sortEntries orders by name, or by time (newest first, then name) under
// -t; -r reverses.
func (k *task) sortEntries(es []entry) {
	byTime := has(k.opts, "t")
	slices.SortStableFunc(es, func(a, b entry) int {
		c := 0
		if byTime {
			c = b.info.ModTime().Compare(a.info.ModTime())
		}
		if c == 0 {
			c = strings.Compare(a.name, b.name)
		}
		if has(k.opts, "r") {
			return -c
		}
		return c
	})
}

// printEntries prints names one a line, or -l's rows with columns as wide
// as sizing's widest; inDir adds -l's "total" line for a directory's
// listing.
func (k *task) printEntries(es []entry, inDir bool, sizing []entry) {
	if !has(k.opts, "l") { // -1 is the default into a pipe, and -l wins over it

		for _, e := range es {
			k.out.WriteString(e.name + "\n")
		}
		return
	}
	var blocks int64
	row := func(e entry) []string {
		d := details(e.path, e.info)
		blocks += d.blocks
		return []string{modeString(e.info), strconv.FormatUint(d.links, 10), d.owner, d.group, k.size(e.info.Size()), lsTime(e.info.ModTime())}
	}
	widths := make([]int, 5)
	for _, e := range sizing {
		r := row(e)
		for c := range widths {
			widths[c] = max(widths[c], len(r[c]))
		}
	}
	blocks = 0
	rows := make([][]string, len(es))
	for i, e := range es {
		rows[i] = row(e)
	}
	if inDir {
		total := strconv.FormatInt(blocks, 10)
		if has(k.opts, "h") {
			total = k.size(blocks * 1024)
		}
		k.out.WriteString("total " + total + "\n")
	}
	for i, r := range rows {
		line := fmt.Sprintf("%s %*s %-*s %-*s %*s %s %s", r[0], widths[1], r[1], widths[2], r[2], widths[3], r[3], widths[4], r[4], r[5], es[i].name)
		if es[i].info.Mode()&fs.ModeSymlink != 0 {
			if t, err := os.Readlink(es[i].path); err == nil {
				line += " -> " + t
			}
		}
		k.out.WriteString(line + "\n")
	}
}

// size is a byte count, or with -h GNU's rounded-up 1.5K, 12M, …
func (k *task) size(n int64) string {
	if !has(k.opts, "h") {
		return strconv.FormatInt(n, 10)
	}
	if n < 1024 {
		return strconv.FormatInt(n, 10)
	}
	v, unit := float64(n), 0
	for v >= 1024 && unit < 8 {
		v /= 1024
		unit++
	}
	suffix := string("BKMGTPEZY"[unit])
	if v < 10 {
		if r := math.Ceil(v*10) / 10; r < 10 {
			return strconv.FormatFloat(r, 'f', 1, 64) + suffix
		}
		return "10" + suffix
	}
	if r := math.Ceil(v); r < 1024 {
		return strconv.FormatFloat(r, 'f', 0, 64) + suffix
	}
	return "1.0" + string("BKMGTPEZY"[unit+1])
}

// lsTime is -l's date: month, day and time for the last six months, the
// year instead for older (or future) times.
func lsTime(t time.Time) string {
	now := time.Now()
	if t.After(now.Add(-time.Hour*24*365/2)) && !t.After(now) {
		return t.Format("Jan _2 15:04")
	}
	return t.Format("Jan _2  2006")
}

// modeString is -l's type and permission column: drwxr-xr-x.
func modeString(fi fs.FileInfo) string {
	m := fi.Mode()
	b := []byte("----------")
	switch {
	case m.IsDir():
		b[0] = 'd'
	case m&fs.ModeSymlink != 0:
		b[0] = 'l'
	case m&fs.ModeNamedPipe != 0:
		b[0] = 'p'
	case m&fs.ModeSocket != 0:
		b[0] = 's'
	case m&fs.ModeCharDevice != 0:
		b[0] = 'c'
	case m&fs.ModeDevice != 0:
		b[0] = 'b'
	}
	const rwx = "rwxrwxrwx"
	for i := 0; i < 9; i++ {
		if m.Perm()&(1<<(8-i)) != 0 {
			b[i+1] = rwx[i]
		}
	}
	special := []struct {
		bit  fs.FileMode
		at   int
		x, n byte
	}{{fs.ModeSetuid, 3, 's', 'S'}, {fs.ModeSetgid, 6, 's', 'S'}, {fs.ModeSticky, 9, 't', 'T'}}
	for _, s := range special {
		if m&s.bit != 0 {
			if b[s.at] == 'x' {
				b[s.at] = s.x
			} else {
				b[s.at] = s.n
			}
		}
	}
	return string(b)
}
