package plugin_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
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

// TestRunnersByFamilyAndAlias: a runner's builds, flavours and helpers
// (a suffix after . - _ or a digit) are refused as the runner, and so are
// runners that plugins run programs through without a shell (issue 33,
// acceptance: perl5.36-x86_64-linux-gnu -e {{.Name}} and
// ssh-agent {{.Name}} ran a folder's name).
func TestRunnersByFamilyAndAlias(t *testing.T) {
	emptyPath(t)
	for _, c := range []struct {
		cmd  string
		args []string
	}{
		{"perl5.36-x86_64-linux-gnu", []string{"-e", "{{.Name}}"}},
		{"ssh-agent", []string{"{{.Name}}"}},
		{"vim.basic", []string{"-c", "{{.Name}}"}},
		{"rvim", []string{"-c", "{{.Name}}"}},
		{"editor", []string{"-c", "{{.Name}}"}},
		{"sensible-editor", []string{"--eval={{.Name}}"}},
		{"nvim-qt", []string{"+{{.Name}}"}},
		{"nano", []string{"--speller={{.Name}}"}},
		{"less", []string{"+{{.Name}}"}},
		{"git-shell", []string{"-c", "{{.Name}}"}},
		{"docker-compose", []string{"run", "app", "{{.Name}}"}},
		{"fd", []string{"-e", "yaml", "-x", "{{.Name}}"}},
		{"fd", []string{"--exec", "cat", "{{.Name}}"}},
		{"fdfind", []string{"-X", "{{.Name}}"}},
		{"fd", []string{"--exec-batch={{.Name}}"}},
		{"rg", []string{"--pre", "{{.Name}}", "x"}},
		{"rg", []string{"--pre={{.Name}}", "x"}},
		{"mvn", []string{"exec:exec", "-Dexec.executable={{.Name}}"}},
		{"cargo", []string{"run", "{{.Name}}"}},
		{"bpftrace", []string{"-c", "{{.Name}}"}},
		{"asciinema", []string{"rec", "--command={{.Name}}"}},
		{"fzf", []string{"--preview={{.Name}}"}},
		{"aria2c", []string{"--on-download-complete={{.Name}}", "x"}},
		{"bundle", []string{"exec", "{{.Name}}"}},
		{"nodemon", []string{"--exec", "{{.Name}}"}},
	} {
		p := plugin.Plugin{Name: "x", Kinds: []string{"folder"}, Command: c.cmd, Args: plugin.MustArgs(c.args...)}
		if err := p.Check(); err == nil || !strings.Contains(err.Error(), "{{.Name}} would reach "+c.cmd) {
			t.Errorf("%s %q: Check = %v, want {{.Name}} refused", c.cmd, c.args, err)
		}
	}
	for _, cmd := range []string{
		// builds and flavours of listed runners
		"busybox.static", "python3-dbg", "pythonw", "perl5.36.0", "tclsh8.6", "gdb-multiarch", "perf_5.10", "tini-static",
		"valgrind.bin", "fakeroot-tcp", "wine64", "PYTHON3.12.EXE",
		// runners that were not listed
		"setarch", "linux32", "linux64", "runcon", "gosu", "su-exec", "tini", "dumb-init", "hyperfine", "watchexec",
		"nodemon", "asciinema", "bpftrace", "chronic", "cargo", "mvn", "mvnw", "gradle", "gradlew", "sbt", "ant", "bundle",
		"rake", "yarn", "pnpm", "go-task", "fzf", "aria2c", "xdotool",
		// one- and two-letter names take a digit or a dot
		"sh.distrib", "nc.openbsd", "r2", "sh5",
	} {
		p := plugin.Plugin{Name: "x", Kinds: []string{"folder"}, Command: cmd, Args: plugin.MustArgs("{{.Name}}")}
		if err := p.Check(); err == nil || !strings.Contains(err.Error(), "would reach") {
			t.Errorf("%s: Check = %v, want {{.Name}} refused", cmd, err)
		}
	}
	// A name that only begins with a runner's is another program; a one-
	// or two-letter runner's name followed by - or _ begins many.
	for _, cmd := range []string{"st-flash", "rc-service", "nc-config", "nu_plugin_query", "es-check", "dc-tool", "sg-lint",
		"sha256sum", "ncdu", "gofmt", "shellcheck", "envsubst", "stern", "timedatectl", "perldoc", "vimtutor", "sshfs",
		"fdupes", "rgb2hex", "skopeo", "editorconfig-checker", "makeinfo", "lessecho", "x86_64-linux-gnu-readelf"} {
		p := plugin.Plugin{Name: "x", Kinds: []string{"folder"}, Command: cmd, Args: plugin.MustArgs("{{.Name}}")}
		if err := p.Check(); err != nil {
			t.Errorf("%s: Check = %v, want it passed", cmd, err)
		}
	}
}

// emptyPath sets PATH to an empty directory, so that a command is
// matched by its written name alone, whatever this machine has.
func emptyPath(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
}

