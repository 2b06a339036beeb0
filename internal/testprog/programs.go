package testprog

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The programs the tests of more than one package start. Their names say
// what they do and stay clear of shell built-ins and system tools: BinDir
// and testscript put every program first in PATH, where a "cat" or "head"
// would silently stand in for the real tool in every chain of the test.
func init() {
	Register("exit-with", exitWith)
	Register("hang", hang)
	Register("burn-cpu", burnCPU)
	Register("spawn", spawn)
	Register("show-argv", showArgv)
	Register("echo-argv", echoArgv)
	Register("print-env", printEnv)
	Register("dump-env", dumpEnv)
	Register("cat-stdin", catStdin)
	Register("first-line", firstLine)
	Register("to-stderr", toStderr)
	Register("lines", lines)
	Register("show-dir", showDir)
	Register("write-file", writeFile)
	Register("read-file", readFile)
}

// exitWith N exits with status N, 0 without an argument, 100 when N is no
// number. On Windows N is the whole unsigned 32-bit exit code (3221225477
// is 0xC0000005); elsewhere the system keeps its low 8 bits.
func exitWith(args []string) int {
	if len(args) == 0 {
		return 0
	}
	n, err := strconv.ParseInt(args[0], 10, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 100
	}
	return exitCode(n)
}

// hang [PIDFILE] appends its pid to PIDFILE, if given, and sleeps for an
// hour, far longer than any test, until it is stopped.
func hang(args []string) int {
	if len(args) > 0 {
		if err := AppendPid(args[0]); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}
	time.Sleep(time.Hour)
	return 0
}

// burnCPU MS keeps a processor busy for MS milliseconds of wall-clock
// time, so that the CPU time a wait reports for it cannot be zero.
func burnCPU(args []string) int {
	ms, err := strconv.Atoi(args[0])
	if err != nil {
		return 2
	}
	n := 0
	for end := time.Now().Add(time.Duration(ms) * time.Millisecond); time.Now().Before(end); {
		for i := range 1000 {
			n ^= i
		}
	}
	runtime.KeepAlive(n) // the work is the point; its result is not
	return 0
}

// AppendPid appends this process's pid and a newline to file, creating
// it: how programs tell a test which processes must be gone after a stop.
func AppendPid(file string) error {
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(f, os.Getpid())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// spawn starts hang as its child, prints "PID CHILDPID", then hangs: a
// tree whose grandchild shares no pipe with the test, so only a job
// object, a process group or a sweep ends it. It exits 3, printing why,
// when the child does not start.
func spawn(args []string) int {
	c := Command("hang")
	if err := c.Start(); err != nil {
		fmt.Println(err)
		return 3
	}
	fmt.Println(os.Getpid(), c.Process.Pid)
	time.Sleep(time.Hour)
	return 0
}

// showArgv prints each argument as [arg], one a line, so that empty
// arguments and spaces show.
func showArgv(args []string) int {
	for _, a := range args {
		fmt.Printf("[%s]\n", a)
	}
	return 0
}

// echoArgv prints each argument bare, one a line.
func echoArgv(args []string) int {
	for _, a := range args {
		fmt.Println(a)
	}
	return 0
}

// printEnv NAME... prints NAME=value, or "NAME unset", for each name in
// sorted order.
func printEnv(args []string) int {
	names := slices.Sorted(slices.Values(args))
	for _, n := range names {
		if v, ok := os.LookupEnv(n); ok {
			fmt.Printf("%s=%s\n", n, v)
		} else {
			fmt.Printf("%s unset\n", n)
		}
	}
	return 0
}

// dumpEnv prints its whole environment as NAME=value entries separated by
// NUL, which no entry can contain (a newline can).
func dumpEnv(args []string) int {
	fmt.Print(strings.Join(os.Environ(), "\x00"))
	return 0
}

// catStdin copies stdin to stdout.
func catStdin(args []string) int {
	if _, err := io.Copy(os.Stdout, os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// firstLine copies the first line of stdin to stdout and exits without
// reading further, leaving a writer upstream with no reader.
func firstLine(args []string) int {
	line, _ := bufio.NewReader(os.Stdin).ReadString('\n')
	fmt.Print(line)
	return 0
}

// toStderr writes its arguments, joined by spaces, as a line to stderr.
func toStderr(args []string) int {
	fmt.Fprintln(os.Stderr, strings.Join(args, " "))
	return 0
}

// lines N prints the lines 1 to N, ended by \n on every OS.
func lines(args []string) int {
	n := -1
	if len(args) == 1 {
		n, _ = strconv.Atoi(args[0])
	}
	if n < 0 {
		fmt.Fprintln(os.Stderr, "usage: lines N")
		return 2
	}
	w := bufio.NewWriter(os.Stdout)
	for i := 1; i <= n; i++ {
		fmt.Fprintln(w, i)
	}
	if err := w.Flush(); err != nil {
		return 1
	}
	return 0
}

// showDir prints the base name of its working directory.
func showDir(args []string) int {
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(filepath.Base(wd))
	return 0
}

// writeFile PATH [TEXT] creates or truncates PATH and writes TEXT ("x"
// without it): a program no policy record knows that writes a file
// named only by its argument. It exits 1, printing the error, when the
// write is refused.
func writeFile(args []string) int {
	text := "x"
	if len(args) > 1 {
		text = args[1]
	}
	if err := os.WriteFile(args[0], []byte(text), 0o666); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// readFile PATH prints PATH's contents, or exits 1 printing the error.
func readFile(args []string) int {
	b, err := os.ReadFile(args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	os.Stdout.Write(b)
	return 0
}
