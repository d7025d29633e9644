package keymap

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestManualCoversEveryAction: every action is explained by one row of
// the README's table of keys, and by one only.
func TestManualCoversEveryAction(t *testing.T) {
	rows := map[Action]int{}
	for _, r := range Manual() {
		for _, a := range r.Actions {
			rows[a]++
		}
	}
	for _, d := range defaults() {
		if rows[d.Action] != 1 {
			t.Errorf("%s is in %d rows of the manual, want 1", d.Action, rows[d.Action])
		}
		delete(rows, d.Action)
	}
	for a := range rows {
		t.Errorf("the manual explains %q, which is no action", a)
	}
}

// Where the README's table of keys starts and ends.
const (
	manualBegin = "<!-- keys: made from keymap/manual.go; CANOPY_UPDATE_README=1 go test ./keymap rewrites it -->\n"
	manualEnd   = "<!-- end of keys -->\n"
)

// TestREADMEKeysAreTheKeymaps: the README's table of keys is the one the
// declarations make (the keys canopy has, the rows the manual has); with
// CANOPY_UPDATE_README=1 the test writes it there instead.
func TestREADMEKeysAreTheKeymaps(t *testing.T) {
	path := filepath.Join("..", "README.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("no README here: %v", err)
	}
	readme := string(b)
	i, j := strings.Index(readme, manualBegin), strings.Index(readme, manualEnd)
	if i < 0 || j < i {
		t.Fatalf("the README has no table of keys between %q and %q", manualBegin, manualEnd)
	}
	have, want := readme[i+len(manualBegin):j], Default().ManualTable()
	if have == want {
		return
	}
	if os.Getenv("CANOPY_UPDATE_README") == "1" {
		if err := os.WriteFile(path, []byte(readme[:i+len(manualBegin)]+want+readme[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	hl, wl := strings.Split(have, "\n"), strings.Split(want, "\n")
	for n := range min(len(hl), len(wl)) {
		if hl[n] != wl[n] {
			t.Fatalf("the README's keys differ from the keymap's at row %d (CANOPY_UPDATE_README=1 go test ./keymap rewrites them):\nREADME: %.200s\nkeymap: %.200s", n, hl[n], wl[n])
		}
	}
	t.Fatalf("the README has %d rows of keys, the keymap %d (CANOPY_UPDATE_README=1 go test ./keymap rewrites them)", len(hl), len(wl))
}
