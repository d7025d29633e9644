package api_test

import (
	"encoding/json"
	"testing"
	"time"
	"unsafe"

	"canopy/api"
)

// TestTimeRoundTrip checks the compact Time against time.Time: the same
// instant to the millisecond, the zero value kept zero, the wire unchanged.
func TestTimeRoundTrip(t *testing.T) {
	t.Parallel()
	cases := []time.Time{
		time.Date(2025, 6, 1, 12, 30, 45, 123_456_789, time.UTC),
		time.Date(1969, 12, 31, 23, 59, 59, 999_000_000, time.UTC),
		time.Date(2025, 6, 1, 14, 30, 45, 0, time.FixedZone("CEST", 2*3600)),
		time.Date(1, 1, 1, 0, 0, 0, 1_000_000, time.UTC),
	}
	for _, in := range cases {
		got := api.TimeOf(in)
		want := in.UTC().Truncate(time.Millisecond)
		if !got.Time().Equal(want) || got.Time().Location() != time.UTC || got.IsZero() {
			t.Errorf("TimeOf(%v).Time() = %v, want %v in UTC", in, got.Time(), want)
		}
		b, err := json.Marshal(got)
		if err != nil || string(b) != `"`+want.Format("2006-01-02T15:04:05.000Z07:00")+`"` {
			t.Errorf("Marshal(%v) = %s, %v", in, b, err)
		}
		var back api.Time
		if err := json.Unmarshal(b, &back); err != nil || back != got {
			t.Errorf("Unmarshal(%s) = %v, %v; want %v", b, back.Time(), err, want)
		}
	}
	var zero api.Time
	if !zero.IsZero() || !zero.Time().IsZero() || !api.TimeOf(time.Time{}).IsZero() {
		t.Errorf("zero Time is not zero: %v", zero.Time())
	}
	a, b := api.TimeOf(cases[1]), api.TimeOf(cases[0])
	if !a.Before(b) || !b.After(a) || a.Compare(b) != -1 || !a.Equal(a) {
		t.Errorf("ordering of %v and %v is wrong", a.Time(), b.Time())
	}
	// The point of the type: a tag's two timestamps take 16 bytes, not 48.
	if n := unsafe.Sizeof(api.Time{}); n != 8 {
		t.Errorf("Sizeof(Time) = %d, want 8", n)
	}
}

// Sub never wraps: a gap too wide for a Duration is the largest one, as
// time.Time's Sub says.
func TestTimeSubSaturates(t *testing.T) {
	t.Parallel()
	now := api.TimeOf(time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC))
	for _, then := range []time.Time{time.Date(1700, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(1441, 8, 13, 0, 0, 0, 0, time.UTC), time.Date(1, 1, 2, 0, 0, 0, 0, time.UTC)} {
		old := api.TimeOf(then)
		if d := now.Sub(old); d != now.Time().Sub(then) || d <= 0 {
			t.Errorf("%v: Sub = %v, want %v", then, d, now.Time().Sub(then))
		}
		if d := old.Sub(now); d != then.Sub(now.Time()) || d >= 0 {
			t.Errorf("%v: Sub back = %v, want %v", then, d, then.Sub(now.Time()))
		}
	}
	if d := now.Sub(api.TimeOf(now.Time().Add(-90 * time.Minute))); d != 90*time.Minute {
		t.Errorf("Sub = %v, want 90m", d)
	}
}
