package expand

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/chainrun/chainrun/chain"
)

// TestGlobWindowsPaths globs on the host with Windows' path forms, in the
// Windows dialect, where a backslash is a separator: an absolute drive
// path keeps its backslashes, a path rooted on the current drive and one
// relative to it match where Windows reads them.
func TestGlobWindowsPaths(t *testing.T) {
	if runtime.GOOS != "windows" {
		t.Skip("Windows: drive letters (the Windows rules' globs on a fake file system run everywhere)")
	}
	sh := fixture(t)
	sh.Rules = WindowsRules
	dir := sh.Dir
	vol := filepath.VolumeName(dir)
	for _, c := range []struct{ src, want string }{
		{`echo ` + dir + `\*.txt`, dir + `\c.txt`},
		// mvdan's glob joins what it lists with the OS separator.
		{`echo ` + dir + `/*.txt`, dir + `\c.txt`},
		{`echo ` + strings.ToUpper(dir) + `\C.*`, strings.ToUpper(dir) + `\c.txt`},
		{`echo ` + dir[len(vol):] + `\*.txt`, dir[len(vol):] + `\c.txt`},
		{`echo ` + vol + `*.txt`, vol + `c.txt`},
		{`echo ` + vol + `*.rs`, vol + `*.rs`},
		{`echo ` + dir[len(vol):] + `\*.rs`, dir[len(vol):] + `\*.rs`},
		{`echo /` + filepath.ToSlash(dir[len(vol)+1:]) + `/*.txt`, "/" + filepath.ToSlash(dir[len(vol)+1:]) + `/c.txt`},
	} {
		t.Run(c.src, func(t *testing.T) {
			plan, run := expandOne(t, sh, chain.Windows, c.src)
			want := []string{"echo", c.want}
			if !slices.Equal(plan.Args, want) || !slices.Equal(run.Args, want) {
				t.Errorf("plan %q, run %q, want %q", plan.Args, run.Args, want)
			}
		})
	}
}
