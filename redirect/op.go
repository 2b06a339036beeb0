// Package redirect applies a segment's redirects to its file-descriptor table
// with bash's semantics: in source order, the last one for an fd winning.
package redirect

// Op is a redirect operator as chainrun's model spells it.
type Op string

// The supported operators. ">|" is read as Out; "n<&m" is DupIn.
const (
	Out        Op = ">"   // n>file  (default n=1): truncate or create
	Append     Op = ">>"  // n>>file (default n=1): append, O_APPEND
	In         Op = "<"   // n<file  (default n=0)
	DupOut     Op = ">&"  // n>&m    (default n=1): fd n becomes a copy of fd m
	DupIn      Op = "<&"  // n<&m    (default n=0): fd n becomes a copy of fd m
	Both       Op = "&>"  // &>file: stdout and stderr to file, truncating
	BothAppend Op = "&>>" // &>>file: stdout and stderr appended to file
)

// MaxFd is the highest file descriptor a redirect may name, as in POSIX sh.
const MaxFd = 9
