package plugin_test

import (
	"errors"
	"strings"
	"testing"

	"canopy/plugin"
)

// TestVariablesNeverReachACommandRunner: a variable given to a program
// that may run one of its arguments as a command is refused when the config
// is read, in whatever argument, whatever the path or case of the program.
func TestVariablesNeverReachACommandRunner(t *testing.T) {
	for _, cmd := range []string{
		// multiplexers: issue 33's `tmux new-session -d {{.Email}}`
		"tmux", "/usr/bin/tmux", "TMUX.EXE", "tmate", "screen", "zellij", "byobu", "dtach", "abduco",
		// wrappers that run the rest of their line
		"setsid", "nsenter", "unshare", "dbus-run-session", "dbus-launch", "systemd-run", "expect", "script", "nohup",
		"nice", "ionice", "chrt", "taskset", "chroot", "flock", "parallel", "env", "xargs", "timeout", "watch", "entr",
		"stdbuf", "time", "strace", "ltrace", "gdb", "valgrind", "firejail", "bwrap", "socat", "sshpass",
		// privilege
		"su", "sudo", "doas", "pkexec", "runuser",
		// multi-call binaries, shells and interpreters, versioned too
		"busybox", "toybox", "sh", "bash-5.2", "zsh", "fish", "pwsh", "cmd.exe", "python3.12", "perl5.36", "sed", "awk", "m4",
		// remote shells and terminal emulators
		"ssh", "mosh", "rsh", "xterm", "gnome-terminal", "konsole", "alacritty", "kitty", "wezterm", "foot", "urxvt", "st",
		// build and package runners
		"make", "cmake", "just", "npx", "uvx", "nix-shell",
		// a batch file is run by cmd.exe
		`C:\tools\deploy.BAT`, "run.cmd",
	} {
		p := plugin.Plugin{Name: "x", Kinds: []string{"identity"}, Command: cmd, Args: plugin.MustArgs("-x", "{{.Email}}")}
		var arg *plugin.ArgError
		if err := p.Check(); !errors.As(err, &arg) || arg.Index != 1 || !strings.Contains(err.Error(), "{{.Email}} would reach") ||
			!strings.Contains(err.Error(), "may read it as code") {
			t.Errorf("%s: Check = %v, want {{.Email}} refused in args[1]", cmd, err)
		}
	}
}

// TestVariablesInACommandsPlace: programs plugins use for what they are
// (git, docker, kubectl, find, an editor) refuse a variable only where
// they would run it: after a subcommand that runs a command, or as the
// value of an option that names one.
func TestVariablesInACommandsPlace(t *testing.T) {
	refused := []struct {
		cmd  string
		args []string
		says string
	}{
		{"docker", []string{"run", "--rm", "{{.Ref}}"}, "docker run"},
		{"docker", []string{"compose", "exec", "app", "{{.Tag}}"}, "docker exec"},
		{"docker", []string{"buildx", "build", "{{.Image}}"}, "docker build"},
		{"podman", []string{"run", "cgr.dev/chainguard/grype", "{{.Ref}}"}, "podman run"},
		{"kubectl", []string{"exec", "pod", "--", "{{.Tag}}"}, "kubectl exec"},
		{"kubectl", []string{"create", "job", "j", "--image=x", "--", "{{.Tag}}"}, "kubectl --"},
		{"git", []string{"-c", "core.pager={{.Name}}", "log"}, "git -c"},
		{"git", []string{"-c", "{{.Name}}", "log"}, "git -c"},
		{"git", []string{"submodule", "foreach", "{{.Name}}"}, "git foreach"},
		{"git", []string{"config", "core.sshCommand", "{{.Name}}"}, "git config"},
		{"git", []string{"fetch", "--upload-pack={{.Name}}", "origin"}, "git --upload-pack"},
		{"find", []string{".", "-exec", "{{.Name}}", "{}", ";"}, "find -exec"},
		{"vim", []string{"-c", "{{.Name}}", "file"}, "vim -c"},
		{"nvim", []string{"+{{.Name}}", "file"}, "nvim +"},
		{"emacs", []string{"--eval={{.Name}}"}, "emacs --eval"},
		{"rsync", []string{"-e", "{{.Name}}", "a", "b"}, "rsync -e"},
		{"scp", []string{"-oProxyCommand={{.Name}}", "a", "b"}, "scp -o"},
		{"tar", []string{"--to-command={{.Name}}", "-xf", "a.tar"}, "tar --to-command"},
		{"go", []string{"run", "{{.Package}}"}, "go run"},
		{"npm", []string{"exec", "{{.Package}}"}, "npm exec"},
		{"uv", []string{"tool", "run", "{{.Package}}"}, "uv tool"},
		{"pipx", []string{"run", "{{.Package}}"}, "pipx run"},
	}
	for _, c := range refused {
		p := plugin.Plugin{Name: "x", Kinds: kindsFor(c.args), Command: c.cmd, Args: plugin.MustArgs(c.args...)}
		if err := p.Check(); err == nil || !strings.Contains(err.Error(), "would reach "+c.says+",") {
			t.Errorf("%s %q: Check = %v, want it to say it would reach %s", c.cmd, c.args, err, c.says)
		}
	}
	passed := []struct {
		cmd  string
		args []string
	}{
		{"cosign", []string{"verify", "--certificate-oidc-issuer=https://token.actions.githubusercontent.com", "{{.Ref}}"}},
		{"crane", []string{"manifest", "{{.Ref}}"}},
		{"grype", []string{"{{.Ref}}", "--only-fixed"}},
		{"docker", []string{"pull", "{{.Ref}}"}},
		{"docker", []string{"buildx", "imagetools", "inspect", "{{.Ref}}"}},
		{"docker", []string{"scout", "cves", "{{.Ref}}"}},
		{"kubectl", []string{"set", "image", "deploy/app", "app={{.Ref}}"}},
		{"git", []string{"-C", "/src/app", "log", "--oneline", "{{.Tag}}"}},
		{"git", []string{"-c", "color.ui=never", "tag", "--contains", "{{.Tag}}"}},
		{"find", []string{".", "-name", "{{.Name}}", "-exec", "ls", "-l", "{}", "+"}},
		{"vim", []string{"-c", "set ro", "{{.Name}}.yaml"}},
		{"/usr/local/bin/shellcheck", []string{"{{.Name}}"}},
		{"envsubst", []string{"{{.Name}}"}},
		{"timedatectl", []string{"{{.Name}}"}},
		{"stern", []string{"{{.Name}}"}},
		{"xdg-open", []string{"https://images.chainguard.dev/directory/image/{{.Repo}}/overview"}},
	}
	for _, c := range passed {
		p := plugin.Plugin{Name: "x", Kinds: []string{"tag"}, Command: c.cmd, Args: plugin.MustArgs(c.args...)}
		if err := p.Check(); err != nil {
			t.Errorf("%s %q: Check = %v, want it passed", c.cmd, c.args, err)
		}
	}
}

// kindsFor is the kind that gives a case's variables: an advisory for
// {{.Package}}, a tag for the others.
func kindsFor(args []string) []string {
	for _, a := range args {
		if strings.Contains(a, "{{.Package}}") {
			return []string{"advisory"}
		}
	}
	return []string{"tag"}
}
