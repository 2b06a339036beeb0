package engine_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/chainrun/chainrun/chain"
	"github.com/chainrun/chainrun/engine"
	"github.com/chainrun/chainrun/policy"
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

// Run with a policy as its Authorizer: the chain is judged as a whole
// before anything starts, so the denied rm keeps the echo before it from
// running too.
func ExampleRun_authorizer() {
	p, _, err := policy.Parse([]byte(`{"permissions": {"allow": ["Bash(echo:*)"], "deny": ["Bash(rm:*)"]}}`),
		"settings.json")
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	opts := engine.Options{Authorizer: p, Timeout: 10 * time.Second}
	for _, cmd := range []string{"echo allowed", "echo first && rm -rf build"} {
		c, err := chain.Parse(cmd)
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		res, err := engine.Run(context.Background(), c, opts)
		var denied *chain.DeniedError
		switch {
		case errors.As(err, &denied):
			fmt.Printf("denied: segment %d %q by %s\n", denied.Segment+1, denied.Text, denied.Rule)
		case err != nil:
			fmt.Println("error:", err)
		default:
			fmt.Printf("%s", res.Stdout)
		}
	}
	// Output:
	// allowed
	// denied: segment 2 "rm -rf build" by Bash(rm:*)
}
