package chain_test

import (
	"errors"
	"fmt"

	"github.com/chainrun/chainrun/chain"
)

// Parse turns a command line into segments with their argv, operators and
// redirects; nothing runs.
func ExampleParseDialect() {
	c, err := chain.ParseDialect(`git status | grep main && go test ./... > "test log.txt" 2>&1`, chain.POSIX)
	if err != nil {
		panic(err)
	}
	for i, s := range c.Segments() {
		fmt.Printf("segment %d: %q", i, s.Args)
		for _, r := range s.Redirects {
			fmt.Printf(" %d%s%s", r.Fd, r.Op, r.Target)
		}
		fmt.Println()
	}
	fmt.Println("ops:", c.SegmentOps())
	// Output:
	// segment 0: ["git" "status"]
	// segment 1: ["grep" "main"]
	// segment 2: ["go" "test" "./..."] 1>test log.txt 2>&1
	// ops: [| &&]
}

// A construct chainrun cannot give bash's meaning without running code is
// refused before anything runs, with its kind, offset and the fix.
func ExampleParseError() {
	_, err := chain.ParseDialect("echo $(select f in *; do date; done)", chain.POSIX)
	var pe *chain.ParseError
	if errors.As(err, &pe) {
		fmt.Println(chain.KindOf(err), pe.Construct, pe.Offset)
		fmt.Print(pe.Caret())
	}
	// Output:
	// unsupported control flow 7
	// unsupported error: 1:8: select menus wait for a choice typed at a terminal, which a chain does not have; run the command for the choice directly
	//   echo $(select f in *; do date; done)
	//          ^
}
