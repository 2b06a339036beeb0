package policy

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// core.hooksPath moves a repository's hooks out of .git/hooks: git runs
// whatever is in that directory, so it is as sensitive as .git/hooks. The
// directories are read from the configuration git reads for the roots:
// the repository holding each root (its .git/config, or the one a .git
// file points to) and the user's ~/.gitconfig and ~/.config/git/config.
// A relative value is relative to the working tree, where hooks run.

// hook says why p, a path a program may write, is in a directory
// core.hooksPath names, or "". Reading a hook runs nothing, so only
// writes (and paths of unknown role) pay for reading the configuration.
func (e *pathEnv) hook(p string) string {
	e.init()
	if !e.hooksRead {
		e.hooksRead, e.hooks = true, e.hooksDirs()
	}
	if len(e.hooks) == 0 {
		return ""
	}
	fp := lowerASCII(pathKey(p, false))
	for _, h := range e.hooks {
		if keyWithin(fp, h) {
			return "git hooks (core.hooksPath " + h + ", runs programs)"
		}
	}
	return ""
}

// hooksDirs returns the hook directories core.hooksPath names for the
// roots, in the lower-cased pathKey form sensitive compares.
func (e *pathEnv) hooksDirs() []string {
	var dirs []string
	for _, r := range e.roots {
		if top, gitDir := findRepo(r); top != "" {
			dirs = append(dirs, hooksPathIn(filepath.Join(gitDir, "config"), top, e.home)...)
		}
	}
	if e.home != "" {
		for _, c := range []string{filepath.Join(e.home, ".gitconfig"), filepath.Join(e.home, ".config", "git", "config")} {
			dirs = append(dirs, hooksPathIn(c, "", e.home)...)
		}
	}
	return dirs
}

// findRepo finds the repository holding dir: the working tree's top and
// its git directory (.git, or where a .git file points), or "".
func findRepo(dir string) (top, gitDir string) {
	for d := dir; ; d = filepath.Dir(d) {
		g := filepath.Join(d, ".git")
		if fi, err := os.Stat(g); err == nil {
			if fi.IsDir() {
				return d, g
			}
			if b, err := os.ReadFile(g); err == nil {
				if t, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:"); ok {
					t = strings.TrimSpace(t)
					if !filepath.IsAbs(t) {
						t = filepath.Join(d, t)
					}
					return d, t
				}
			}
		}
		if filepath.Dir(d) == d {
			return "", ""
		}
	}
}

// hooksCache keeps each configuration file's hook directories while the
// file is unchanged (same size and modification time).
var hooksCache struct {
	sync.Mutex
	m map[[2]string]hooksEntry // keyed by configuration file and top directory
}

type hooksEntry struct {
	size int64
	mod  time.Time
	dirs []string
}

// hooksPathIn reads core.hooksPath from the configuration file conf,
// resolving a relative value against top (a global file's relative value
// is left alone: git reads it per repository).
func hooksPathIn(conf, top, home string) []string {
	fi, err := os.Stat(conf)
	if err != nil {
		return nil
	}
	key := [2]string{conf, top}
	hooksCache.Lock()
	c, ok := hooksCache.m[key]
	hooksCache.Unlock()
	if ok && c.size == fi.Size() && c.mod.Equal(fi.ModTime()) {
		return c.dirs
	}
	var dirs []string
	if b, err := os.ReadFile(conf); err == nil {
		for _, v := range configValues(b, "core", "hookspath") {
			switch {
			case v == "~" || strings.HasPrefix(v, "~/"):
				v = filepath.Join(home, strings.TrimPrefix(v, "~"))
			case !filepath.IsAbs(v) && top == "":
				continue
			case !filepath.IsAbs(v):
				v = filepath.Join(top, v)
			}
			dirs = append(dirs, lowerASCII(pathKey(resolvePath(v), false)))
		}
	}
	hooksCache.Lock()
	if hooksCache.m == nil || len(hooksCache.m) > 64 {
		hooksCache.m = make(map[[2]string]hooksEntry)
	}
	hooksCache.m[key] = hooksEntry{size: fi.Size(), mod: fi.ModTime(), dirs: dirs}
	hooksCache.Unlock()
	return dirs
}

// configValues reads the values of section.key (both lower case) from a
// git configuration file: [section] headers, key = value lines, quotes
// removed. Includes and conditional sections are not followed.
func configValues(b []byte, section, key string) []string {
	var vals []string
	in := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			name, _, _ := strings.Cut(strings.Trim(line, "[]"), " ")
			in = strings.EqualFold(strings.TrimSpace(name), section)
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if in && ok && strings.EqualFold(strings.TrimSpace(k), key) {
			vals = append(vals, strings.Trim(strings.TrimSpace(v), `"`))
		}
	}
	return vals
}
