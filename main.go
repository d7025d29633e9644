// Command canopy is a terminal UI explorer for Platform API v2. Its
// commands are in package cli: main gives them the arguments, the standard
// streams and a context that SIGINT, SIGTERM and SIGHUP cancel, and exits
// with the status they return.
package main

import (
	"context"
	"os"

	"canopy/cli"
	"canopy/cli/exit"
)

func main() {
	ctx, stop := exit.SignalContext(context.Background())
	code := cli.Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
