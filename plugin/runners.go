package plugin

import (
	"slices"
	"strings"
)

// A runner is a program that may run one of its arguments as a command
// line, or as the name of a program to run: a server value there would
// choose what runs, and canopy lets no value do that. Shapes (vars.go)
// already keep a value to one word with no shell marks, but one word can
// still be a program's name (reboot) or a config assignment
// (core.pager=reboot), so a variable never reaches a runner.
//
// With neither after nor opts, any argument may run: such a program is
// refused any variable. Programs plugins use for what they are (git,
// docker, kubectl, find, an editor) are refused a variable only where they
// would run it: in any argument after one of after (a subcommand that
// runs a command: docker run, git submodule foreach, find -exec), or as
// the value of one of opts (the next argument, or glued: -oX, --exec=X,
// +X).
type runner struct {
	names       []string
	after, opts []string
}

// runners are the programs that may run an argument, by class. A name
// matches with a version (python3.12, bash-5.2), in any case, with or
// without .exe, from any directory (/usr/bin/tmux, TMUX.EXE).
//
// Not runners, by choice: a user's own script (./check.sh) gets the value
// as $1, like any program; installers (pip install, npm install, apk add)
// may run the named package's install scripts, but fetching a package by
// name from the index the user set up is what such a plugin is for, as
// docker pull {{.Ref}} is; viewers and openers (less, xdg-open) run no
// argument.
func runners() []runner {
	always := func(names string) runner { return runner{names: strings.Fields(names)} }
	return []runner{
		// Shells, and multi-call binaries whose first argument may be one.
		always("sh bash rbash zsh fish dash ash hush ksh mksh pdksh oksh loksh yash posh csh tcsh rc es xonsh elvish nu ion osh ysh" +
			" pwsh powershell cmd busybox toybox"),
		// Interpreters: an argument is a program (-c, -e, --eval, a script;
		// sed's e and s///e run commands, m4's esyscmd, dc's !, java's
		// -XX:OnError=).
		always("python pypy ipython perl ruby irb jruby node nodejs deno bun php lua luajit tclsh wish expect awk gawk mawk nawk" +
			" sed gsed m4 dc r rscript julia guile racket sbcl clisp ghci runghc runhaskell scala groovy jshell java erl escript" +
			" elixir iex ocaml osascript wscript cscript mshta dotnet swift"),
		// Wrappers: they run the rest of their line as a command, changing
		// how (env, time, limits, scheduling, tracing, locking, retrying),
		// or run what an argument names (socat EXEC:, nc -e, wine, ccache).
		always("env genv xargs gxargs exec eval command nohup nice ionice chrt taskset numactl prlimit cpulimit timeout gtimeout" +
			" stdbuf gstdbuf time setsid flock chronic ifne pee parallel sem watch entr unbuffer rlwrap script chpst daemonize" +
			" start-stop-daemon caffeinate faketime fakeroot fakechroot proot eatmydata nocache trickle torsocks torify" +
			" proxychains tsocks catchsegv strace ltrace gdb lldb valgrind perf rr xvfb-run dbus-run-session dbus-launch" +
			" systemd-run systemd-inhibit systemd-cat socat nc ncat netcat wine ccache distcc wsl"),
		// Privilege, sandboxes and namespaces: the rest is a command run as
		// another user, or in another root.
		always("sudo sudo-rs doas su pkexec runuser run0 sg runas chroot schroot unshare nsenter setpriv capsh firejail bwrap" +
			" systemd-nspawn flatpak-spawn distrobox-enter"),
		{names: []string{"ip"}, after: []string{"exec"}}, // ip netns exec <ns> <command>
		// Terminal multiplexers: a window's command goes to a shell (issue
		// 33: tmux new-session -d {{.Email}} ran an address as code).
		always("tmux tmate screen zellij byobu dtach abduco dvtm"),
		// Terminal emulators: -e, --, or the arguments left are a command.
		always("xterm uxterm rxvt urxvt rxvt-unicode gnome-terminal konsole alacritty kitty kitten wezterm foot footclient st" +
			" xfce4-terminal terminator tilix lxterminal mate-terminal qterminal sakura terminology kgx ptyxis ghostty contour" +
			" x-terminal-emulator wt"),
		// Remote shells: the remote side runs the rest through a shell.
		always("ssh slogin autossh mosh rsh rcmd remsh dbclient sshpass"),
		// Build and task runners: targets and VAR=value arguments reach
		// recipes' shell lines (make, just, go-task's task, which
		// taskwarrior's task shares), cmake runs scripts (-P) and commands
		// (-E).
		always("make gmake bmake cmake just task"),
		// Package runners: the argument names a program fetched and run now.
		always("npx pnpx bunx uvx nix-shell"),
		{names: []string{"npm"}, after: []string{"exec", "x", "run", "run-script", "explore", "init", "create"}},
		{names: []string{"pnpm", "yarn"}, after: []string{"exec", "dlx", "run", "create"}},
		{names: []string{"uv"}, after: []string{"run", "tool"}},
		{names: []string{"pipx", "poetry", "pdm", "hatch", "conda", "mamba", "micromamba"}, after: []string{"run"}},
		{names: []string{"pixi"}, after: []string{"run", "exec"}},
		{names: []string{"nix"}, after: []string{"run", "shell", "develop"}},
		{names: []string{"direnv"}, after: []string{"exec"}},
		{names: []string{"go"}, after: []string{"run", "generate", "tool"}, opts: []string{"-exec", "-toolexec", "-vettool"}},
		// Containers: run, exec and create give the container a command
		// (and run a value's image), build runs a context's Dockerfile (a
		// github.com/… value is fetched as one); pull, inspect, scout or
		// imagetools do not run the image. The words are matched wherever
		// they stand: docker network create {{.Name}} is refused too.
		{names: []string{"docker", "podman", "nerdctl", "finch", "buildah"}, after: []string{"run", "exec", "create", "build", "bud", "debug"}},
		{names: []string{"kubectl", "oc"}, after: []string{"exec", "run", "debug", "--"}},
		{names: []string{"crictl", "ctr"}, after: []string{"run", "exec"}},
		{names: []string{"lxc", "incus"}, after: []string{"exec"}},
		{names: []string{"flatpak", "toolbox"}, after: []string{"run"}},
		{names: []string{"distrobox"}, after: []string{"enter"}},
		{names: []string{"machinectl"}, after: []string{"shell"}},
		// Git runs a command from its configuration (-c core.pager=,
		// core.sshCommand, alias.x=!…, written by git config), from the
		// transport's options, from rebase -x, difftool -x, bisect run
		// and submodule foreach; a value as a revision, a path or a URL
		// is not run (ext:: URLs are refused by git unless allowed).
		{names: []string{"git"}, after: []string{"foreach", "run", "filter-branch", "config"},
			opts: []string{"-c", "--config-env", "--upload-pack", "--receive-pack", "-u", "--exec", "-x", "--extcmd", "--exec-path"}},
		// find runs what follows -exec; the tests before it are names.
		{names: []string{"find", "gfind"}, after: []string{"-exec", "-execdir", "-ok", "-okdir"}},
		// Copying over a remote shell: -e names it, -o ProxyCommand= and
		// -S name the program; a path is a path.
		{names: []string{"rsync"}, opts: []string{"-e", "--rsh", "--rsync-path", "-M", "--remote-option"}},
		{names: []string{"scp", "sftp"}, opts: []string{"-o", "-S", "-D", "-F"}},
		// Options that name a program: a compressor or a pipe for tar,
		// zip's test command, man's pager and browser, wget's askpass,
		// gpg's photo viewer.
		{names: []string{"tar", "gtar", "bsdtar"}, opts: []string{"-I", "--use-compress-program", "--to-command", "--checkpoint-action",
			"--info-script", "--new-volume-script", "-F", "--rsh-command", "--rmt-command"}},
		{names: []string{"zip"}, opts: []string{"-TT", "--unzip-command"}},
		{names: []string{"man"}, opts: []string{"-P", "--pager", "-H", "--html"}},
		{names: []string{"wget"}, opts: []string{"-e", "--execute", "--use-askpass"}},
		{names: []string{"gpg"}, opts: []string{"--photo-viewer", "--exec-path"}},
		// Editors open a value as a file; their commands come from -c,
		// --cmd, +cmd, -S (vim) or --eval, -f and -l (emacs).
		{names: []string{"vim", "vi", "nvim", "gvim", "view", "vimdiff", "ex"},
			opts: []string{"-c", "--cmd", "+", "-S", "--remote-send", "--remote-expr"}},
		{names: []string{"emacs", "emacsclient"}, opts: []string{"--eval", "-eval", "--execute", "-execute", "--funcall",
			"-funcall", "--load", "-load", "-e", "-f", "-l"}},
	}
}

