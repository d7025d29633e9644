package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"canopy/api"
)

// TestVersionSaysWhatItWasBuiltFrom: a binary stamped by go build names
// its module version, commit, commit time and uncommitted changes; one
// built without the stamp says it is unknown and why, never a made-up
// value.
func TestVersionSaysWhatItWasBuiltFrom(t *testing.T) {
	stamped := build{release: "0.1.0", module: "v0.0.0-20261129204201-ee75d73b4f95+dirty",
		revision: "ee75d73b4f95884196e32617017a3fd75453d85c", time: "2026-11-29T20:42:01Z", modified: true, goVer: "go1.26.8 linux/amd64"}
	var out bytes.Buffer
	writeTable(&out, stamped.rows())
	for _, want := range []string{"version     0.1.0", "module      v0.0.0-20261129204201-ee75d73b4f95+dirty",
		"revision    ee75d73b4f95884196e32617017a3fd75453d85c (2026-11-29T20:42:01Z), with uncommitted changes", "built with  go1.26.8 linux/amd64"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stamped build: no %q in\n%s", want, out.String())
		}
	}
	out.Reset()
	writeTable(&out, build{release: "0.1.0", goVer: "go1.26.8 linux/amd64"}.rows())
	for _, want := range []string{"module      unknown (", "revision    unknown (built without version control information"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("unstamped build: no %q in\n%s", want, out.String())
		}
	}
}

// TestVersionCommandPrintsTheBuild: canopy --version starts with the
// release on a line of its own (what scripts read) and then the build.
func TestVersionCommandPrintsTheBuild(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := runVersion(context.Background(), nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	lines := strings.Split(stdout.String(), "\n")
	if lines[0] != "canopy "+api.Version || !strings.HasPrefix(lines[1], "module ") || !strings.HasPrefix(lines[2], "revision ") {
		t.Errorf("canopy --version printed\n%s", stdout.String())
	}
}
