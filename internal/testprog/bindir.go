package testprog

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// bin is the directory BinDir makes once per test process.
var bin struct {
	once sync.Once
	dir  string
	err  error
}

// BinDir returns a directory that holds the test binary under every
// program's name, for tests whose chains find the programs through PATH.
// It is made on first use, so packages that never need it pay nothing,
// and [Main] removes it after the tests. It panics when the directory
// cannot be made, which leaves no test able to run its chains.
//
// Only a test process may call it: a program would make a directory that
// nothing removes. A program starts another one with [Command].
func BinDir() string {
	if running != "" {
		panic(fmt.Sprintf("testprog: BinDir called from the program %q; start programs from programs with Command", running))
	}
	bin.once.Do(func() {
		bin.dir, bin.err = os.MkdirTemp("", "chainrun-testprog-")
		if bin.err == nil {
			bin.err = Link(bin.dir)
		}
	})
	if bin.err != nil {
		panic("testprog: " + bin.err.Error())
	}
	return bin.dir
}

// Path returns the path of the program name in [BinDir]; started there,
// the test binary runs that program whatever its environment.
func Path(name string) string {
	mustExist(name)
	return filepath.Join(BinDir(), name+exeSuffix)
}

// Link puts the test binary into dir under every program's name (with
// ".exe" on Windows): as symbolic links, or as copies on Windows (see
// link_windows.go for why).
func Link(dir string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	for name := range programs {
		if err := link(exe, filepath.Join(dir, name+exeSuffix)); err != nil {
			return fmt.Errorf("linking %s: %w", name, err)
		}
	}
	return nil
}

// removeBinDir removes the directory BinDir made, if any.
func removeBinDir() {
	if bin.dir != "" {
		removeTree(bin.dir)
	}
}