// programName is how runners names a command: its base name (either
// separator), in lower case, without .exe or .com.
func programName(command string) string {
	name := strings.ToLower(command[strings.LastIndexAny(command, `/\`)+1:])
	for _, ext := range []string{".exe", ".com"} {
		name = strings.TrimSuffix(name, ext)
	}
	return name
}

// isNamed reports whether a program's name is n, or n with a version:
// python3.12, perl5.36, bash-5.2, go1.22.0.
func isNamed(name, n string) bool {
	rest, ok := strings.CutPrefix(name, n)
	if !ok {
		return false
	}
	if v, ok := strings.CutPrefix(rest, "-"); ok {
		rest = v
		if v == "" {
			return false
		}
	}
	return strings.Trim(rest, "0123456789.") == ""
}

// runsAt says where args[i] of command would be run, for the error: the
// program ("tmux"), or with the subcommand or option that runs it ("docker
// run", "git -c"); "" when it is passed as an argument. A batch file
// (.bat, .cmd) is run by cmd.exe, which reads its arguments as code.
func runsAt(command string, args []Arg, i int) string {
	name := programName(command)
	shown := command[strings.LastIndexAny(command, `/\`)+1:]
	if strings.HasSuffix(name, ".bat") || strings.HasSuffix(name, ".cmd") {
		return shown
	}
	for _, r := range runners() {
		if !slices.ContainsFunc(r.names, func(n string) bool { return isNamed(name, n) }) {
			continue
		}
		if r.after == nil && r.opts == nil {
			return shown
		}
		for _, a := range args[:i] {
			if slices.Contains(r.after, a.text) {
				return shown + " " + a.text
			}
		}
		for _, o := range r.opts {
			if i > 0 && args[i-1].text == o || valueOf(args[i].text, o) {
				return shown + " " + o
			}
		}
	}
	return ""
}

// valueOf reports whether arg is option o with its value glued on: --o=…
// for a long option, -o… or +… for a short one.
func valueOf(arg, o string) bool {
	if strings.HasPrefix(o, "--") {
		return strings.HasPrefix(arg, o+"=")
	}
	return strings.HasPrefix(arg, o) && len(arg) > len(o)
}
