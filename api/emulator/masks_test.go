package emulator

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"canopy/api"
)

// TestRepoMaskEveryField: each updatable repo field, named by its proto
// path, changes that field and nothing else; the body stays camelCase.
func TestRepoMaskEveryField(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	uid := e.repoUID("nginx")
	next := api.Repo{Name: "nginx-edge", Description: "Edited.", CatalogTier: "CATALOG_TIER_FIPS",
		Bundles: []string{"fips"}, Aliases: []string{"cgr.dev/acme.example/nginx-edge"}, ActiveTags: []string{"latest"}}
	for _, tc := range []struct {
		path string
		get  func(*api.Repo) any
	}{
		{"name", func(r *api.Repo) any { return r.Name }},
		{"description", func(r *api.Repo) any { return r.Description }},
		{"catalog_tier", func(r *api.Repo) any { return r.CatalogTier }},
		{"bundles", func(r *api.Repo) any { return r.Bundles }},
		{"aliases", func(r *api.Repo) any { return r.Aliases }},
		{"active_tags", func(r *api.Repo) any { return r.ActiveTags }},
	} {
		var before, after api.Repo
		e.ok(e.get("/registry/v2/repos/"+uid), &before)
		e.ok(e.call("PATCH", "/registry/v2/repos/"+uid+"?update_mask="+tc.path, adminTok, next), &after)
		if mustJSON(tc.get(&after)) != mustJSON(tc.get(&next)) {
			t.Errorf("%s: %s, want %s", tc.path, mustJSON(tc.get(&after)), mustJSON(tc.get(&next)))
		}
		// Everything else as it was.
		want := before
		switch tc.path {
		case "name":
			want.Name = after.Name
		case "description":
			want.Description = after.Description
		case "catalog_tier":
			want.CatalogTier = after.CatalogTier
		case "bundles":
			want.Bundles = after.Bundles
		case "aliases":
			want.Aliases = after.Aliases
		case "active_tags":
			want.ActiveTags = after.ActiveTags
		}
		want.UpdateTime = after.UpdateTime
		if mustJSON(after) != mustJSON(want) {
			t.Errorf("%s changed more: %s, want %s", tc.path, mustJSON(after), mustJSON(want))
		}
	}
	s := wantErr(t, e.call("PATCH", "/registry/v2/repos/"+uid+"?update_mask=custom_overlay", adminTok, `{}`), 400, api.CodeInvalidArgument)
	if f := fieldOf(t, s); f != "update_mask" || !strings.Contains(s.Message, "custom assembly") {
		t.Errorf("custom_overlay: field %q, message %q", f, s.Message)
	}
}

