package runlog

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"canopy/keymap"
	"canopy/theme"
	"canopy/views"
)

// benchBytes is how much output each run of BenchmarkOutput feeds: what a
// background plugin printing 100 MB sends.
const benchBytes = 100 << 20

// BenchmarkOutput feeds 100 MB of a plugin's output to a run log in 32 KiB
// reads (what a pipe hands over), as lines of 85 bytes and as one line
// without newlines: taking the output must cost about the same per byte
// however it is cut (issue 33: short lines were quadratic in the read).
func BenchmarkOutput(b *testing.B) {
	for _, c := range []struct {
		name string
		unit string
	}{
		{"short-lines", strings.Repeat("w", 84) + "\n"},
		{"no-newlines", strings.Repeat("w", 85)},
	} {
		b.Run(c.name, func(b *testing.B) {
			chunk := bytes.Repeat([]byte(c.unit), (32<<10)/len(c.unit))
			common := views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}
			b.SetBytes(benchBytes)
			b.ReportAllocs()
			for b.Loop() {
				m := New(context.Background(), common, Config{Title: "bench"})
				m.SetSize(120, 40)
				for fed := 0; fed < benchBytes; fed += len(chunk) {
					m.output(chunk)
				}
				m.flush()
			}
		})
	}
}
