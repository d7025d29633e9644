//go:build unix

package plugin

import (
	"os/exec"
	"syscall"
)

// detach runs cmd in a session of its own, without a controlling
// terminal: a background plugin that asks on /dev/tty (a password, a
// host key) fails at once instead of taking canopy's keys, and cannot
// write to the screen behind canopy's back. Stopping it ends everything
// it started (its process group).
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Cancel = func() error { return killGroup(cmd) }
}

// killGroup ends a detached program and what it started.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
