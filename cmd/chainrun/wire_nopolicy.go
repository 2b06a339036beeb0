//go:build !chainrun_policy

package main

import (
	"errors"

	"github.com/chainrun/chainrun/engine"
)

// policySupported reports that this build has no policy package yet.
const policySupported = false

var errNoPolicy = errors.New("this build of chainrun has no policy support")

func newAuthorizer(paths []string) (engine.Authorizer, []string, error) {
	return nil, nil, errNoPolicy
}

func newAuditor(a auditConfig) (engine.Auditor, func() error, error) {
	return nil, nil, errNoPolicy
}
