package plugin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// program is a plugin's command as canopy matches it against runners:
// the name written in the config, and the names of the file it starts.
// A name says nothing of what a file is: editor is Debian's link to
// vim.basic, a /usr/local/bin/myperl may link to perl. So a name on PATH
// is looked up as exec does, its links followed, and every name met on
// the way is matched, not only the one written.
type program struct {
	written string   // the command as written, for errors
	path    string   // what exec starts: the command, found on PATH; "" when not found
	names   []string // programName of the written command, each link, and the file it ends at
}

// multiCall are programs that act as the applet their argv[0] names: a
// link /bin/ls → busybox runs ls, and so does a Snap or mise shim. As
// argv[0] is the command as written, which is matched anyway, the name
// they are linked to is not: ls stays ls on Alpine. Written as the
// command, they are matched as any program is (busybox sh -c …).
func multiCall() []string { return []string{"busybox", "toybox", "coreutils", "snap", "mise", "rtx"} }

// resolve is command as the runners see it now: looked up on PATH (a
// name) or taken as it is (a path), then its links followed. A command
// that is not found keeps only its written name: canopy config says it is
// missing, and it is resolved again when it runs (startable).
func resolve(command string) program {
	path, err := exec.LookPath(command)
	if err != nil {
		path = ""
	}
	return resolveAt(command, path)
}

// resolveAt is resolve with the path exec found already (cmd.Path).
func resolveAt(command, path string) program {
	p := program{written: command, path: path, names: []string{programName(command)}}
	if path == "" {
		return p
	}
	var linked []string
	at := path
	for range 40 { // as many links as Linux follows
		fi, err := os.Lstat(at)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			break
		}
		to, err := os.Readlink(at)
		if err != nil {
			break
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(at), to)
		}
		linked = append(linked, programName(to))
		at = to
	}
	// EvalSymlinks also follows links in the directories on the way.
	if real, err := filepath.EvalSymlinks(path); err == nil {
		linked = append(linked, programName(real))
	}
	if len(linked) > 0 && slices.ContainsFunc(multiCall(), func(m string) bool { return isNamed(linked[len(linked)-1], m) }) {
		linked = slices.DeleteFunc(linked, func(n string) bool {
			return slices.ContainsFunc(multiCall(), func(m string) bool { return isNamed(n, m) })
		})
	}
	for _, n := range linked {
		if !slices.Contains(p.names, n) {
			p.names = append(p.names, n)
		}
	}
	return p
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

// isNamed reports whether a program called name is runner n, or a build
// or a helper of it: n followed by a suffix that starts with a separator
// (. - _) or a digit, then anything — a version (python3.12, go1.22.0,
// perf_5.10), a platform (perl5.36-x86_64-linux-gnu), a flavour
// (vim.basic, busybox.static, python3-dbg, nc.openbsd) or a helper
// (ssh-agent, ssh-keygen, git-shell, docker-compose). Whatever follows is
// taken as part of n's family: a program that names itself after a
// runner is refused as that runner, and the few that run nothing
// (ssh-keyscan) are refused too, which costs a plugin little. A name that
// only begins with n, with no separator (shellcheck, envsubst, stern,
// nodemon), is another program: those that are runners are listed by
// name. For names of one or two letters (sh, r, nc, st, rc, go, …), which
// begin many unrelated names (st-flash, rc-service, go-task, nu_plugin_x,
// sha256sum), only a digit or a dot may start the suffix: sh.distrib,
// nc.openbsd, go1.22 and r2 match, st-flash does not.
func isNamed(name, n string) bool {
	rest, ok := strings.CutPrefix(name, n)
	switch {
	case !ok:
		return false
	case rest == "":
		return true
	case rest[0] >= '0' && rest[0] <= '9', rest[0] == '.':
		return true
	case rest[0] == '-', rest[0] == '_':
		return len(n) > 2
	}
	return false
}

// runsAt says where args[i] of prog would be run, for the error: the
// program ("tmux"), or with the subcommand or option that runs it ("docker
// run", "git -c"), and the name it was known by when that is not the
// written one ("editor (vim.basic) -c"); "" when it is passed as an
// argument. A batch file (.bat, .cmd) is run by cmd.exe, which reads its
// arguments as code.
func runsAt(prog program, args []Arg, i int) string {
	shown := prog.written[strings.LastIndexAny(prog.written, `/\`)+1:]
	for k, name := range prog.names {
		as := shown
		if k > 0 {
			as = shown + " (" + name + ")"
		}
		if strings.HasSuffix(name, ".bat") || strings.HasSuffix(name, ".cmd") {
			return as
		}
		for _, r := range runners() {
			if !slices.ContainsFunc(r.names, func(n string) bool { return isNamed(name, n) }) {
				continue
			}
			if r.after == nil && r.opts == nil {
				return as
			}
			for _, a := range args[:i] {
				if slices.Contains(r.after, a.text) {
					return as + " " + a.text
				}
			}
			for _, o := range r.opts {
				if i > 0 && args[i-1].text == o || valueOf(args[i].text, o) {
					return as + " " + o
				}
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

// reachesRunner is the first argument that would give a variable to a
// program that may run it, as prog is now: an *ArgError, nil for none.
func (p Plugin) reachesRunner(prog program) error {
	for i, a := range p.Args {
		vars := a.Vars()
		if len(vars) == 0 {
			continue
		}
		if at := runsAt(prog, p.Args, i); at != "" {
			return &ArgError{i, fmt.Errorf("{{.%s}} would reach %s, which may read it as code: canopy passes values only to programs that take them as arguments", vars[0], at)}
		}
	}
	return nil
}
