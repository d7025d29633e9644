package main

import (
	"context"
	"fmt"
	"io"
)

// runDemo opens the UI on the in-process emulator (being built).
func runDemo(_ context.Context, _ []string, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, "canopy demo: not built yet")
	return exitFailure
}

// runExplore opens the UI on a real API (being built).
func runExplore(_ context.Context, _ []string, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, "canopy: not built yet")
	return exitFailure
}
