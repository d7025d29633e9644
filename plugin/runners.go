package plugin

import "strings"

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

// runners are the programs that may run an argument, by class. A
// program is matched by each name it is known by (program.go: as
// written, and the files PATH and links lead to), in any case, with or
// without .exe, from any directory (/usr/bin/tmux, TMUX.EXE), with a
// version, platform or flavour after a separator (python3.12,
// perl5.36-x86_64-linux-gnu, vim.basic; isNamed says which).
//
// A program is refused any variable when it has many ways, or unusual
// ones, to run what it is given (fzf's --preview, --bind, --listen…;
// aria2c's dozen --on-… hooks; a build tool's targets): listing them all
// would be a list to get wrong. Options and subcommands are told apart
// only for programs plugins use for what they are, with few ways to run
// a command (git, docker, kubectl, find, fd, rg, tar, rsync, scp, editors).
//
// Not runners, by choice: a user's own script (./check.sh) gets the value
// as $1, like any program; installers (pip install, npm install, apk add)
// may run the named package's install scripts, but fetching a package by
// name from the index the user set up is what such a plugin is for, as
// docker pull {{.Ref}} is; viewers and openers (xdg-open, less without
// +cmd) run no argument.
func runners() []runner {
	always := func(names string) runner { return runner{names: strings.Fields(names)} }
	vimOpts := []string{"-c", "--cmd", "+", "-S", "--remote-send", "--remote-expr"}
	emacsOpts := []string{"--eval", "-eval", "--execute", "-execute", "--funcall", "-funcall", "--load", "-load", "-e", "-f", "-l"}
	nanoOpts := []string{"-s", "--speller"}
	return []runner{
		// Shells, and multi-call binaries whose first argument may be one
		// (busybox sh, coreutils --coreutils-prog=env, mise exec).
		always("sh bash rbash zsh fish dash ash hush ksh mksh pdksh oksh loksh yash posh csh tcsh rc es xonsh elvish nu ion osh ysh" +
			" pwsh powershell cmd busybox toybox coreutils mise rtx"),
		// Interpreters: an argument is a program (-c, -e, --eval, a script;
		// sed's e and s///e run commands, m4's esyscmd, dc's !, java's
		// -XX:OnError=). pythonw is Windows' python without a console.
		always("python pythonw pypy ipython perl ruby irb jruby node nodejs deno bun php lua luajit tclsh wish expect awk gawk" +
			" mawk nawk sed gsed m4 dc r rscript julia guile racket sbcl clisp ghci runghc runhaskell scala groovy jshell java erl" +
			" escript elixir iex ocaml osascript wscript cscript mshta dotnet swift raku rakudo perl6 bb clojure clj kotlin dart" +
			" crystal ts-node tsx zx gjs qjs octave gforth csi"),
		// Wrappers: they run the rest of their line as a command, changing
		// how (env, time, limits, scheduling, tracing, locking, retrying,
		// the architecture setarch and its linux32, linux64… links report
		// (i386 and x86_64 are links to it too, found as setarch: listed,
		// they would take in every x86_64-linux-gnu-… tool),
		// the SELinux context, the user gosu and su-exec switch to, an init
		// for a container, timing, recording, watching files), or run what
		// an argument names (socat EXEC:, nc -e, wine, ccache, bpftrace -c,
		// xdotool exec). ssh-agent is ssh's (remote shells, below).
		always("env genv xargs gxargs exec eval command nohup nice ionice chrt taskset numactl prlimit cpulimit timeout gtimeout" +
			" stdbuf gstdbuf time setsid flock chronic ifne pee parallel sem watch entr unbuffer rlwrap script chpst daemonize" +
			" start-stop-daemon caffeinate faketime fakeroot fakechroot proot eatmydata nocache trickle torsocks torify" +
			" proxychains tsocks catchsegv strace ltrace gdb gdbserver lldb valgrind heaptrack uftrace bpftrace perf rr xvfb-run" +
			" dbus-run-session dbus-launch systemd-run systemd-inhibit systemd-cat socat nc ncat netcat wine ccache distcc wsl" +
			" setarch linux32 linux64 uname26 runcon tini dumb-init catatonit hyperfine watchexec nodemon asciinema" +
			" tsp xdotool"),
		// Privilege, sandboxes and namespaces: the rest is a command run as
		// another user, or in another root.
		always("sudo sudo-rs doas su pkexec runuser run0 sg runas gosu su-exec setuidgid envuidgid chroot schroot unshare nsenter" +
			" setpriv capsh cgexec firejail bwrap nsjail minijail0 sandbox-exec systemd-nspawn flatpak-spawn distrobox-enter" +
			" lxc-attach lxc-execute"),
		{names: []string{"ip"}, after: []string{"exec"}}, // ip netns exec <ns> <command>
		// Terminal multiplexers: a window's command goes to a shell (issue
		// 33: tmux new-session -d {{.Email}} ran an address as code).
		always("tmux tmate screen zellij byobu dtach abduco dvtm"),
		// Terminal emulators: -e, --, or the arguments left are a command.
		always("xterm uxterm rxvt urxvt rxvt-unicode gnome-terminal konsole alacritty kitty kitten wezterm foot footclient st" +
			" xfce4-terminal terminator tilix lxterminal mate-terminal qterminal sakura terminology kgx ptyxis ghostty contour" +
			" x-terminal-emulator wt"),
		// Remote shells: the remote side runs the rest through a shell.
		// ssh's helpers match ssh too: ssh-agent runs its arguments,
		// ssh-add and ssh-keygen load a PKCS#11 library an argument names.
		always("ssh slogin autossh mosh rsh rcmd remsh dbclient sshpass"),
		// Interactive pickers and hooks: fzf and skim run --preview, --bind
		// and --listen's commands, aria2c its --on-… hooks.
		always("fzf sk aria2c"),
		// Build and task runners: targets and VAR=value arguments reach
		// recipes' shell lines (make, just, go-task's task, which
		// taskwarrior's task shares), cmake runs scripts (-P) and commands
		// (-E), build files run what they say (mvn -Dexec.executable=,
		// exec:exec, gradle and sbt tasks, rake, bundle exec), and cargo
		// runs cargo-<word> for a word it does not know.
		always("make gmake bmake cmake just task go-task mage ninja meson scons bazel bazelisk cargo mvn mvnw mvnd gradle gradlew sbt" +
			" ant bundle bundler rake"),
		// Package runners: the argument names a program fetched and run
		// now. yarn and pnpm run a word they do not know as a package's
		// script or binary (yarn {{.Name}}), so they are refused whole.
		always("npx pnpx bunx uvx nix-shell yarn yarnpkg pnpm"),
		{names: []string{"npm"}, after: []string{"exec", "x", "run", "run-script", "rum", "urn", "explore", "init", "innit",
			"create", "config", "set"}, opts: []string{"--script-shell"}},
		{names: []string{"uv"}, after: []string{"run", "tool"}},
		{names: []string{"pipx", "poetry", "pdm", "hatch", "conda", "mamba", "micromamba", "volta"}, after: []string{"run"}},
		{names: []string{"pixi"}, after: []string{"run", "exec"}},
		{names: []string{"asdf"}, after: []string{"exec"}},
		{names: []string{"snap"}, after: []string{"run"}},
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
		{names: []string{"apptainer", "singularity"}, after: []string{"exec", "run", "shell", "instance"}},
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
		// find runs what follows -exec, fd what follows -x or -X; the
		// patterns and paths before are not run. rg runs --pre's program
		// on each file, and --hostname-bin's.
		{names: []string{"find", "gfind"}, after: []string{"-exec", "-execdir", "-ok", "-okdir"}},
		{names: []string{"fd", "fdfind"}, after: []string{"-x", "--exec", "-X", "--exec-batch"},
			opts: []string{"-x", "--exec", "-X", "--exec-batch"}},
		{names: []string{"rg"}, opts: []string{"--pre", "--hostname-bin"}},
		// Copying over a remote shell: -e names it, -o ProxyCommand= and
		// -S name the program; a path is a path.
		{names: []string{"rsync"}, opts: []string{"-e", "--rsh", "--rsync-path", "-M", "--remote-option"}},
		{names: []string{"scp", "sftp"}, opts: []string{"-o", "-S", "-D", "-F"}},
		// Options that name a program: a compressor or a pipe for tar,
		// zip's test command, man's pager and browser, wget's askpass,
		// gpg's photo viewer, less's first command (+!cmd runs a shell).
		{names: []string{"tar", "gtar", "bsdtar"}, opts: []string{"-I", "--use-compress-program", "--to-command", "--checkpoint-action",
			"--info-script", "--new-volume-script", "-F", "--rsh-command", "--rmt-command"}},
		{names: []string{"zip"}, opts: []string{"-TT", "--unzip-command"}},
		{names: []string{"man"}, opts: []string{"-P", "--pager", "-H", "--html"}},
		{names: []string{"wget"}, opts: []string{"-e", "--execute", "--use-askpass"}},
		{names: []string{"gpg"}, opts: []string{"--photo-viewer", "--exec-path"}},
		{names: []string{"less"}, opts: []string{"+"}},
		// Editors open a value as a file; their commands come from -c,
		// --cmd, +cmd, -S (vim and its r-, e-, g- and -x builds) or --eval,
		// -f and -l (emacs), and nano's speller is a program. editor and
		// sensible-editor run whichever the system or $EDITOR names, so
		// every editor's options are refused for them.
		{names: []string{"vim", "vi", "nvim", "gvim", "view", "vimdiff", "gvimdiff", "ex", "rvim", "rview", "rgvim", "rgview",
			"evim", "eview", "gview", "vimx"}, opts: vimOpts},
		{names: []string{"emacs", "emacsclient"}, opts: emacsOpts},
		{names: []string{"nano", "rnano"}, opts: nanoOpts},
		{names: []string{"editor", "sensible-editor", "select-editor"}, opts: append(append(append([]string{}, vimOpts...), emacsOpts...), nanoOpts...)},
	}
}
