package identity

import (
	"strings"
	"testing"

	"canopy/api"
)

func TestEachWayOfAssumingIsShown(t *testing.T) {
	cases := []struct {
		id              api.Identity
		kind, iss, subj string
		labels          []string
	}{
		{api.Identity{ClaimMatch: &api.ClaimMatch{Issuer: "https://issuer", SubjectPattern: "repo:acme/.*", Audience: "aud",
			Claims: map[string]string{"ref": "main"}, ClaimPatterns: map[string]string{"job": "build-.*"}}},
			"claim match", "https://issuer", "~ repo:acme/.*", []string{"issuer", "subject", "audience", "claim", "claim"}},
		{api.Identity{StaticKeys: &api.StaticKeys{Issuer: "https://airgap", Subject: "builder", IssuerKeys: `{"keys":[{},{}]}`}},
			"static keys", "https://airgap", "builder", []string{"issuer", "subject", "keys"}},
		{api.Identity{AWSIdentity: &api.AWSIdentity{AWSAccount: "123456789012", ARNPattern: "arn:aws:iam::123456789012:role/.*"}},
			"aws", "aws 123456789012", "~ arn:aws:iam::123456789012:role/.*", []string{"aws account", "arn"}},
		{api.Identity{ServicePrincipal: "SERVICE_PRINCIPAL_CATALOG_SYNCER"}, "service", "service", "catalog syncer", []string{"service"}},
		{api.Identity{}, "", "", "", nil},
	}
	for _, tc := range cases {
		if got := Kind(&tc.id); got != tc.kind {
			t.Errorf("Kind = %q, want %q", got, tc.kind)
		}
		if got, want := string(Issuer(&tc.id)), tc.iss; got != want {
			t.Errorf("%s: Issuer = %q, want %q", tc.kind, got, want)
		}
		if got, want := string(Subject(&tc.id)), tc.subj; got != want {
			t.Errorf("%s: Subject = %q, want %q", tc.kind, got, want)
		}
		var labels []string
		for _, p := range Parts(&tc.id) {
			labels = append(labels, p.Label)
		}
		if strings.Join(labels, ",") != strings.Join(tc.labels, ",") {
			t.Errorf("%s: parts %v, want %v", tc.kind, labels, tc.labels)
		}
	}
	keys := Parts(&cases[1].id)[2]
	if keys.Value != "2 keys" {
		t.Errorf("keys = %q", keys.Value)
	}
}

func TestServerTextIsMadeSafe(t *testing.T) {
	id := api.Identity{ClaimMatch: &api.ClaimMatch{Issuer: "https://evil\x1b]0;pwned\x07", SubjectPattern: "\u202eexe"}}
	for _, s := range []string{string(Issuer(&id)), string(Subject(&id)), Parts(&id)[0].Value, Parts(&id)[1].Value} {
		if strings.ContainsAny(s, "\x1b\x07\u202e") {
			t.Errorf("unsafe %q", s)
		}
	}
}