// TestSyncedRepo: a repo that syncs from another has its sync config under
// the JSON key sync_config, and refuses changes to what its source gives
// it (tier, bundles, aliases, active tags), but not to the rest.
func TestSyncedRepo(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	synced := e.list("/registry/v2/repos", "repos", url.Values{"name": {"static-synced"}})
	if len(synced.Items) != 1 {
		t.Fatalf("static-synced: %d repos", len(synced.Items))
	}
	uid := synced.Items[0]["uid"].(string)
	r := e.get("/registry/v2/repos/" + uid)
	var raw map[string]json.RawMessage
	e.ok(r, &raw)
	if _, ok := raw["sync_config"]; !ok || strings.Contains(string(r.body), "syncConfig") {
		t.Fatalf("synced repo: %s", r.body)
	}
	var repo, src api.Repo
	e.ok(r, &repo)
	e.ok(e.get("/registry/v2/repos/"+repo.SyncConfig.Source), &src)
	if src.Name != "static" || repo.CatalogTier != src.CatalogTier || mustJSON(repo.Aliases) != mustJSON(src.Aliases) {
		t.Fatalf("synced %s from %s", mustJSON(repo), mustJSON(src))
	}
	changed := api.Repo{CatalogTier: "CATALOG_TIER_FIPS", Bundles: []string{"x"}, Aliases: []string{"y"}, ActiveTags: []string{"z"}}
	for path, field := range map[string]string{"catalog_tier": "catalogTier", "bundles": "bundles", "aliases": "aliases", "active_tags": "activeTags"} {
		s := wantErr(t, e.call("PATCH", "/registry/v2/repos/"+uid+"?update_mask="+path, adminTok, changed), 400, api.CodeInvalidArgument)
		if f := fieldOf(t, s); f != field {
			t.Errorf("%s: field %q", path, f)
		}
	}
	var got api.Repo
	e.ok(e.call("PATCH", "/registry/v2/repos/"+uid+"?update_mask=description", adminTok, api.Repo{Description: "Mine."}), &got)
	if got.Description != "Mine." || got.SyncConfig == nil {
		t.Errorf("description: %s", mustJSON(got))
	}
	// The whole repo back, as read: nothing it inherits changes.
	got.Description = "Mine, again."
	e.ok(e.call("PATCH", "/registry/v2/repos/"+uid+"?update_mask=*", adminTok, got), &got)
	if got.Description != "Mine, again." || got.SyncConfig.Source != src.UID {
		t.Errorf("*: %s", mustJSON(got))
	}
	// A member of the sync config: the source and the server's parts stay.
	e.ok(e.call("PATCH", "/registry/v2/repos/"+uid+"?update_mask=sync_config.google", adminTok,
		`{"sync_config":{"google":"us-docker.pkg.dev/acme/static","source":"ignored"}}`), &got)
	if got.SyncConfig.Google == "" || got.SyncConfig.Source != src.UID || !got.SyncConfig.ExpirationTime.Equal(repo.SyncConfig.ExpirationTime) {
		t.Errorf("sync_config.google: %s", mustJSON(got.SyncConfig))
	}
	// A repo set to sync takes its source's tier and the rest.
	nginx := e.repoUID("nginx")
	e.ok(e.call("PATCH", "/registry/v2/repos/"+nginx+"?update_mask=sync_config", adminTok,
		`{"sync_config":{"source":"`+src.UID+`"}}`), &got)
	if got.SyncConfig == nil || got.CatalogTier != src.CatalogTier || mustJSON(got.Aliases) != mustJSON(src.Aliases) || got.Name != "nginx" {
		t.Errorf("set to sync: %s", mustJSON(got))
	}
	s := wantErr(t, e.call("PATCH", "/registry/v2/repos/"+nginx+"?update_mask=sync_config", adminTok, `{"sync_config":{"source":"nope"}}`), 400, api.CodeInvalidArgument)
	if f := fieldOf(t, s); f != "sync_config.source" {
		t.Errorf("unknown source: field %q", f)
	}
}

// TestGroupMask: a group's name and description are updatable by their
// proto paths; verified and kind are not, and say why.
func TestGroupMask(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	data := e.groupUID("data")
	var g api.Group
	e.ok(e.call("PATCH", "/iam/v2/groups/"+data+"?updateMask=name", adminTok, api.Group{Name: "data-platform", Description: "not this"}), &g)
	if g.Name != "data-platform" || g.Description != "Data platform." {
		t.Errorf("name: %+v", g)
	}
	e.ok(e.call("PATCH", "/iam/v2/groups/"+data+"?update_mask=description", adminTok, api.Group{Description: "Data."}), &g)
	if g.Name != "data-platform" || g.Description != "Data." {
		t.Errorf("description: %+v", g)
	}
	for mask, want := range map[string]string{"verified": "Chainguard staff", "kind": "kind", "resource_limits": "cannot be updated",
		"createTime": "create_time", "status": "cannot be updated"} {
		s := wantErr(t, e.call("PATCH", "/iam/v2/groups/"+data+"?update_mask="+url.QueryEscape(mask), adminTok, `{}`), 400, api.CodeInvalidArgument)
		if f := fieldOf(t, s); f != "update_mask" || !strings.Contains(s.Message, want) {
			t.Errorf("%s: field %q, message %q", mask, f, s.Message)
		}
	}
	// A seeded name shorter than the service allows stays through an edit
	// of the description; a new one is checked.
	ci := e.groupUID("ci")
	e.ok(e.call("PATCH", "/iam/v2/groups/"+ci+"?update_mask=*", adminTok, api.Group{Name: "ci", Description: "CI."}), &g)
	wantErr(t, e.call("PATCH", "/iam/v2/groups/"+ci+"?update_mask=name", adminTok, api.Group{Name: "cd"}), 400, api.CodeInvalidArgument)
}
