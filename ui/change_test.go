package ui

import "testing"

// A change to a long value shows where it differs.
func TestChangeShowsWhereLongValuesDiffer(t *testing.T) {
	t.Parallel()
	cases := []struct{ old, new, want string }{
		{"short", "shorter", `"short" → "shorter"`},
		{"https://token.actions.githubusercontent.com", "https://token.actions.githubusercontent.comx",
			`"…ithubusercontent.com" → "…ithubusercontent.comx"`},
		{"", "new", `"" → "new"`},
	}
	for _, tc := range cases {
		if got := change(tc.old, tc.new); got != tc.want {
			t.Errorf("change(%q, %q) = %s, want %s", tc.old, tc.new, got, tc.want)
		}
	}
}
