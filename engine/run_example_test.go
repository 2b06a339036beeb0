package engine_test

import (
	"context"
	"fmt"
	"time"

	"github.com/chainrun/chainrun/engine"
)

func ExampleRunString() {
	res, err := engine.RunString(context.Background(), "echo hello && false || echo recovered; exit 3",
		engine.Options{Timeout: 10 * time.Second})
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Printf("%s", res.Stdout)
	fmt.Println("exit:", res.ExitCode)
	for _, s := range res.Segments {
		fmt.Println(s.Args, s.ExitCode, s.Skipped)
	}
	// Output:
	// hello
	// recovered
	// exit: 3
	// [echo hello] 0 false
	// [false] 1 false
	// [echo recovered] 0 false
	// [exit 3] 3 false
}
