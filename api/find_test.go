package api_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"canopy/api"
	"canopy/api/emulator"
)

// TestFindsWhatACreateLeft: each Find gives the resource made under its
// parent, and nil (no error) for one the server does not have, however
// close (the same name in another folder, another sink, another role).
func TestFindsWhatACreateLeft(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client
	g := must(c.CreateGroup(ctx, e.org, api.Group{Name: "lost-answers"}))(t)
	other := must(c.CreateGroup(ctx, e.org, api.Group{Name: "elsewhere"}))(t)
	repo := must(c.CreateRepo(ctx, g.UID, api.Repo{Name: "kept"}))(t)
	must(c.CreateRepo(ctx, other.UID, api.Repo{Name: "only-elsewhere"}))(t)
	id := must(c.CreateIdentity(ctx, g.UID, api.Identity{Name: "robot",
		ClaimMatch: &api.ClaimMatch{Issuer: "https://issuer.example", Subject: "s"}}))(t)
	digest := "sha256:" + strings.Repeat("ab", 32)
	tag := must(c.CreateTag(ctx, repo.UID, "v1", digest))(t)
	sub := must(c.CreateSubscription(ctx, g.UID, api.Subscription{Sink: "https://hooks.example/a"}))(t)
	b := must(c.CreateRoleBinding(ctx, g.UID, api.CreateRoleBinding{IdentityUID: id.UID, RoleUID: viewerRole}))(t)

	if got := must(c.FindGroup(ctx, e.org, "lost-answers"))(t); got == nil || got.UID != g.UID {
		t.Errorf("FindGroup: %+v", got)
	}
	if got := must(c.FindRepo(ctx, g.UID, "kept"))(t); got == nil || got.UID != repo.UID {
		t.Errorf("FindRepo: %+v", got)
	}
	if got := must(c.FindIdentity(ctx, g.UID, "robot"))(t); got == nil || got.UID != id.UID {
		t.Errorf("FindIdentity: %+v", got)
	}
	if got := must(c.FindTag(ctx, repo.UID, "v1"))(t); got == nil || got.UID != tag.UID || got.Digest != digest {
		t.Errorf("FindTag: %+v", got)
	}
	if got := must(c.FindSubscription(ctx, g.UID, "https://hooks.example/a"))(t); got == nil || got.UID != sub.UID {
		t.Errorf("FindSubscription: %+v", got)
	}
	if got := must(c.FindRoleBinding(ctx, g.UID, id.UID, viewerRole))(t); got == nil || got.UID != b.UID {
		t.Errorf("FindRoleBinding: %+v", got)
	}

	// Not there: nil and no error, each a near miss.
	misses := map[string]func() (any, error){
		"group":        func() (any, error) { return c.FindGroup(ctx, g.UID, "lost-answers") },
		"repo":         func() (any, error) { return c.FindRepo(ctx, g.UID, "only-elsewhere") },
		"identity":     func() (any, error) { return c.FindIdentity(ctx, other.UID, "robot") },
		"tag":          func() (any, error) { return c.FindTag(ctx, repo.UID, "v2") },
		"subscription": func() (any, error) { return c.FindSubscription(ctx, g.UID, "https://hooks.example/b") },
		"binding":      func() (any, error) { return c.FindRoleBinding(ctx, e.org, id.UID, viewerRole) },
	}
	for what, find := range misses {
		got, err := find()
		if err != nil {
			t.Errorf("%s: %v", what, err)
		}
		switch v := got.(type) {
		case *api.Group:
			if v != nil {
				t.Errorf("%s found %+v", what, v)
			}
		case *api.Repo:
			if v != nil {
				t.Errorf("%s found %+v", what, v)
			}
		case *api.Identity:
			if v != nil {
				t.Errorf("%s found %+v", what, v)
			}
		case *api.Tag:
			if v != nil {
				t.Errorf("%s found %+v", what, v)
			}
		case *api.Subscription:
			if v != nil {
				t.Errorf("%s found %+v", what, v)
			}
		case *api.RoleBinding:
			if v != nil {
				t.Errorf("%s found %+v", what, v)
			}
		}
	}
	// The requests asked for the name under the parent.
	for _, r := range e.rec.all() {
		if r.Method == http.MethodGet && strings.HasPrefix(r.Path, "/registry/v2/repos") &&
			(r.Query.Get("name") == "" || r.Query.Get("uidp.children_of") == "") {
			t.Errorf("a repo lookup without the name under its parent: %s", r.URI)
		}
	}
}

// TestFindNeverSaysNotThereWithoutReadingToTheEnd: a server that ignores
// the filter and never ends its pages (or repeats a token) gives an error
// after a bounded number of requests, never "not there", which would let
// a create be sent twice.
func TestFindNeverSaysNotThereWithoutReadingToTheEnd(t *testing.T) {
	t.Parallel()
	for _, repeat := range []bool{false, true} {
		var n atomic.Int32
		url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			i := n.Add(1)
			token := "t" + strconv.Itoa(int(i))
			if repeat {
				token = "same"
			}
			_ = json.NewEncoder(w).Encode(map[string]any{
				"repos":         []map[string]string{{"uid": "org/" + strconv.Itoa(int(i)), "name": "someone-else"}},
				"nextPageToken": token,
			})
		}))
		c := newClient(t, url, api.Options{TokenSource: static("t")})
		got, err := c.FindRepo(t.Context(), "org", "wanted")
		if got != nil || !errors.Is(err, api.ErrFindIncomplete) {
			t.Errorf("repeat=%v: got %+v, %v; want ErrFindIncomplete", repeat, got, err)
		}
		if max := 10; int(n.Load()) > max {
			t.Errorf("repeat=%v: %d requests, want at most %d", repeat, n.Load(), max)
		}
	}
}
