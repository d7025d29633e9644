package ui

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"canopy/api/emulator"
	"canopy/theme"
)

var update = flag.Bool("update", false, "rewrite the golden screens in testdata/golden")

// TestGoldenScreens renders the first screen and the repos table with
// each palette, and without color, and compares them byte for byte (escape
// sequences included, shown as ␛) with testdata/golden. After a deliberate
// change of look: go test ./ui -run Golden -update, then read the diff.
func TestGoldenScreens(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		opts theme.Options
	}{
		{"dark", theme.Options{Name: theme.Dark}},
		{"light", theme.Options{Name: theme.Light}},
		{"high-contrast", theme.Options{Name: theme.HighContrast, Dark: true}},
		{"no-color", theme.Options{Name: theme.Dark, NoColor: true}},
		{"icons", theme.Options{Name: theme.Dark, Icons: true, NoColor: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The emulator's clock too: seeded times are relative to it.
			srv, client := newEmulator(t, emulator.Options{Seed: 1, Now: func() time.Time { return fixedNow }})
			h := startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Host: "test", Identity: "admin (test)",
				Theme: tc.opts, Now: func() time.Time { return fixedNow }}, 100, 24)
			h.waitText("details: acme.example", "platform")
			h.moveTo("platform")
			h.waitFor("a still screen", func(string) bool { return !h.m.busy() })
			tree := h.m.View().Content
			h.keys(":", "r", "e", "p", "o", "s", "enter")
			h.waitText("63/63 loaded", "platform/") // the FOLDER column named
			h.keys("j", "space")
			h.waitText("1 marked")
			golden(t, tc.name, tree+"\n\n"+h.m.View().Content)
		})
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	got = strings.ReplaceAll(got, "\x1b", "␛")
	path := filepath.Join("testdata", "golden", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./ui -run Golden -update to create it)", err)
	}
	if line, w, g := firstDifference(string(want), got); line > 0 {
		t.Fatalf("%s differs from the golden screen at line %d:\nwant %q\ngot  %q\n(after a deliberate change: go test ./ui -run Golden -update)", name, line, w, g)
	}
}

// firstDifference is the first line (from 1) where two texts differ, with
// that line of each ("" past a text's end); 0 when they are the same.
func firstDifference(a, b string) (line int, inA, inB string) {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range max(len(al), len(bl)) {
		inA, inB = "", ""
		if i < len(al) {
			inA = al[i]
		}
		if i < len(bl) {
			inB = bl[i]
		}
		if inA != inB {
			return i + 1, inA, inB
		}
	}
	return 0, "", ""
}
