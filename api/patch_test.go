package api_test

import (
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"slices"
	"testing"

	"canopy/api"
	"canopy/api/emulator"
)

// sentBody is the JSON object of the last request the server received.
func sentBody(t *testing.T, e *env) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(e.rec.last(t).Body, &m); err != nil {
		t.Fatalf("request body %q: %v", e.rec.last(t).Body, err)
	}
	return m
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestPatchStarSendsTheWholeResource: the mask "*" is a full replacement,
// so the whole resource goes in the body; a field changed is changed and
// the others keep their values (they were sent), for every patchable type.
func TestPatchStarSendsTheWholeResource(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client

	repo := repoNamed(t, e, "python")
	repo.Description = "Python, replaced whole."
	got := must(c.PatchRepo(ctx, repo, api.FieldAll))(t)
	if got.Description != repo.Description || got.Name != "python" || got.CatalogTier != repo.CatalogTier ||
		!slices.Equal(got.Bundles, repo.Bundles) || !slices.Equal(got.Aliases, repo.Aliases) {
		t.Errorf("PatchRepo(*) = %+v, want %+v with the new description", got, repo)
	}
	if k := keys(sentBody(t, e)); !slices.Contains(k, "aliases") || !slices.Contains(k, "catalogTier") || !slices.Contains(k, "name") {
		t.Errorf("PatchRepo(*) sent %v, want the whole repo", k)
	}

	group := must(c.ListGroups(ctx, api.ListOptions{ChildrenOf: e.org, Name: "security"}))(t).Items[0]
	group.Description = "Security, replaced whole."
	if g := must(c.PatchGroup(ctx, group, api.FieldAll))(t); g.Name != "security" || g.Description != group.Description {
		t.Errorf("PatchGroup(*) = %+v", g)
	}

	carol := must(c.ListIdentities(ctx, api.ListOptions{Name: "carol"}))(t).Items[0]
	claim := *carol.ClaimMatch
	got2 := must(c.PatchIdentity(ctx, carol, api.FieldAll))(t)
	if got2.Description != carol.Description || got2.ClaimMatch == nil || !reflect.DeepEqual(*got2.ClaimMatch, claim) {
		t.Errorf("PatchIdentity(*) unchanged = %+v, want the description and claimMatch kept", got2)
	}
	if k := keys(sentBody(t, e)); !slices.Contains(k, "description") || !slices.Contains(k, "claimMatch") {
		t.Errorf("PatchIdentity(*) sent %v", k)
	}
	if q := e.rec.last(t).Query.Get("update_mask"); q != "*" {
		t.Errorf("update_mask = %q, want *", q)
	}

	// "*" with another field is refused before anything is sent.
	e.rec.reset()
	if _, err := c.PatchRepo(ctx, repo, api.FieldAll, api.FieldName); err == nil || e.rec.count() != 0 {
		t.Errorf("mask *,name: %v and %d requests, want an error and none", err, e.rec.count())
	}
}

// TestPatchClaimMatchMember: a dotted mask sends that member only, and the
// emulator changes only it.
func TestPatchClaimMatchMember(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client
	carol := must(c.ListIdentities(ctx, api.ListOptions{Name: "carol"}))(t).Items[0]
	subject := carol.ClaimMatch.Subject

	carol.ClaimMatch = &api.ClaimMatch{Issuer: "https://login.example", Subject: "not sent"}
	carol.Description = "not sent either"
	got := must(c.PatchIdentity(ctx, carol, api.ClaimMatchField(api.ClaimIssuer)))(t)
	if got.ClaimMatch.Issuer != "https://login.example" || got.ClaimMatch.Subject != subject || got.Description == "not sent either" {
		t.Errorf("PatchIdentity(claim_match.issuer) = %+v", got)
	}
	body, _ := json.Marshal(sentBody(t, e))
	if string(body) != `{"claimMatch":{"issuer":"https://login.example"}}` {
		t.Errorf("sent %s, want the issuer alone", body)
	}

	carol.ClaimMatch = &api.ClaimMatch{Issuer: "https://login.example", Subject: "user-7"}
	got = must(c.PatchIdentity(ctx, carol, api.ClaimMatchField(api.ClaimSubject), api.ClaimMatchField(api.ClaimIssuer)))(t)
	if !reflect.DeepEqual(got.ClaimMatch, carol.ClaimMatch) {
		t.Errorf("both members: %+v", got.ClaimMatch)
	}
	carol.ClaimMatch = &api.ClaimMatch{Issuer: "https://other.example", Subject: "user-8"}
	got = must(c.PatchIdentity(ctx, carol, api.FieldClaimMatch, api.ClaimMatchField(api.ClaimIssuer)))(t)
	if !reflect.DeepEqual(got.ClaimMatch, carol.ClaimMatch) {
		t.Errorf("claimMatch and a member: %+v", got.ClaimMatch)
	}
}

// TestPatchStarKeepsTheCustomOverlay: a repo's custom overlay, which the
// client never reads, goes back whole under the mask "*": a full
// replacement without it would clear it.
func TestPatchStarKeepsTheCustomOverlay(t *testing.T) {
	t.Parallel()
	const overlay = `{"contents":{"packages":["curl"]},"environment":{"A":"1"}}`
	sent := make(chan []byte, 1)
	url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPatch {
			b, _ := io.ReadAll(r.Body)
			sent <- b
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"uid":"org/repo","name":"repo","customOverlay":`+overlay+`}`)
	}))
	c := newClient(t, url, api.Options{TokenSource: static(adminToken)})
	repo := must(c.GetRepo(t.Context(), "org/repo"))(t)
	repo.Description = "replaced whole"
	must(c.PatchRepo(t.Context(), *repo, api.FieldAll))(t)
	var body map[string]json.RawMessage
	if err := json.Unmarshal(<-sent, &body); err != nil || string(body["customOverlay"]) != overlay {
		t.Errorf("PatchRepo(*) sent customOverlay %s (%v), want %s", body["customOverlay"], err, overlay)
	}
}
