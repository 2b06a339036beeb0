package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/chainrun/chainrun/chain"
)

// TestExpandAssignBypass: a variable ${X:=word} assigns is known only at
// run time after it in the plan, so a command word made of it is never
// allowed before the run, and denied when it starts; an exported name is
// refused (programs would get it unjudged).
func TestExpandAssignBypass(t *testing.T) {
	for _, line := range []string{`echo ${X:=rm} > /dev/null; $X -rf x`, `true ${X:=rm}; "$X" x`} {
		proj, pol, env := substWorld(t)
		opts := Options{Dir: proj, Env: env, Authorizer: pol, Dialect: chain.POSIX,
			Approver: chain.ApproverFunc(func(context.Context, *chain.Chain, *chain.Decision) (bool, error) { return true, nil })}
		_, err := RunString(context.Background(), line, opts)
		var denied *chain.DeniedError
		if !errors.As(err, &denied) {
			t.Errorf("%s: err %v, want a denial", line, err)
		}
		if _, err := os.Stat(filepath.Join(proj, "x")); err != nil {
			t.Errorf("%s: x was touched: %v", line, err)
		}
	}
	proj, _, env := substWorld(t)
	res, err := RunString(context.Background(), `export E; echo ${E:=x}; echo after`, Options{Dir: proj, Env: env, Dialect: chain.POSIX})
	if err == nil && res != nil && string(res.Stdout) != "" {
		t.Errorf("an exported name was assigned in ${…}: stdout %q", res.Stdout)
	}
}
