package emulator

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"canopy/api"
)

// relationshipKeys are the JSON keys of an identity's relationship oneof.
var relationshipKeys = []string{"claimMatch", "staticKeys", "awsIdentity", "servicePrincipal"}

// TestIdentityShapes: the seed has every relationship, each identity at
// most one, with the members identities.proto names.
func TestIdentityShapes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	r := e.get("/iam/v2/identities?page_size=200")
	var body struct{ Identities []map[string]json.RawMessage }
	e.ok(r, &body)
	byName := map[string]map[string]json.RawMessage{}
	for _, id := range body.Identities {
		var name string
		_ = json.Unmarshal(id["name"], &name)
		byName[name] = id
		n := 0
		for _, k := range relationshipKeys {
			if _, ok := id[k]; ok {
				n++
			}
		}
		if n > 1 {
			t.Errorf("identity %s has %d relationships", name, n)
		}
	}
	for _, name := range []string{"alice", "bob", "carol", "github-actions-release", "payments-deployer"} {
		if byName[name] == nil {
			t.Errorf("seeded identity %s is gone", name)
		}
	}
	member := func(name, key string) map[string]any {
		t.Helper()
		var m map[string]any
		if err := json.Unmarshal(byName[name][key], &m); err != nil {
			t.Fatalf("%s.%s: %v in %s", name, key, err, mustJSON(byName[name]))
		}
		return m
	}
	gh := member("github-actions-main", "claimMatch")
	if gh["subjectPattern"] != `repo:acme/.*:ref:refs/heads/main` || gh["subject"] != nil || gh["audience"] == nil || gh["issuer"] != issuerGitHub {
		t.Errorf("github-actions-main: %v", gh)
	}
	bk := member("web-buildkite-deploy", "claimMatch")
	if bk["issuerPattern"] == nil || bk["claims"] == nil || bk["claimPatterns"] == nil || bk["audiencePattern"] == nil {
		t.Errorf("web-buildkite-deploy: %v", bk)
	}
	sk := member("lab-airgap-builder", "staticKeys")
	var jwks struct{ Keys []map[string]string }
	if s, _ := sk["issuerKeys"].(string); json.Unmarshal([]byte(s), &jwks) != nil || len(jwks.Keys) != 1 || jwks.Keys[0]["kty"] != "EC" {
		t.Errorf("lab-airgap-builder issuerKeys: %v", sk["issuerKeys"])
	}
	if exp, _ := time.Parse(time.RFC3339, sk["expirationTime"].(string)); !exp.After(e.clock.Now()) || sk["audiences"] == nil || sk["subject"] == nil {
		t.Errorf("lab-airgap-builder static keys: %v", sk)
	}
	aws := member("eks-nodes", "awsIdentity")
	if aws["awsAccount"] != "123456789012" || aws["arnPattern"] == nil || aws["userIdPattern"] == nil || aws["arn"] != nil {
		t.Errorf("eks-nodes: %v", aws)
	}
	if s := string(byName["catalog-syncer"]["servicePrincipal"]); s != `"SERVICE_PRINCIPAL_CATALOG_SYNCER"` {
		t.Errorf("catalog-syncer: servicePrincipal %s", s)
	}
	for rt, want := range map[string]string{"RELATIONSHIP_TYPE_STATIC": "lab-airgap-builder", "RELATIONSHIP_TYPE_AWS_IDENTITY": "eks-nodes",
		"RELATIONSHIP_TYPE_SERVICE_PRINCIPAL": "catalog-syncer"} {
		p := e.list("/iam/v2/identities", "identities", url.Values{"relationship_type": {rt}})
		if len(p.Items) != 1 || p.Items[0]["name"] != want {
			t.Errorf("relationship_type=%s: %v", rt, p.Items)
		}
	}
	// A binding shows a pattern identity's issuer and subject pattern.
	b := e.list("/iam/v2/roleBindings", "roleBindings", url.Values{"identity": {e.identityUID("github-actions-main")}})
	if len(b.Items) != 1 || b.Items[0]["identity"].(map[string]any)["subject"] != `repo:acme/.*:ref:refs/heads/main` {
		t.Errorf("binding of github-actions-main: %v", b.Items)
	}
}

