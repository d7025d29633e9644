//go:build linux

// Command maxrss runs a program and writes its peak resident memory, in
// bytes, to a file: maxrss OUT program args…. End-to-end tests measure
// canopy through it because a child's peak, as Linux counts it, starts at
// its parent's when the parent execs it from a shared address space (Go's
// os/exec does): a test binary of 150 MB made a canopy of 30 MB read 150.
// This program is small, so what it adds is a few MB at most.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: maxrss OUT program [args…]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		fmt.Fprintln(os.Stderr, "maxrss:", err)
		os.Exit(2)
	}
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
	if err := os.WriteFile(os.Args[1], []byte(strconv.FormatInt(rss, 10)), 0o600); err != nil {
		fmt.Fprintln(os.Stderr, "maxrss:", err)
		os.Exit(2)
	}
	os.Exit(cmd.ProcessState.ExitCode())
}
