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

// Middle cuts s to at most w cells by taking out its middle, marked by
// mark: for names told apart by their ends ("sha256-f3fb…a1.sig" and
// "sha256-f3fb…a1.att"). A wide character is never split.
func Middle(s string, w int, mark string) string {
	sw := ansi.StringWidth(s)
	if sw <= w {
		return s
	}
	keep := w - ansi.StringWidth(mark)
	if keep < 4 {
		return Cut(s, w, mark)
	}
	head := ansi.Truncate(s, keep/2, "")
	room := keep - ansi.StringWidth(head)
	cut := sw - room
	end := ansi.TruncateLeft(s, cut, "")
	for ansi.StringWidth(end) > room {
		// A wide character straddled the cut: cut one more cell of s.
		// (TruncateLeft keeps a wide character it would split: cutting
		// one cell of end, as this did, left it whole, for ever.)
		cut++
		end = ansi.TruncateLeft(s, cut, "")
	}
	return head + mark + end
}

// Singular is the singular of a plural noun of canopy's ("identities",
// "role bindings", "repos"), for a count of one.
func Singular(plural string) string {
	switch {
	case strings.HasSuffix(plural, "ies"):
		return strings.TrimSuffix(plural, "ies") + "y"
	case strings.HasSuffix(plural, "s") && !strings.HasSuffix(plural, "ss"):
		return strings.TrimSuffix(plural, "s")
	}
	return plural
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
// "in 2 hours"; "" for the zero time. It counts as Age does (whole units,
// the same thresholds), so a row's "3d" and its page's "3 days ago" agree.
func Ago(t, now time.Time) string {
	if t.IsZero() {
		return ""
	}
	d := now.Sub(t)
	future := d < 0
	if future {
		d = -d
	}
	const day = 24 * time.Hour
	days := int(d / day)
	months := days * 12 / 365
	var s string
	switch {
	case d < 45*time.Second:
		return "just now"
	case d < time.Hour:
		s = plural(max(int(d/time.Minute), 1), "minute")
	case d < 48*time.Hour:
		s = plural(int(d/time.Hour), "hour")
	case days < 60:
		s = plural(days, "day")
	case months < 12:
		s = plural(max(months, 2), "month")
	default:
		s = plural(months/12, "year")
	}
	if future {
		return "in " + s
	}
	return s + " ago"
}

// Age is the short form of Ago for table cells, in one style whatever the
// span: "5m", "3h", "12d", "11mo", "1y 11mo", "3y". Months start at 60
// days, years at 12 months; a span of years keeps its months (7 cells at
// most below ten years).
func Age(t, now time.Time) string {
	if t.IsZero() {
		return ""
	}
	d := now.Sub(t)
	if d < 0 {
		d = 0
	}
	const day = 24 * time.Hour
	days := int(d / day)
	months := days * 12 / 365
	switch {
	case d < time.Minute:
		return strconv.Itoa(int(d/time.Second)) + "s"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	case days < 60:
		return strconv.Itoa(days) + "d"
	case months < 12:
		return strconv.Itoa(max(months, 2)) + "mo"
	}
	years, rest := months/12, months%12
	if rest == 0 || years >= 10 {
		return strconv.Itoa(years) + "y"
	}
	return strconv.Itoa(years) + "y " + strconv.Itoa(rest) + "mo"
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
	// A prefix of digest: no copy (filters and frames call this per row).
	return digest[:len(algo)+1+len(hex)]
}

// Spark draws values as a sparkline of levels (the lowest first): each
// value a level scaled to the largest, none the lowest, any at least the
// next.
func Spark(values []int32, levels []string) string {
	if len(levels) < 2 {
		return ""
	}
	var top int32
	for _, v := range values {
		top = max(top, v)
	}
	var b strings.Builder
	for _, v := range values {
		i := 0
		if top > 0 && v > 0 {
			i = max(1, int(int64(v)*int64(len(levels)-1)/int64(top)))
		}
		b.WriteString(levels[i])
	}
	return b.String()
}
