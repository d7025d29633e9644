// Package plugintest builds the program plugin tests run (argdump: it
// records the arguments it gets) and reads what it recorded.
package plugintest

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Argdump builds argdump into a temporary directory and returns its path
// and the file it records to, set in the test's environment as ARGDUMP
// (so not for parallel tests: see Build).
func Argdump(t testing.TB) (bin, record string) {
	t.Helper()
	bin, record = Build(t)
	t.Setenv("ARGDUMP", record)
	return bin, record
}

// Build builds argdump and names the file it is to record to: the test
// gives it to the program as ARGDUMP.
func Build(t testing.TB) (bin, record string) {
	t.Helper()
	dir := t.TempDir()
	bin = filepath.Join(dir, "argdump")
	// By import path: a test runs in its package's directory, in the module.
	cmd := exec.Command("go", "build", "-o", bin, "canopy/plugin/plugintest/argdump")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building argdump: %v\n%s", err, out)
	}
	return bin, filepath.Join(dir, "record")
}

// Calls are the argument lists argdump recorded, one per run.
func Calls(t testing.TB, record string) [][]string {
	t.Helper()
	f, err := os.Open(record)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var args []string
		if err := json.Unmarshal(sc.Bytes(), &args); err != nil {
			t.Fatalf("argdump record %q: %v", sc.Text(), err)
		}
		out = append(out, args)
	}
	return out
}

// Editor builds fakeeditor, the editor readme tests run, into a
// temporary directory and returns its path.
func Editor(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "fakeeditor")
	cmd := exec.Command("go", "build", "-o", bin, "canopy/plugin/plugintest/fakeeditor")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building fakeeditor: %v\n%s", err, out)
	}
	return bin
}
