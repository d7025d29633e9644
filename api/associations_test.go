package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"canopy/api"
	"canopy/api/emulator"
)

// walkAll reads every item of a lister over pages of size.
func walkAll[T any](t *testing.T, list api.Lister[T], opts api.ListOptions, key func(*T) string) []string {
	t.Helper()
	opts.PageSize = 2
	var out []string
	for it, err := range api.NewCursor(list, opts, key).All(t.Context()) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, key(&it))
	}
	return out
}

// The organization's associations under it: the service's descendants
// leave its own out, so the walk reads it by its uid and puts it first,
// counted; over pages and skips each is there once.
func TestAccountAssociationsUnder(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client
	plain := must(c.ListAccountAssociations(ctx, api.ListOptions{DescendantsOf: e.org}))(t)
	if len(plain.Items) != 4 || slices.ContainsFunc(plain.Items, func(a api.AccountAssociation) bool { return a.UID == e.org }) {
		t.Fatalf("the service's descendants: %d", len(plain.Items))
	}
	under := c.AccountAssociationsUnder()
	first := must(under(ctx, api.ListOptions{DescendantsOf: e.org, PageSize: 2}))(t)
	if len(first.Items) != 2 || first.Items[0].UID != e.org || first.Total != 5 {
		t.Fatalf("first page: %d items, total %d, first %s", len(first.Items), first.Total, first.Items[0].UID)
	}
	all := walkAll(t, under, api.ListOptions{DescendantsOf: e.org}, api.AccountAssociationKey)
	if len(all) != 5 || all[0] != e.org {
		t.Fatalf("walked %v", all)
	}
	skipped := must(under(ctx, api.ListOptions{DescendantsOf: e.org, PageSize: 2, Skip: 3}))(t)
	if len(skipped.Items) != 2 || skipped.Items[0].UID != all[3] || skipped.Skipped != 3 || skipped.Total != 5 {
		t.Errorf("skip 3: %+v, want %v", skipped, all[3:])
	}
}

// A service that counts a folder among its own descendants: the walk
// gives the same rows, the folder's own once, first, and the same total.
func TestAccountAssociationsUnderCountingItself(t *testing.T) {
	t.Parallel()
	srv, err := emulator.New(emulator.Options{AdminToken: adminToken, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	org := srv.OrgUID()
	// Every association is the organization's: no filter is the
	// organization with itself.
	url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if q := r.URL.Query(); r.URL.Path == "/iam/v2/accountAssociations" && q.Get("uidp.descendants_of") == org {
			q.Del("uidp.descendants_of")
			r.URL.RawQuery = q.Encode()
		}
		srv.ServeHTTP(w, r)
	}))
	c := newClient(t, url, api.Options{TokenSource: static(adminToken)})
	under := c.AccountAssociationsUnder()
	// Its first page is a row short: the folder's own took the place of
	// one, then came again.
	first := must(under(t.Context(), api.ListOptions{DescendantsOf: org, PageSize: 2}))(t)
	if len(first.Items) != 1 || first.Items[0].UID != org || first.Total != 5 {
		t.Fatalf("first page: %+v", first)
	}
	all := walkAll(t, under, api.ListOptions{DescendantsOf: org}, api.AccountAssociationKey)
	if len(all) != 5 || all[0] != org || slices.Index(all[1:], org) >= 0 {
		t.Errorf("walked %v", all)
	}
}

