package engine

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chainrun/chainrun/internal/testprog"
)

// TestRead reads the segment's stdin into variables as bash's read does.
func TestRead(t *testing.T) {
	for _, tt := range []struct {
		src, stdin, stdout string
	}{
		{`read a b; echo "[$a][$b]"; read c; echo "[$c] $?"`, "x  y z\nlast", "[x][y z]\n[last] 1\n"},
		{`read -r a; echo "$a"; cat`, "a\\b\nrest\n", "a\\b\nrest\n"},
		{`IFS=, read a b; echo "[$a][$b]"`, "1,2,\n", "[1][2]\n"},
		{`read; echo "[$REPLY]"`, "  x  \n", "[  x  ]\n"},
		{`echo a b | read x; echo "[$x]"`, "", "[]\n"},
		{`read -d , a; echo "[$a]"`, "p q,r", "[p q]\n"},
	} {
		res, err := RunString(context.Background(), tt.src, Options{Dir: testprog.TempDir(t), Stdin: strings.NewReader(tt.stdin)})
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if string(res.Stdout) != tt.stdout {
			t.Errorf("%s: stdout %q, want %q", tt.src, res.Stdout, tt.stdout)
		}
	}
}

// TestReadEndsWithTheChain: a read waiting on the stdin chainrun feeds
// ends at the chain's timeout, and one on a pipe handed in as it is, which
// nothing could interrupt, is refused when the chain has a timeout.
func TestReadEndsWithTheChain(t *testing.T) {
	pr, pw := io.Pipe() // never written: read would wait for ever
	defer pw.Close()
	res, err := RunString(context.Background(), "read a", Options{Stdin: pr, Timeout: 200 * time.Millisecond})
	if err == nil || res == nil || !res.TimedOut {
		t.Fatalf("read on a fed stdin: %v, %+v; want a timeout", err, res)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	res, err = RunString(context.Background(), "read a; echo after $?", Options{Stdin: r, Timeout: time.Minute})
	if err != nil || string(res.Stdout) != "after 1\n" || !strings.Contains(string(res.Stderr), "read: the chain's stdin") {
		t.Fatalf("read on a pipe handed in: %v, %q %q", err, res.Stdout, res.Stderr)
	}
}