// TestIdentityOneofs: a body that sets both members of a oneof, or two
// relationships, is refused; each relationship may be created alone, and
// is checked.
func TestIdentityOneofs(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	platform := e.groupUID("platform")
	alice := e.identityUID("alice")
	post := func(body string) resp { return e.call("POST", "/iam/v2/identities/"+platform, adminTok, body) }
	for _, tc := range []struct{ body, field string }{
		{`{"name":"two-issuers","claimMatch":{"issuer":"https://a.example","issuerPattern":"https://.*","subject":"x"}}`, "claimMatch.issuer"},
		{`{"name":"two-subjects","claimMatch":{"issuer":"https://a.example","subject":"x","subjectPattern":"x.*"}}`, "claimMatch.subject"},
		{`{"name":"two-audiences","claimMatch":{"issuer":"https://a.example","subject":"x","audience":"a","audiencePattern":"a.*"}}`, "claimMatch.audience"},
		{`{"name":"two-arns","awsIdentity":{"awsAccount":"123456789012","arn":"arn:aws:iam::123456789012:user/x","arnPattern":".*"}}`, "awsIdentity.arn"},
		{`{"name":"two-kinds","claimMatch":{"issuer":"https://a.example","subject":"x"},"servicePrincipal":"SERVICE_PRINCIPAL_INGESTER"}`, "claimMatch"},
		{`{"name":"no-subject","claimMatch":{"issuer":"https://a.example"}}`, "claimMatch.subject"},
		{`{"name":"bad-pattern","claimMatch":{"issuer":"https://a.example","subjectPattern":"("}}`, "claimMatch.subjectPattern"},
		{`{"name":"bad-keys","staticKeys":{"issuer":"https://a.example","subject":"x","issuerKeys":"nope"}}`, "staticKeys.issuerKeys"},
		{`{"name":"bad-account","awsIdentity":{"awsAccount":"12345"}}`, "awsIdentity.awsAccount"},
		{`{"name":"bad-service","servicePrincipal":"SERVICE_PRINCIPAL_NOPE"}`, "servicePrincipal"},
	} {
		s := wantErr(t, post(tc.body), 400, api.CodeInvalidArgument)
		if f := fieldOf(t, s); f != tc.field {
			t.Errorf("%s: field %q, want %q (%s)", tc.body, f, tc.field, s.Message)
		}
	}
	s := wantErr(t, e.call("PATCH", "/iam/v2/identities/"+alice+"?update_mask=claim_match", adminTok,
		`{"claimMatch":{"issuer":"https://a.example","subject":"x","subjectPattern":"x"}}`), 400, api.CodeInvalidArgument)
	if f := fieldOf(t, s); f != "claimMatch.subject" {
		t.Errorf("patch with both subjects: field %q", f)
	}
	for _, body := range []string{
		`{"name":"gh-any","claimMatch":{"issuer":"https://token.actions.githubusercontent.com","subjectPattern":"repo:acme/.*","claimPatterns":{"ref":"refs/heads/.*"}}}`,
		`{"name":"static-one","staticKeys":{"issuer":"https://lab.example","subject":"x","issuerKeys":"{\"keys\":[{\"kty\":\"EC\"}]}"}}`,
		`{"name":"aws-one","awsIdentity":{"awsAccount":"123456789012","arn":"arn:aws:iam::123456789012:role/x"}}`,
		`{"name":"service-one","servicePrincipal":"SERVICE_PRINCIPAL_APKO_BUILDER"}`,
	} {
		var id api.Identity
		e.ok(post(body), &id)
		if id.StaticKeys != nil && !id.StaticKeys.ExpirationTime.After(api.TimeOf(e.clock.Now().Add(364*day))) {
			t.Errorf("static keys expire at %v, want a year from now", id.StaticKeys.ExpirationTime.Time())
		}
	}
}