// Every call of an association against the emulator: what each sends and
// reads, and the service's refusals, typed.
func TestAccountAssociationCalls(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client
	apps := pick(t, must(c.ListGroups(ctx, api.ListOptions{ChildrenOf: e.org, Name: "apps"}))(t).Items,
		func(g api.Group) bool { return g.Name == "apps" }).UID
	if got := must(c.FindAccountAssociation(ctx, apps))(t); got != nil {
		t.Fatalf("apps has %+v", got)
	}
	e.rec.reset()
	a := must(c.CreateAccountAssociation(ctx, apps, api.AccountAssociation{UID: "ignored", Name: "apps-aws",
		Amazon: &api.AmazonAccount{Account: "210987654321"}}))(t)
	r := e.rec.last(t)
	if r.Method != http.MethodPost || r.Path != "/iam/v2/accountAssociations/"+apps || string(r.Body) != `{"name":"apps-aws","amazon":{"account":"210987654321"}}` {
		t.Fatalf("sent %s %s %s", r.Method, r.URI, r.Body)
	}
	if a.UID != apps || a.GetParent() != apps || a.CreateTime.IsZero() {
		t.Fatalf("made %+v", a)
	}
	if got := must(c.FindAccountAssociation(ctx, apps))(t); got == nil || got.Name != "apps-aws" {
		t.Errorf("found %+v", got)
	}
	if _, err := c.CreateAccountAssociation(ctx, apps, api.AccountAssociation{Name: "again"}); api.CodeOf(err) != api.CodeAlreadyExists {
		t.Errorf("a second: %v", err)
	}
	if _, err := c.CreateAccountAssociation(ctx, e.org+"/0123456789abcdef", api.AccountAssociation{Name: "x"}); !api.IsNotFound(err) {
		t.Errorf("in no folder: %v", err)
	}

	next := *a
	next.Google = &api.GoogleProject{ProjectID: "acme-apps", ProjectNumber: "4815162342"}
	e.rec.reset()
	got := must(c.PatchAccountAssociation(ctx, next, api.FieldGoogle))(t)
	if r := e.rec.last(t); r.Query.Get("update_mask") != "google" || string(r.Body) != `{"google":{"projectId":"acme-apps","projectNumber":"4815162342"}}` {
		t.Fatalf("sent %s %s", r.URI, r.Body)
	}
	if got.Google == nil || got.Amazon == nil {
		t.Fatalf("google added: %+v", got)
	}
	next = *got
	next.Amazon = nil
	e.rec.reset()
	got = must(c.PatchAccountAssociation(ctx, next, api.FieldAmazon))(t)
	if r := e.rec.last(t); string(r.Body) != `{}` || got.Amazon != nil || got.Google == nil {
		t.Fatalf("amazon removed: sent %s, got %+v", r.Body, got)
	}
	next.Google.ProjectID = "Not An Id"
	if _, err := c.PatchAccountAssociation(ctx, next, api.FieldGoogle); !api.IsInvalidArgument(err) ||
		api.FieldViolations(err)[0].Field != "google.project_id" {
		t.Errorf("a bad project id: %v", err)
	}

	e.rec.reset()
	ck := must(c.CheckAccountAssociation(ctx, apps, api.ProviderGoogle))(t)
	if r := e.rec.last(t); r.URI != "/iam/v2/accountAssociations/"+apps+":checkAccountAssociation" ||
		string(r.Body) != `{"providerType":"ACCOUNT_PROVIDER_TYPE_GOOGLE"}` || ck.Status != api.CheckReady {
		t.Fatalf("sent %s %s, read %+v", r.URI, r.Body, ck)
	}
	if ck := must(c.CheckAccountAssociation(ctx, apps, api.ProviderAzure))(t); ck.Status != api.CheckNotReady || ck.Reason != "not configured" {
		t.Errorf("azure: %+v", ck)
	}
	platform := pick(t, must(c.ListAccountAssociations(ctx, api.ListOptions{Name: "platform-aws"}))(t).Items,
		func(a api.AccountAssociation) bool { return a.Name == "platform-aws" })
	if ins := platform.GitHub.AppInstallations["1029384"].Installations; len(ins) != 2 || ins[0].InstallationID != 51873205 {
		t.Errorf("platform's GitHub installations: %+v", ins)
	}
	if want := []string{api.ProviderAmazon}; !slices.Equal(platform.Checkable(), want) {
		t.Errorf("platform checks %v", platform.Checkable())
	}

	must(0, c.DeleteAccountAssociation(ctx, apps))(t)
	if _, err := c.GetAccountAssociation(ctx, apps); !api.IsNotFound(err) {
		t.Errorf("read after the delete: %v", err)
	}
	must(0, c.DeleteAccountAssociation(ctx, apps))(t) // done already: the service says so as done
	var body map[string]any
	if err := json.Unmarshal(e.rec.last(t).Body, &body); err == nil {
		t.Errorf("a delete with a body: %v", body)
	}
}
