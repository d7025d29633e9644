//go:build !unix

package api

import "os/exec"

// openNonblock is 0 where opening a file cannot wait for a writer the Unix way.
const openNonblock = 0

// ownGroup leaves cmd as it is: there are no process groups to move it out of.
func ownGroup(*exec.Cmd) {}
