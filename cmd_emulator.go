package main

import (
	"context"
	"fmt"
	"io"
)

// runEmulator serves the emulator (being built: see api/emulator).
func runEmulator(_ context.Context, _ []string, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, "canopy emulator: not built yet")
	return exitFailure
}
