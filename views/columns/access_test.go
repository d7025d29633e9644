package columns

import (
	"testing"
	"time"

	"canopy/api"
)

// An invite's expiry is said rounded to its unit: one made to last 7 days
// reads "in 7 days" right after it is made, one of 2 days "in 2 days".
func TestExpiresRoundsToItsUnit(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 29, 15, 57, 46, 0, time.UTC)
	for _, c := range []struct {
		left time.Duration
		want string
	}{
		{7*24*time.Hour - 3*time.Second, "in 7 days"},
		{7 * 24 * time.Hour, "in 7 days"},
		{6*24*time.Hour + 13*time.Hour, "in 7 days"},
		{6*24*time.Hour + 11*time.Hour, "in 6 days"},
		{48*time.Hour - 5*time.Second, "in 2 days"},
		{36 * time.Hour, "in 36 hours"},
		{12*time.Hour - time.Second, "in 12 hours"},
		{time.Hour - 10*time.Second, "in 1 hour"},
		{30*time.Minute - time.Second, "in 30 minutes"},
		{20 * time.Second, "in seconds"},
		{365*24*time.Hour - time.Minute, "in 1 year"},
		{0, "expired"},
		{-time.Hour, "expired"},
	} {
		if got := Expires(api.TimeOf(now.Add(c.left)), now); got != c.want {
			t.Errorf("%v left: %q, want %q", c.left, got, c.want)
		}
	}
	if got := Expires(api.Time{}, now); got != "—" {
		t.Errorf("no expiry: %q", got)
	}
}
