package advisory

import (
	"encoding/json"
	"testing"

	"canopy/api"
)

func TestParseScore(t *testing.T) {
	cases := []struct {
		in     string
		short  string
		rating string
	}{
		{"7.5", "7.5", "high"},
		{"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", "9.8", "critical"},
		{"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H", "7.5", "high"},
		{"CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N", "6.1", "medium"},
		{"CVSS:3.0/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N", "5.5", "medium"},
		{"CVSS:3.1/AV:N/AC:H/PR:H/UI:R/S:U/C:N/I:N/A:N", "0.0", "none"},
		{"AV:N/AC:L/Au:N/C:P/I:P/A:P", "7.5", "high"},
		{"(AV:N/AC:M/Au:N/C:N/I:P/A:N)", "4.3", "medium"},
		{"CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N", "v4.0", ""},
		{"CVSS:3.1/AV:X", "v3.1", ""},
		{"high", "?", ""},
		{"CVSS:\x1b[2J/AV:N", "?", ""},
		{"", "", ""},
	}
	for _, tc := range cases {
		s := ParseScore(tc.in)
		if s.Short() != tc.short || s.Rating() != tc.rating {
			t.Errorf("ParseScore(%q) = %q %q, want %q %q", tc.in, s.Short(), s.Rating(), tc.short, tc.rating)
		}
	}
}

func TestStatusFromTheKindKey(t *testing.T) {
	var a api.Advisory
	body := `{"uid":"a","events":[
		{"uid":"1","createTime":"2026-01-01T00:00:00.000Z","detection":{"scanv1":{"scanner":"grype","component":"openssl","componentVersion":"3.0.1"}}},
		{"uid":"2","createTime":"2026-02-01T00:00:00.000Z","reviewState":"REVIEW_STATE_PENDING","fixed":{"fixedVersion":"3.0.2-r1","note":"rebuilt"}}]}`
	if err := json.Unmarshal([]byte(body), &a); err != nil {
		t.Fatal(err)
	}
	// The service goes by the latest approved event: the fix waits for
	// its review.
	if got := Status(&a); got != "detected · fixed (in review)" {
		t.Errorf("Status = %q, want detected · fixed (in review)", got)
	}
	if got := Detail(&a.Events[0]); got != "by grype in openssl 3.0.1" {
		t.Errorf("detection detail = %q", got)
	}
	if got := Detail(&a.Events[1]); got != "in 3.0.2-r1 · rebuilt" {
		t.Errorf("fixed detail = %q", got)
	}
	if got := Review(a.Events[1].ReviewState); got != "pending review" {
		t.Errorf("review = %q", got)
	}
	// A kind this client does not know is named, made safe.
	if err := json.Unmarshal([]byte(`{"events":[{"uid":"3","withdrawn\u001b[2J":{}}]}`), &a); err != nil {
		t.Fatal(err)
	}
	if got := Status(&a); got != "withdrawn␛[2J" {
		t.Errorf("unknown kind = %q", got)
	}
}
