package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
)

// TestRequestsSayWhatIsSent: the Request a Collection describes (what a
// preview shows) is the request its client call sends, and the Change
// the client reports carries it (API path without the base URL's, mask)
// and the note the caller put on the context.
func TestRequestsSayWhatIsSent(t *testing.T) {
	t.Parallel()
	var got []Request
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path, _ := url.PathUnescape(r.URL.EscapedPath())
		got = append(got, Request{Method: r.Method, Path: path[len("/base"):], Mask: r.URL.Query().Get("update_mask")})
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{}`))
	}))
	t.Cleanup(hs.Close)
	var changes []Change
	c, err := New(Options{BaseURL: hs.URL + "/base", TokenSource: StaticToken("t", "test"), Retry: RetryPolicy{MaxAttempts: 1},
		Observe: func(ch Change) { changes = append(changes, ch) }})
	if err != nil {
		t.Fatal(err)
	}
	const group, uid = "0123456789abcdef0123456789abcdef01234567", "0123456789abcdef0123456789abcdef01234567/0123456789abcdef"
	calls := []struct {
		want Request
		call func(ctx context.Context) error
	}{
		{Groups.Create(group), func(ctx context.Context) error { _, err := c.CreateGroup(ctx, group, Group{Name: "x"}); return err }},
		{Groups.Patch(uid, FieldName), func(ctx context.Context) error {
			_, err := c.PatchGroup(ctx, Group{UID: uid, Name: "x"}, FieldName)
			return err
		}},
		{Groups.Delete(uid), func(ctx context.Context) error { return c.DeleteGroup(ctx, uid) }},
		{Repos.Create(group), func(ctx context.Context) error { _, err := c.CreateRepo(ctx, group, Repo{Name: "x"}); return err }},
		{Repos.Patch(uid, FieldDescription, FieldCatalogTier), func(ctx context.Context) error {
			_, err := c.PatchRepo(ctx, Repo{UID: uid}, FieldDescription, FieldCatalogTier)
			return err
		}},
		{Repos.Delete(uid), func(ctx context.Context) error { return c.DeleteRepo(ctx, uid) }},
		{Tags.Create(uid), func(ctx context.Context) error { _, err := c.CreateTag(ctx, uid, "v1", "sha256:00"); return err }},
		{Tags.Delete(uid), func(ctx context.Context) error { return c.DeleteTag(ctx, uid) }},
		{Identities.Create(group), func(ctx context.Context) error {
			_, err := c.CreateIdentity(ctx, group, Identity{Name: "bot"})
			return err
		}},
		{Identities.Patch(uid, ClaimMatchField(ClaimSubject)), func(ctx context.Context) error {
			_, err := c.PatchIdentity(ctx, Identity{UID: uid, ClaimMatch: &ClaimMatch{Subject: "s"}}, ClaimMatchField(ClaimSubject))
			return err
		}},
		{Identities.Delete(uid), func(ctx context.Context) error { return c.DeleteIdentity(ctx, uid) }},
		{RoleBindings.Create(group), func(ctx context.Context) error {
			_, err := c.CreateRoleBinding(ctx, group, CreateRoleBinding{IdentityUID: uid, RoleUID: "r"})
			return err
		}},
		{RoleBindings.Delete(uid), func(ctx context.Context) error { return c.DeleteRoleBinding(ctx, uid) }},
		{Subscriptions.Create(group), func(ctx context.Context) error {
			_, err := c.CreateSubscription(ctx, group, Subscription{Sink: "https://x"})
			return err
		}},
		{Subscriptions.Delete(uid), func(ctx context.Context) error { return c.DeleteSubscription(ctx, uid) }},
	}
	for i, k := range calls {
		note := &Note{What: k.want.String()}
		if err := k.call(WithNote(context.Background(), note)); err != nil {
			t.Fatalf("%s: %v", k.want, err)
		}
		if got[i] != k.want {
			t.Errorf("sent %s, described as %s", got[i], k.want)
		}
		if ch := changes[i]; ch.Request() != k.want || ch.Note != note {
			t.Errorf("the change of %s says %s with note %+v", k.want, ch.Request(), ch.Note)
		}
	}
	if _, err := c.GetRepo(WithNote(context.Background(), &Note{What: "a read"}), uid); err != nil || len(changes) != len(calls) {
		t.Errorf("a read was reported as a change (%v): %+v", err, changes[len(calls):])
	}
}

// TestRequestLines: a request in full and shortened, as previews show it.
func TestRequestLines(t *testing.T) {
	t.Parallel()
	uid := "0123456789abcdef0123456789abcdef01234567/0123456789abcdef/121222eda7a9eba3"
	for _, tc := range []struct {
		r           Request
		full, short string
	}{
		{Repos.Patch(uid, FieldDescription), "PATCH /registry/v2/repos/" + uid + "?update_mask=description",
			"PATCH /registry/v2/repos/…/121222eda7a9eba3?update_mask=description"},
		{RoleBindings.Create("org"), "POST /iam/v2/roleBindings/org", "POST /iam/v2/roleBindings/org"},
		{Tags.Delete(uid), "DELETE /registry/v2/tags/" + uid, "DELETE /registry/v2/tags/…/121222eda7a9eba3"},
	} {
		if tc.r.String() != tc.full || tc.r.Short() != tc.short {
			t.Errorf("%+v: %q and %q, want %q and %q", tc.r, tc.r.String(), tc.r.Short(), tc.full, tc.short)
		}
	}
}
