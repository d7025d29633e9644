// Package text formats values for the screen: cells fitted to a width,
// counts with thousands separators, human times and sizes. It pads and cuts
// by display width (wide and combining characters keep columns aligned) and
// never allocates more than the result on the hot path of a frame.
package text

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// Fit cuts s to at most w cells (marking a cut with tail) and pads it with
// spaces to exactly w cells; right aligns it to the right.
func Fit(s string, w int, right bool, tail string) string {
	if w <= 0 {
		return ""
	}
	sw := ansi.StringWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, tail)
		sw = ansi.StringWidth(s)
	}
	if sw == w {
		return s
	}
	pad := strings.Repeat(" ", w-sw)
	if right {
		return pad + s
	}
	return s + pad
}

// Cut cuts s to at most w cells without padding.
func Cut(s string, w int, tail string) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, tail)
}

// Width is the display width of s.
func Width(s string) int { return ansi.StringWidth(s) }

// Count renders n with thousands separators: 104231 → "104,231".
func Count(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + Count(-n)
	}
	if len(s) <= 3 {
		return s
	}
	var b strings.Builder
	pre := len(s) % 3
	if pre > 0 {
		b.WriteString(s[:pre])
	}
	for i := pre; i < len(s); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}

// Ago is a relative time: "just now", "5 minutes ago", "3 days ago",
// "in 2 hours"; "" for the zero time.
func Ago(t, now time.Time) string {
	if t.IsZero() {
		return ""
	}
	d := now.Sub(t)
	future := d < 0
	if future {
		d = -d
	}
	var s string
	switch {
	case d < 45*time.Second:
		return "just now"
	case d < 90*time.Second:
		s = "1 minute"
	case d < time.Hour:
		s = plural(int(d.Round(time.Minute)/time.Minute), "minute")
	case d < 36*time.Hour:
		s = plural(int(d.Round(time.Hour)/time.Hour), "hour")
	case d < 60*24*time.Hour:
		s = plural(int(d.Round(24*time.Hour)/(24*time.Hour)), "day")
	case d < 365*24*time.Hour:
		s = plural(int(d/(30*24*time.Hour)), "month")
	default:
		s = plural(int(d/(365*24*time.Hour)), "year")
	}
	if future {
		return "in " + s
	}
	return s + " ago"
}

// Age is the short form of Ago for table cells: "5m", "3h", "12d", "2y".
func Age(t, now time.Time) string {
	if t.IsZero() {
		return ""
	}
	d := now.Sub(t)
	if d < 0 {
		d = 0
	}
	switch {
	case d < time.Minute:
		return strconv.Itoa(int(d/time.Second)) + "s"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	case d < 730*24*time.Hour:
		return strconv.Itoa(int(d/(24*time.Hour))) + "d"
	default:
		return strconv.Itoa(int(d/(365*24*time.Hour))) + "y"
	}
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}

// Stamp is the exact time in UTC, as the detail pane shows it beside Ago.
func Stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

// When is "3 days ago (2026-11-20 09:12:44 UTC)".
func When(t, now time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return Ago(t, now) + " (" + Stamp(t) + ")"
}

// Bytes is a size in binary units: 1536 → "1.5 KiB".
func Bytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// Short is a digest or uid shortened for a cell: "sha256:1a2b3c4d5e6f".
func Short(digest string, n int) string {
	algo, hex, ok := strings.Cut(digest, ":")
	if !ok {
		if len(digest) > n {
			return digest[:n]
		}
		return digest
	}
	if len(hex) > n {
		hex = hex[:n]
	}
	return algo + ":" + hex
}
