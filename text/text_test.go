package text

import (
	"strings"
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
	// A row's age and its page's agree on every span.
	for _, d := range []time.Duration{90 * time.Minute, 47 * time.Hour, 3*24*time.Hour + 20*time.Hour, 59 * 24 * time.Hour,
		61 * 24 * time.Hour, 400 * 24 * time.Hour, 800 * 24 * time.Hour} {
		short, long := Age(now.Add(-d), now), Ago(now.Add(-d), now)
		if strings.Fields(long)[0] != strings.TrimRight(strings.Fields(short)[0], "hdmoys") {
			t.Errorf("%v: Age %q but Ago %q", d, short, long)
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

func TestAgeKeepsOneStyle(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	for _, c := range []struct {
		ago  time.Duration
		want string
	}{
		{30 * time.Second, "30s"}, {5 * time.Minute, "5m"}, {47 * time.Hour, "47h"}, {12 * day, "12d"},
		{59 * day, "59d"}, {60 * day, "2mo"}, {300 * day, "9mo"}, {364 * day, "11mo"}, {365 * day, "1y"},
		{700 * day, "1y 11mo"}, {729 * day, "1y 11mo"}, {730 * day, "2y"}, {1000 * day, "2y 8mo"}, {4000 * day, "10y"},
	} {
		if got := Age(now.Add(-c.ago), now); got != c.want || len(got) > 7 {
			t.Errorf("Age(%v) = %q, want %q (7 cells at most)", c.ago, got, c.want)
		}
	}
}

func TestMiddleKeepsBothEnds(t *testing.T) {
	sig := "sha256-f3fb216ee0b3db80ef185a7c01e2adc9f3fb216ee0b3db80ef185a7c01e2adc9.sig"
	for _, c := range []struct {
		s    string
		w    int
		want string
	}{
		{"short", 10, "short"},
		{sig, 20, "sha256-f3~e2adc9.sig"},
		{sig, 21, "sha256-f3f~e2adc9.sig"},
		{"漢字テストの名前です", 9, "漢字~です"},
		// A wide character across the cut of the end: it goes (this
		// looped for ever).
		{"漢字テストの名前です", 10, "漢字~です"},
		{strings.Repeat("漢", 100), 80, strings.Repeat("漢", 19) + "~" + strings.Repeat("漢", 20)},
		{"abcdef", 4, "abc~"},
	} {
		got := Middle(c.s, c.w, "~")
		if got != c.want || Width(got) > c.w {
			t.Errorf("Middle(%q, %d) = %q (%d cells), want %q", c.s, c.w, got, Width(got), c.want)
		}
	}
}

func TestSingular(t *testing.T) {
	for plural, want := range map[string]string{"identities": "identity", "role bindings": "role binding", "repos": "repo",
		"libraries": "library", "advisories": "advisory", "access": "access"} {
		if got := Singular(plural); got != want {
			t.Errorf("Singular(%q) = %q, want %q", plural, got, want)
		}
	}
}
