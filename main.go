// Command canopy is a terminal UI explorer for Platform API v2.
//
//	canopy [flags]            explore a real API (token from the chain in API.md)
//	canopy demo [flags]       explore the built-in emulator, no set-up
//	canopy emulator [flags]   serve the emulator over HTTP for scripts and tests
//	canopy list KIND [flags]  print a collection as a table or JSON, for scripts
//	canopy config | info      the effective settings; the paths in use
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"canopy/api"
)

// Exit codes that mean something to scripts.
const (
	exitOK       = 0
	exitFailure  = 1
	exitUsage    = 2
	exitNoServer = 3
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run dispatches to a subcommand and returns the process exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "demo":
			return runDemo(ctx, args[1:], stdout, stderr)
		case "emulator":
			return runEmulator(ctx, args[1:], stdout, stderr)
		case "list":
			return runList(ctx, args[1:], os.Getenv, stdout, stderr)
		case "config":
			return runConfig(args[1:], os.Getenv, stdout, stderr)
		case "info":
			return runInfo(args[1:], os.Getenv, stdout, stderr)
		case "completion":
			return runCompletion(ctx, args[1:], stdout, stderr)
		case "version", "--version", "-version":
			fmt.Fprintln(stdout, "canopy", api.Version)
			return exitOK
		case "help":
			return runExplore(ctx, []string{"-h"}, stdout, stderr)
		}
	}
	return runExplore(ctx, args, stdout, stderr)
}
