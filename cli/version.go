package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"canopy/api"
	"canopy/cli/exit"
)

// build is what a user can report of the binary they run: canopy's
// release, and what the Go toolchain recorded when it built it (the
// module's version, the commit it was built from and whether the tree
// held changes). A binary built without that record (go run, a test
// binary, -buildvcs=false) says so rather than guess.
type build struct {
	release  string // api.Version, canopy's own
	module   string // the main module's version as go build stamped it; "" when unknown
	revision string // the VCS commit; "" when unknown
	time     string // the commit's time, RFC 3339; "" when unknown
	modified bool   // the tree held uncommitted changes
	goVer    string // the toolchain and platform
}

// readBuild reads the build information the binary carries.
func readBuild() build {
	b := build{release: api.Version, goVer: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		b.module = v
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.revision = s.Value
		case "vcs.time":
			b.time = s.Value
		case "vcs.modified":
			b.modified = s.Value == "true"
		}
	}
	return b
}

// rows are the lines `canopy --version` and `canopy info` print.
func (b build) rows() [][]string {
	module := b.module
	if module == "" {
		module = "unknown (built without a module version: go run, or outside a tagged checkout)"
	}
	revision := "unknown (built without version control information: go run, or -buildvcs=false)"
	if b.revision != "" {
		revision = b.revision
		if b.time != "" {
			revision += " (" + b.time + ")"
		}
		if b.modified {
			revision += ", with uncommitted changes"
		}
	}
	return [][]string{
		{"version", b.release},
		{"module", module},
		{"revision", revision},
		{"built with", b.goVer},
	}
}

// runVersion prints the version and what the binary was built from; -h
// says so.
func runVersion(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("canopy version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: canopy version\n\nPrint canopy's version, the module version, and the commit and time it was built from (also canopy --version).\n")
	}
	if code, done := parse(fs, args, stdout); done {
		return code
	}
	b := readBuild()
	fmt.Fprintln(stdout, "canopy", b.release)
	writeTable(stdout, b.rows()[1:])
	return exit.OK
}
