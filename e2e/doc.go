// Package e2e holds the end-to-end tests: each builds the real canopy
// binary from the module's root and runs it, most of them in a private
// tmux server that sends keys and reads the screen (tmux_test.go), the
// others as a script or a signal would (emulator, list, interrupts). It
// has no code of its own; `go test -short` skips its tests.
package e2e
