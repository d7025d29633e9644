package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"canopy/api/emulator"
	"canopy/theme"
)

// The screens that cut their own lines (views.Fitted: the shell then does
// not measure each line again) keep that promise over the hostile data,
// wide and long text included, at every width: the explorer side by side
// and stacked, and a table.
func TestFittedScreensFitEveryWidth(t *testing.T) {
	t.Parallel()
	srv, client := newEmulator(t, emulator.Options{Seed: 1, Hostile: true})
	for _, w := range []int{40, 79, 80, 117, 200} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			h := startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Host: "test", Identity: "admin (test)",
				Theme: theme.Options{Name: theme.Dark}, Now: func() time.Time { return fixedNow }}, w, 70)
			h.waitText("hostile")
			h.inert("organization", w)
			// Down to a row, by its detail's title (moveTo reads the
			// side-by-side panes; narrow screens stack them).
			to := func(name string) {
				for range 40 {
					if strings.Contains(h.screen(), "details: "+name) {
						return
					}
					h.keys("j")
				}
				t.Fatalf("never reached %s:\n%s", name, h.screen())
			}
			to("hostile")
			h.keys("l")
			h.waitText("漢字-🐍-wide")
			h.inert("hostile subfolders", w)
			to("漢字-🐍-wide")
			h.inert("a wide folder", w)
			h.keys(":", "r", "e", "p", "o", "s", "enter")
			h.waitText("loaded")
			h.inert(":repos", w)
		})
	}
}
