package api_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"canopy/api"
	"canopy/api/emulator"
)

// partial serves the emulator as a server that applies only some mask
// paths would: a PATCH naming a path of keep is answered with the
// resource as it is, unchanged; the answer to any other is passed
// through answer (nil: as it is).
func partial(t *testing.T, keep []string, answer func(map[string]any)) (*api.Client, string) {
	t.Helper()
	srv, err := emulator.New(emulator.Options{Seed: 1, AdminToken: adminToken})
	if err != nil {
		t.Fatal(err)
	}
	url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPatch && slices.ContainsFunc(keep, func(p string) bool {
			return slices.Contains(strings.Split(r.URL.Query().Get("update_mask"), ","), p)
		}) {
			get := httptest.NewRequestWithContext(r.Context(), http.MethodGet, r.URL.Path, nil)
			get.Header = r.Header.Clone()
			srv.ServeHTTP(w, get)
			return
		}
		if r.Method != http.MethodPatch || answer == nil {
			srv.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, r)
		var body map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Errorf("%s: %v", r.URL, err)
		}
		answer(body)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(body)
	}))
	return newClient(t, url, api.Options{TokenSource: static(adminToken), Retry: api.NoRetry()}), srv.OrgUID()
}

// TestWriteTheServerKeptIsNotApplied: the answer to a masked PATCH that
// holds the old value of a field named is a *NotAppliedError naming the
// field, what the server has and what was sent: for a repo's tier and an
// identity's claim subject. A field applied, and one answered in another
// order (a list is a set), are not.
func TestWriteTheServerKeptIsNotApplied(t *testing.T) {
	t.Parallel()
	c, org := partial(t, []string{api.FieldCatalogTier, api.ClaimMatchField(api.ClaimSubject)}, func(body map[string]any) {
		if aliases, ok := body["aliases"].([]any); ok {
			slices.Reverse(aliases)
		}
	})
	ctx := t.Context()
	repos, err := c.ListRepos(ctx, api.ListOptions{DescendantsOf: org, Name: "alertmanager"})
	if err != nil || len(repos.Items) != 1 {
		t.Fatalf("alertmanager: %v %v", repos, err)
	}
	repo := repos.Items[0]
	tier := api.CatalogTierBase
	if repo.CatalogTier == tier {
		tier = api.CatalogTierFIPS
	}
	changed := repo
	changed.CatalogTier, changed.Description = tier, "kept?"
	_, err = c.PatchRepo(ctx, changed, api.FieldDescription, api.FieldCatalogTier)
	var kept *api.NotAppliedError
	if !errors.As(err, &kept) || len(kept.Fields) != 2 || kept.Fields[1].Path != api.FieldCatalogTier ||
		kept.Fields[1].Answered != `"`+repo.CatalogTier+`"` || kept.Fields[1].Sent != `"`+tier+`"` {
		t.Fatalf("a tier kept: %v (%+v)", err, kept)
	}
	if api.MaybeMade(err) {
		t.Errorf("a write answered is no lost one: %v", err)
	}

	// Applied: the description; the aliases answered reversed.
	changed = repo
	changed.Description, changed.Aliases = "applied", []string{"a", "b", "c"}
	if _, err := c.PatchRepo(ctx, changed, api.FieldDescription, api.FieldAliases); err != nil {
		t.Errorf("an applied change: %v", err)
	}

	ids, err := c.ListIdentities(ctx, api.ListOptions{DescendantsOf: org})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(ids.Items, func(id api.Identity) bool { return id.ClaimMatch != nil && id.ClaimMatch.Subject != "" })
	if i < 0 {
		t.Fatal("no identity with a claim subject")
	}
	id := ids.Items[i]
	id.ClaimMatch = &api.ClaimMatch{Subject: "repo:acme/other:ref:refs/heads/main"}
	_, err = c.PatchIdentity(ctx, id, api.ClaimMatchField(api.ClaimSubject))
	if !errors.As(err, &kept) || kept.Fields[0].Path != "claim_match.subject" ||
		!strings.Contains(err.Error(), "not applied: the server answered but kept what it had (claim_match.subject is ") {
		t.Errorf("a claim subject kept: %v", err)
	}
}

// TestRoleChangeTheServerKeptIsNotApplied: a binding's role change
// answered with the binding's old role is not applied.
func TestRoleChangeTheServerKeptIsNotApplied(t *testing.T) {
	t.Parallel()
	c, org := partial(t, []string{api.FieldRoleUID}, nil)
	ctx := t.Context()
	bs, err := c.ListRoleBindings(ctx, api.ListOptions{DescendantsOf: org})
	if err != nil || len(bs.Items) == 0 {
		t.Fatalf("bindings: %v %v", bs, err)
	}
	roles, err := c.RolesOf(ctx, org)
	if err != nil {
		t.Fatal(err)
	}
	b := bs.Items[0]
	other := roles[slices.IndexFunc(roles, func(r api.Role) bool { return b.Role == nil || r.UID != b.Role.UID })]
	_, err = c.PatchRoleBinding(ctx, b.UID, other.UID)
	var kept *api.NotAppliedError
	if !errors.As(err, &kept) || len(kept.Fields) != 1 || kept.Fields[0].Path != api.FieldRoleUID ||
		kept.Fields[0].Sent != `"`+other.UID+`"` {
		t.Errorf("a role kept: %v (%+v)", err, kept)
	}
}

// TestCreatesOfTheEmulatorAreAsSent: the emulator makes each resource as
// it was sent, so a create's note holds no difference (the check has no
// false alarm on the real shapes); one the server made otherwise does.
func TestCreatesOfTheEmulatorAreAsSent(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	c, org := e.client, e.org
	roles, err := c.RolesOf(t.Context(), org)
	if err != nil || len(roles) == 0 {
		t.Fatalf("roles: %v", err)
	}
	creates := map[string]func(ctx context.Context) error{
		"group": func(ctx context.Context) error {
			_, err := c.CreateGroup(ctx, org, api.Group{Name: "notes-folder", Description: "made as sent"})
			return err
		},
		"repo": func(ctx context.Context) error {
			_, err := c.CreateRepo(ctx, org, api.Repo{Name: "notes-repo", Description: "made as sent", CatalogTier: api.CatalogTierBase})
			return err
		},
		"identity": func(ctx context.Context) error {
			_, err := c.CreateIdentity(ctx, org, api.Identity{Name: "notes-bot", Description: "ci",
				ClaimMatch: &api.ClaimMatch{Issuer: "https://token.actions.githubusercontent.com", Subject: "repo:acme/x:ref:refs/heads/main"}})
			return err
		},
		"subscription": func(ctx context.Context) error {
			_, err := c.CreateSubscription(ctx, org, api.Subscription{Sink: "https://hooks.acme.example/notes"})
			return err
		},
		"role": func(ctx context.Context) error {
			_, err := c.CreateRole(ctx, org, api.NewRole{Name: "notes-role", Description: "d", Capabilities: roles[0].Capabilities[:1]})
			return err
		},
	}
	for name, create := range creates {
		n := &api.Note{What: name}
		if err := create(api.WithNote(t.Context(), n)); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(n.Differs) > 0 {
			t.Errorf("%s made otherwise than sent: %+v", name, n.Differs)
		}
	}
}