// TestPatchRelationship: a member path sets that member, clearing the
// other member of its oneof and nothing else; a relationship path
// replaces the relationship, clearing the others.
func TestPatchRelationship(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	uid := e.identityUID("github-actions-main")
	var before, id api.Identity
	e.ok(e.get("/iam/v2/identities/"+uid), &before)
	e.ok(e.call("PATCH", "/iam/v2/identities/"+uid+"?update_mask=claim_match.subject", adminTok,
		`{"claimMatch":{"subject":"repo:acme/app:ref:refs/heads/main","issuer":"https://ignored.example"}}`), &id)
	want := *before.ClaimMatch
	want.Subject, want.SubjectPattern = "repo:acme/app:ref:refs/heads/main", ""
	if mustJSON(id.ClaimMatch) != mustJSON(&want) || id.Description != before.Description || id.Name != before.Name {
		t.Errorf("claim_match.subject: %s, want claim match %s", mustJSON(id), mustJSON(want))
	}
	e.ok(e.call("PATCH", "/iam/v2/identities/"+uid+"?update_mask=claim_match.claims", adminTok,
		`{"claimMatch":{"claims":{"repository_owner":"acme"}}}`), &id)
	if id.ClaimMatch.Claims["repository_owner"] != "acme" || id.ClaimMatch.Subject != want.Subject || id.ClaimMatch.Audience != want.Audience {
		t.Errorf("claim_match.claims: %s", mustJSON(id))
	}
	id = api.Identity{} // decoding into a used value would keep what the answer leaves out
	e.ok(e.call("PATCH", "/iam/v2/identities/"+uid+"?update_mask=service_principal", adminTok,
		`{"servicePrincipal":"SERVICE_PRINCIPAL_INGESTER"}`), &id)
	if id.ClaimMatch != nil || id.ServicePrincipal != "SERVICE_PRINCIPAL_INGESTER" {
		t.Errorf("service_principal: %s", mustJSON(id))
	}
	aws := e.identityUID("eks-nodes")
	id = api.Identity{}
	e.ok(e.call("PATCH", "/iam/v2/identities/"+aws+"?update_mask=aws_identity.arn", adminTok,
		`{"awsIdentity":{"arn":"arn:aws:iam::123456789012:role/eks-node-a"}}`), &id)
	if a := id.AWSIdentity; a == nil || a.ARN == "" || a.ARNPattern != "" || a.AWSAccount != "123456789012" || a.UserIDPattern == "" {
		t.Errorf("aws_identity.arn: %s", mustJSON(id))
	}
	// Without a mask, the fields in the body change.
	e.ok(e.call("PATCH", "/iam/v2/identities/"+aws, adminTok, `{"description":"Nodes."}`), &id)
	if id.Description != "Nodes." || id.AWSIdentity == nil {
		t.Errorf("implied mask: %s", mustJSON(id))
	}
}

// TestTokensAssumeByPattern: a token assumes an identity whose claim match
// it satisfies, by patterns, audience and further claims too, or whose
// static keys name its issuer and subject until they expire.
func TestTokensAssumeByPattern(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	who := func(claims map[string]any) string {
		t.Helper()
		claims["exp"] = e.clock.Now().Add(time.Hour).Unix()
		req := httptest.NewRequest(http.MethodGet, "/iam/v2/groups", nil)
		req.Header.Set("Authorization", "Bearer "+unsignedJWT(claims))
		e.srv.st.mu.RLock()
		defer e.srv.st.mu.RUnlock()
		p, err := e.srv.authenticate(req)
		if err != nil {
			return ""
		}
		return p.name
	}
	gh := map[string]any{"iss": issuerGitHub, "sub": "repo:acme/widgets:ref:refs/heads/main", "aud": consoleAudience}
	if got := who(gh); got != "github-actions-main" {
		t.Errorf("pattern subject: %q", got)
	}
	gh["sub"] = "repo:acme/widgets:ref:refs/heads/dev"
	if got := who(gh); got != "" {
		t.Errorf("another branch: %q", got)
	}
	if got := who(map[string]any{"iss": issuerGitHub, "sub": "repo:acme/widgets:ref:refs/heads/main"}); got != "" {
		t.Errorf("no audience: %q", got)
	}
	bk := map[string]any{"iss": "https://agent.buildkite.com", "sub": "organization:acme:pipeline:deploy-web:ref:main",
		"aud": []string{"cgr.dev"}, "organization_slug": "acme", "build_branch": "main", "pipeline_slug": "deploy-web"}
	if got := who(bk); got != "web-buildkite-deploy" {
		t.Errorf("claims and claim patterns: %q", got)
	}
	bk["pipeline_slug"] = "deploy-webx"
	if got := who(bk); got != "" {
		t.Errorf("a claim pattern matches the whole value only: %q", got)
	}
	var sk api.Identity
	e.ok(e.get("/iam/v2/identities/"+e.identityUID("lab-airgap-builder")), &sk)
	static := map[string]any{"iss": sk.StaticKeys.Issuer, "sub": sk.StaticKeys.Subject, "aud": consoleAudience}
	if got := who(static); got != "lab-airgap-builder" {
		t.Errorf("static keys: %q", got)
	}
	e.clock.Add(sk.StaticKeys.ExpirationTime.Time().Sub(e.clock.Now()) + time.Minute)
	if got := who(static); got != "" {
		t.Errorf("expired static keys: %q", got)
	}
	// The seeded exact identities still answer their tokens.
	if got := who(map[string]any{"iss": issuerGoogle, "sub": "104829573610293847561"}); got != "alice" {
		t.Errorf("alice: %q", got)
	}
	if !strings.Contains(mustJSON(sk), "issuerKeys") {
		t.Errorf("static keys without issuerKeys: %s", mustJSON(sk))
	}
}
