//go:build unix

package main

import (
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/chainrun/chainrun/chain"
)

// timeBare runs a chain of single-segment pipelines with nothing but
// syscall.ForkExec and Wait4 per segment, honouring && and ||: the least
// any Go program pays to start those processes, the floor under what the
// engine can reach.
func timeBare(cmd string) time.Duration {
	c, err := chain.Parse(cmd)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	attr := &syscall.ProcAttr{Env: os.Environ(), Files: []uintptr{0, 1, 2}, Sys: &syscall.SysProcAttr{Setpgid: true}}
	start := time.Now()
	status := 0
	for i, p := range c.Pipelines {
		if i > 0 && !runsAfter(c.Ops[i-1], status) {
			continue
		}
		args := p.Segments[0].Args
		pid, err := syscall.ForkExec(args[0], args, attr)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		var ws syscall.WaitStatus
		syscall.Wait4(pid, &ws, 0, nil)
		status = ws.ExitStatus()
	}
	return time.Since(start)
}

// runsAfter reports whether the pipeline after op runs, given the status
// of the last one that ran.
func runsAfter(op chain.Op, status int) bool {
	switch op {
	case chain.OpAnd:
		return status == 0
	case chain.OpOr:
		return status != 0
	}
	return true
}
