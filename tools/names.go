package tools

import (
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/chainrun/chainrun/resolve"
)

// Small tools on names and time: which, basename, dirname and sleep.

func registerNames() {
	register(&Tool{Name: "which", run: which})
	register(&Tool{Name: "basename", Spec: Spec{Flags: "az", LongFlags: map[string]string{"multiple": "a", "zero": "z"}}, run: basename})
	register(&Tool{Name: "dirname", Spec: Spec{Flags: "z", LongFlags: map[string]string{"zero": "z"}}, run: dirname})
	register(&Tool{Name: "sleep", run: sleep})
}

// which prints where each name is found with the segment's PATH (and, on
// Windows, PATHEXT): the program chainrun itself would run. A name not
// found prints nothing; the status is then 1.
func which(k *task) int {
	status := 0
	for _, name := range k.operands {
		t, err := resolve.Find(name, k.Dir, k.Env)
		if err != nil || !strings.ContainsAny(name, `/\`) && t.Path == "" {
			status = 1
			continue
		}
		k.out.WriteString(t.Path + "\n")
	}
	k.out.flush()
	if len(k.operands) == 0 {
		return 1
	}
	return status
}

// trimSlashes removes trailing separators, keeping a lone root.
func trimSlashes(s string) string {
	t := strings.TrimRight(s, sep())
	if t == "" && s != "" {
		return s[:1]
	}
	return t
}

// sep is the set of path separators: / and, on Windows, \ too.
func sep() string {
	if runtime.GOOS == "windows" {
		return `/\`
	}
	return "/"
}

func basename(k *task) int {
	suffix, names := "", k.operands
	if !has(k.opts, "a") {
		switch {
		case len(names) == 0:
			return k.missing()
		case len(names) == 2:
			suffix, names = names[1], names[:1]
		case len(names) > 2:
			k.errorf("extra operand %s\nTry 'basename --help' for more information.", quote(names[2]))
			return 1
		}
	}
	if len(names) == 0 {
		return k.missing()
	}
	for _, n := range names {
		b := trimSlashes(n)
		if i := strings.LastIndexAny(b, sep()); i >= 0 && len(b) > 1 {
			b = b[i+1:]
		}
		if suffix != "" && b != suffix && strings.HasSuffix(b, suffix) {
			b = strings.TrimSuffix(b, suffix)
		}
		k.out.WriteString(b + k.end())
	}
	k.out.flush()
	return 0
}

// end is the line end: a NUL under -z.
func (k *task) end() string {
	if has(k.opts, "z") {
		return "\x00"
	}
	return "\n"
}

func dirname(k *task) int {
	if len(k.operands) == 0 {
		return k.missing()
	}
	for _, n := range k.operands {
		d := path.Dir(filepath.ToSlash(trimSlashes(n)))
		if runtime.GOOS == "windows" && strings.Contains(n, `\`) {
			d = filepath.FromSlash(d) // the separators as written
		}
		k.out.WriteString(d + k.end())
	}
	k.out.flush()
	return 0
}

// sleep waits for the sum of its operands (NUMBER[smhd]), or until the
// run is stopped.
func sleep(k *task) int {
	if len(k.operands) == 0 {
		return k.missing()
	}
	var total time.Duration
	for _, o := range k.operands {
		unit := time.Second
		num := o
		if n := len(o); n > 0 {
			if u, ok := map[byte]time.Duration{'s': time.Second, 'm': time.Minute, 'h': time.Hour, 'd': 24 * time.Hour}[o[n-1]]; ok {
				unit, num = u, o[:n-1]
			}
		}
		f, err := strconv.ParseFloat(num, 64)
		if err != nil || f < 0 {
			k.errorf("invalid time interval %s\nTry 'sleep --help' for more information.", quote(o))
			return 1
		}
		total += time.Duration(f * float64(unit))
	}
	t := time.NewTimer(total)
	defer t.Stop()
	select {
	case <-t.C:
		return 0
	case <-k.Ctx.Done():
		return 1
	}
}

// joinShown is the name find, grep -r and ls -R show for name in the
// directory shown as dir: joined with "/" as GNU's tools do, or on Windows
// with "\\" when dir is written with backslashes only (C:\src\a.txt).
func joinShown(dir, name string) string {
	if runtime.GOOS == "windows" && strings.Contains(dir, `\`) && !strings.Contains(dir, "/") {
		return strings.TrimSuffix(dir, `\`) + `\` + name
	}
	return strings.TrimSuffix(dir, "/") + "/" + name
}
