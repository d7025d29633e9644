package columns

import (
	"slices"
	"testing"
)

func TestByVersion(t *testing.T) {
	names := []string{"10.0", "nightly", "2.0", "latest", "2.0-dev", "1.9.1", "latest-dev", "v3", "2.0.1", "2.0.0", "99999999999999999999999.1", "sha256-abc"}
	want := []string{"latest", "latest-dev", "1.9.1", "2.0", "2.0-dev", "2.0.0", "2.0.1", "v3", "10.0", "99999999999999999999999.1", "nightly", "sha256-abc"}
	items := make([]*string, len(names))
	for i := range names {
		items[i] = &names[i]
	}
	var got []string
	for _, p := range ByVersion(func(s *string) string { return *s })(items) {
		got = append(got, names[p])
	}
	if !slices.Equal(got, want) {
		t.Errorf("ordered\n%q\nwant\n%q", got, want)
	}
}
