package text

import (
	"testing"
	"time"
)

func TestFit(t *testing.T) {
	for _, tc := range []struct {
		in    string
		w     int
		right bool
		want  string
	}{
		{"abc", 5, false, "abc  "},
		{"abc", 5, true, "  abc"},
		{"abcdef", 4, false, "abc~"},
		{"日本語", 5, false, "日本~"},
		{"日本語", 6, false, "日本語"},
		{"e\u0301t\u00e9", 4, false, "e\u0301t\u00e9 "},
		{"x", 0, false, ""},
	} {
		if got := Fit(tc.in, tc.w, tc.right, "~"); got != tc.want {
			t.Errorf("Fit(%q, %d) = %q, want %q", tc.in, tc.w, got, tc.want)
		}
		if tc.w > 0 && Width(Fit(tc.in, tc.w, tc.right, "~")) != tc.w {
			t.Errorf("Fit(%q, %d) is not %d wide", tc.in, tc.w, tc.w)
		}
	}
}

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 104231: "104,231", 1000000: "1,000,000", -4210: "-4,210"} {
		if got := Count(n); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestAgo(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	for d, want := range map[time.Duration]string{
		10 * time.Second: "just now", 5 * time.Minute: "5 minutes ago", 3 * time.Hour: "3 hours ago",
		3 * 24 * time.Hour: "3 days ago", 143 * 24 * time.Hour: "4 months ago", 800 * 24 * time.Hour: "2 years ago",
		-2 * time.Hour: "in 2 hours",
	} {
		if got := Ago(now.Add(-d), now); got != want {
			t.Errorf("Ago(-%v) = %q, want %q", d, got, want)
		}
	}
	if Ago(time.Time{}, now) != "" || When(time.Time{}, now) != "—" {
		t.Error("zero time")
	}
	if got := When(now.Add(-72*time.Hour), now); got != "3 days ago (2026-11-20 12:00:00 UTC)" {
		t.Errorf("When = %q", got)
	}
}

func TestBytesAndShort(t *testing.T) {
	if got := Bytes(44_040_192); got != "42.0 MiB" {
		t.Errorf("Bytes = %q", got)
	}
	if got := Bytes(512); got != "512 B" {
		t.Errorf("Bytes = %q", got)
	}
	if got := Short("sha256:0123456789abcdef", 12); got != "sha256:0123456789ab" {
		t.Errorf("Short = %q", got)
	}
}