// fakeProgram writes an executable file at path that exits 0 after
// touching ran (it never should, where the test uses it).
func fakeProgram(t *testing.T, path, ran string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n: > '"+ran+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// link makes a symbolic link at path to target.
func link(t *testing.T, target, path string) {
	t.Helper()
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}

// TestRunnersBehindLinks: a command is matched by the names of the files
// PATH and links lead it to, not only by the name written: Debian's
// editor → /etc/alternatives/editor → vim.basic, a myperl linked to perl.
// A multi-call binary runs as the name it is called by, so ls linked to
// busybox stays ls.
func TestRunnersBehindLinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links")
	}
	dir, bin, alt := t.TempDir(), t.TempDir(), t.TempDir()
	ran := filepath.Join(dir, "ran")
	fakeProgram(t, filepath.Join(bin, "vim.basic"), ran)
	for _, name := range []string{"editor", "edit"} { // edit is listed nowhere
		link(t, filepath.Join(bin, "vim.basic"), filepath.Join(alt, name))
		link(t, filepath.Join(alt, name), filepath.Join(bin, name))
	}
	fakeProgram(t, filepath.Join(bin, "perl5.36-x86_64-linux-gnu"), ran)
	link(t, "perl5.36-x86_64-linux-gnu", filepath.Join(bin, "myperl"))
	fakeProgram(t, filepath.Join(bin, "busybox"), ran)
	link(t, "busybox", filepath.Join(bin, "ls"))
	link(t, "busybox", filepath.Join(bin, "sh"))
	t.Setenv("PATH", bin)
	for _, c := range []struct {
		cmd  string
		args []string
		says string
	}{
		{"editor", []string{"-c", "{{.Name}}"}, "editor -c"},
		{"edit", []string{"-c", "{{.Name}}"}, "edit (vim.basic) -c"},
		{"myperl", []string{"-e", "{{.Name}}"}, "myperl (perl5.36-x86_64-linux-gnu)"},
		{filepath.Join(bin, "myperl"), []string{"{{.Name}}"}, "myperl (perl5.36-x86_64-linux-gnu)"},
		{"sh", []string{"{{.Name}}"}, "sh"},
	} {
		p := plugin.Plugin{Name: "x", Kinds: []string{"folder"}, Command: c.cmd, Args: plugin.MustArgs(c.args...)}
		if err := p.Check(); err == nil || !strings.Contains(err.Error(), "would reach "+c.says+",") {
			t.Errorf("%s %q: Check = %v, want it to say it would reach %s", c.cmd, c.args, err, c.says)
		}
	}
	for _, c := range [][]string{{"editor", "{{.Name}}.yaml"}, {"edit", "{{.Name}}.yaml"}, {"ls", "-l", "{{.Name}}"}, {"no-such-tool", "{{.Name}}"}} {
		p := plugin.Plugin{Name: "x", Kinds: []string{"folder"}, Command: c[0], Args: plugin.MustArgs(c[1:]...)}
		if err := p.Check(); err != nil {
			t.Errorf("%q: Check = %v, want it passed", c, err)
		}
	}
}

// TestRunnersCheckedAgainWhenRun: the program a name finds may change
// after the config is read (PATH, an alternative switched). Expand
// resolves it again, and so does each job's start, for the very file
// exec would run: a job expanded when tool was harmless does not start
// once tool is a link to a shell.
func TestRunnersCheckedAgainWhenRun(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links, sh scripts")
	}
	safe, now, dir := t.TempDir(), t.TempDir(), t.TempDir()
	ran := filepath.Join(dir, "ran")
	fakeProgram(t, filepath.Join(safe, "tool"), filepath.Join(dir, "ok"))
	fakeProgram(t, filepath.Join(now, "bash"), ran)
	link(t, "bash", filepath.Join(now, "tool"))
	t.Setenv("PATH", safe)
	p := plugin.Plugin{Name: "x", Kinds: []string{"folder"}, Command: "tool", Args: plugin.MustArgs("{{.Name}}")}
	if err := p.Check(); err != nil {
		t.Fatalf("Check = %v, want tool passed", err)
	}
	job, err := p.Job("a", plugin.Vars{"Name": "whoami"})
	if err != nil {
		t.Fatal(err)
	}
	jobs := []plugin.Job{job}
	t.Setenv("PATH", now)
	if _, err := p.Expand(plugin.Vars{"Name": "whoami"}); err == nil || !strings.Contains(err.Error(), "would reach tool (bash)") {
		t.Errorf("Expand with tool a link to bash = %v, want it refused", err)
	}
	b := plugin.StartBatch(t.Context(), jobs)
	var ends []plugin.Status
	for ev, ok := b.Next(t.Context()); ok && !ev.Done; ev, ok = b.Next(t.Context()) {
		if ev.End {
			ends = append(ends, ev.Status)
		}
	}
	out, err := os.CreateTemp(dir, "out")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	ends = append(ends, plugin.RunForeground(t.Context(), "x", jobs, nil, out, out)...)
	for _, st := range ends {
		if st.OK() || !strings.Contains(st.String(), "did not start") || !strings.Contains(st.String(), "would reach tool (bash)") {
			t.Errorf("a job whose tool became bash: %v, want it not started", st)
		}
	}
	if _, err := os.Stat(ran); err == nil || len(ends) != 2 {
		t.Errorf("bash ran (%v), or %d runs, want 2 refused", err, len(ends))
	}
	t.Setenv("PATH", safe)
	b = plugin.StartBatch(t.Context(), jobs)
	for ev, ok := b.Next(t.Context()); ok && !ev.Done; ev, ok = b.Next(t.Context()) {
		if ev.End && !ev.Status.OK() {
			t.Errorf("the job with tool harmless again: %v, want it run", ev.Status)
		}
	}
}
