//go:build !unix

package plugin

import "os/exec"

// detach: without sessions, the program runs as it is.
func detach(*exec.Cmd) {}

// killGroup ends the program.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}
