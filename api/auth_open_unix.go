//go:build unix

package api

import (
	"os/exec"
	"syscall"
)

// ownGroup runs cmd in a process group of its own, so that the signals a
// terminal sends its foreground group (ctrl+c) do not reach it; when its
// context ends, the whole group is killed (what it started too).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
