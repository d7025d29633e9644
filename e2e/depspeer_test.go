package e2e

// The dependencies' floor: what a program that links every package canopy
// links, but none of canopy's own, costs to start. Issue 39 asks canopy
// --version to start within 1.3x a minimal Bubble Tea program; this
// program shows how much of that the dependencies alone take.

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// depsPeerBinary builds a program whose main prints a line and that
// imports (for their initializers) every package canopy's binary is made
// of outside canopy: the standard library's and the modules', at the
// versions of canopy's go.mod (it is built as a package of this module,
// e2e/depspeer, which exists only in the build's overlay).
func depsPeerBinary(b *testing.B) string {
	b.Helper()
	root, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		b.Fatalf("go list -m: %v", err)
	}
	deps, err := exec.Command("go", "list", "-deps", "canopy").Output()
	if err != nil {
		b.Fatalf("go list -deps canopy: %v", err)
	}
	var src strings.Builder
	src.WriteString("package main\n\nimport (\n\t\"fmt\"\n")
	for _, p := range strings.Fields(string(deps)) {
		if importable(p) && p != "fmt" {
			src.WriteString("\t_ \"" + p + "\"\n")
		}
	}
	src.WriteString(")\n\nfunc main() { fmt.Println(\"depspeer 1\") }\n")
	dir := b.TempDir()
	file, overlay := filepath.Join(dir, "main.go"), filepath.Join(dir, "overlay.json")
	at := filepath.Join(strings.TrimSpace(string(root)), "e2e", "depspeer", "main.go")
	replace, _ := json.Marshal(map[string]map[string]string{"Replace": {at: file}})
	for name, data := range map[string][]byte{file: []byte(src.String()), overlay: replace} {
		if err := os.WriteFile(name, data, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "depspeer")
	if out, err := exec.Command("go", "build", "-overlay", overlay, "-trimpath", "-o", bin, "canopy/e2e/depspeer").CombinedOutput(); err != nil {
		b.Fatalf("go build depspeer: %v\n%s", err, out)
	}
	return bin
}

// importable is whether a program may import p: not canopy's own, not
// internal to another module or the standard library, not the runtime's.
func importable(p string) bool {
	return !strings.HasPrefix(p, "canopy") && p != "unsafe" && !strings.HasPrefix(p, "runtime") &&
		!strings.HasPrefix(p, "internal/") && !strings.Contains(p+"/", "/internal/") && !strings.HasPrefix(p, "vendor/")
}

// BenchmarkVersionFloor runs canopy --version, the minimal Bubble Tea
// program's and the dependencies' floor's (depspeer) in turn, as
// BenchmarkVersion does: cpu-x-peer-deps is how far the dependencies
// alone are from the peer, the most canopy's own code could close.
//
//	go test ./e2e -run '^$' -bench VersionFloor -benchtime 40x -count 2
func BenchmarkVersionFloor(b *testing.B) {
	runs := append(startupRuns(b, []string{"--version"}), &startupRun{name: "deps", bin: depsPeerBinary(b), args: []string{"--version"}})
	timeVersions(b, runs)
}

// timeVersions starts each run's --version in turn, b.N rounds, and
// reports their medians.
func timeVersions(b *testing.B, runs []*startupRun) {
	home := b.TempDir()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		for _, r := range rotated(runs, i) {
			var out bytes.Buffer
			cmd := exec.Command(r.bin, r.args...)
			cmd.Stdout, cmd.Stderr = &out, &out
			cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
			t0 := time.Now()
			if err := cmd.Run(); err != nil || !strings.Contains(out.String(), " ") {
				b.Fatalf("%s --version: %v\n%s", r.name, err, out.String())
			}
			r.add(time.Since(t0), cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
		}
	}
	reportStartup(b, runs, "ms-wall", true)
}
