package api_test

import (
	"net/http"
	"slices"
	"testing"

	"canopy/api"
	"canopy/api/emulator"
)

// ignoring serves the emulator as a server that ignores the filters of
// those query names: it drops them from every request.
func ignoring(t *testing.T, filters ...string) (*api.Client, *api.Client, string) {
	t.Helper()
	srv, err := emulator.New(emulator.Options{Seed: 1, AdminToken: adminToken})
	if err != nil {
		t.Fatal(err)
	}
	url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		for _, f := range filters {
			q.Del(f)
		}
		r.URL.RawQuery = q.Encode()
		srv.ServeHTTP(w, r)
	}))
	truth := newClient(t, serve(t, srv), api.Options{TokenSource: static(adminToken), Retry: api.NoRetry()})
	return newClient(t, url, api.Options{TokenSource: static(adminToken), Retry: api.NoRetry()}), truth, srv.OrgUID()
}

// TestFiltersTheServerIgnoresAreHeld: a page asked with a filter the
// server ignores holds only the items the filter allows, says which
// filter was ignored and has no total; the client remembers it, so a
// count never believes a total of that collection again, and counts what
// it read itself (Own), agreeing with a server that honours the filter.
func TestFiltersTheServerIgnoresAreHeld(t *testing.T) {
	t.Parallel()
	c, truth, org := ignoring(t, "latest_event_type", "name")
	ctx := t.Context()
	all, err := truth.ListAdvisories(ctx, api.ListOptions{PageSize: api.MaxPageSize})
	if err != nil || len(all.Items) == 0 {
		t.Fatalf("advisories: %v", err)
	}
	o := api.ListOptions{LatestEventType: api.EventFixed, PageSize: api.MaxPageSize}
	got, err := c.ListAdvisories(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Ignored, []string{"latest_event_type"}) || got.HasTotal {
		t.Errorf("ignored %v, total %v %d: want latest_event_type noted and no total", got.Ignored, got.HasTotal, got.Total)
	}
	for _, a := range got.Items {
		if l := a.LatestApproved(); l == nil || l.Kind != api.EventFixed {
			t.Errorf("%s kept, but its latest event is %+v", a.AdvisoryID, l)
		}
	}
	if !slices.Equal(c.IgnoredFilters("advisories"), []string{"latest_event_type"}) {
		t.Errorf("the client remembers %v", c.IgnoredFilters("advisories"))
	}

	// A count of that collection and filter is the client's own, and right.
	for _, kind := range []string{api.EventFixed, api.EventDetection} {
		o := api.ListOptions{LatestEventType: kind}
		n, err := api.CountItems(ctx, c.ListAdvisories, o, 50)
		if err != nil {
			t.Fatal(err)
		}
		w, err := api.CountItems(ctx, truth.ListAdvisories, o, 50)
		if err != nil {
			t.Fatal(err)
		}
		if n.N != w.N || !n.Own || n.Read < n.N || w.Own {
			t.Errorf("%s: counted %+v, the server that filters says %+v", kind, n, w)
		}
	}

	// A name ignored: only the repo of that name.
	repos, err := c.ListRepos(ctx, api.ListOptions{DescendantsOf: org, Name: "alertmanager"})
	if err != nil || len(repos.Items) != 1 || repos.Items[0].Name != "alertmanager" || !slices.Equal(repos.Ignored, []string{"name"}) {
		t.Errorf("repos named alertmanager: %+v %v", repos, err)
	}
	// A filter honoured is not noted.
	if f := c.IgnoredFilters("repos"); !slices.Equal(f, []string{"name"}) {
		t.Errorf("repos: ignored %v", f)
	}
}

// TestHiddenTagsTheServerListsAreHeld: a server that lists every kind of
// tag whatever was asked (signatures, dated tags, epoch rebuilds) is held
// to the kinds a listing leaves out: they are dropped, the filter noted,
// the total not believed, and a count agrees with a server that hides
// them.
func TestHiddenTagsTheServerListsAreHeld(t *testing.T) {
	t.Parallel()
	srv, err := emulator.New(emulator.Options{Seed: 1, AdminToken: adminToken})
	if err != nil {
		t.Fatal(err)
	}
	url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		for _, f := range []string{"include_referrers", "include_dates", "include_epochs"} {
			q.Set(f, "true")
		}
		r.URL.RawQuery = q.Encode()
		srv.ServeHTTP(w, r)
	}))
	c := newClient(t, url, api.Options{TokenSource: static(adminToken), Retry: api.NoRetry()})
	truth := newClient(t, serve(t, srv), api.Options{TokenSource: static(adminToken), Retry: api.NoRetry()})
	ctx := t.Context()
	repos, err := truth.ListRepos(ctx, api.ListOptions{DescendantsOf: srv.OrgUID(), Name: "python"})
	if err != nil || len(repos.Items) != 1 {
		t.Fatalf("python: %v", err)
	}
	o := api.ListOptions{ChildrenOf: repos.Items[0].UID, PageSize: api.MaxPageSize}
	everything := o
	everything.IncludeReferrers, everything.IncludeDates, everything.IncludeEpochs = true, true, true
	all, err := api.CountItems(ctx, truth.ListTags, everything, 50)
	if err != nil {
		t.Fatal(err)
	}
	want, err := api.CountItems(ctx, truth.ListTags, o, 50)
	if err != nil || want.N >= all.N {
		t.Fatalf("python lists %d tags, %d with the hidden ones (%v): nothing to hold", want.N, all.N, err)
	}
	p, err := c.ListTags(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Ignored) == 0 || p.HasTotal {
		t.Errorf("ignored %v, total %v: want the hidden kinds noted and no total", p.Ignored, p.HasTotal)
	}
	for _, tag := range p.Items {
		if f := api.TagShownBy(tag.Name); f != "" {
			t.Errorf("%s kept, though only %s shows it", tag.Name, f)
		}
	}
	got, err := api.CountItems(ctx, c.ListTags, o, 50)
	if err != nil || got.N != want.N || !got.Own {
		t.Errorf("counted %+v (%v), the server that hides them says %d", got, err, want.N)
	}
	// Asked for, they stay.
	if got, err := api.CountItems(ctx, c.ListTags, everything, 50); err != nil || got.N != all.N {
		t.Errorf("with the hidden kinds asked: %+v (%v), want %d", got, err, all.N)
	}
}

func TestTagShownBy(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"3.12": "", "latest": "", "sha256-abc.sig": "include_referrers", "3.12-20240115": "include_dates",
		"3.12-19991231": "", "3.12-r3": "include_epochs", "3.12-r": "", "dev-rc1": "", "x-2024011": "",
	} {
		if got := api.TagShownBy(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

// TestIDsTheServerIgnoresAreHeld: repos asked by uid (uidp.ids) from a
// server that ignores the filter hold only those uids, and say so.
func TestIDsTheServerIgnoresAreHeld(t *testing.T) {
	t.Parallel()
	c, truth, org := ignoring(t, "uidp.ids")
	ctx := t.Context()
	some, err := truth.ListRepos(ctx, api.ListOptions{DescendantsOf: org, PageSize: 3})
	if err != nil || len(some.Items) != 3 {
		t.Fatalf("repos: %v", err)
	}
	want := []string{some.Items[0].UID, some.Items[2].UID}
	o := api.ListOptions{DescendantsOf: org, IDs: want, PageSize: api.MaxPageSize}
	for name, client := range map[string]*api.Client{"honoured": truth, "ignored": c} {
		p, err := client.ListRepos(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range p.Items {
			got = append(got, r.UID)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: repos %v, want %v", name, got, want)
		}
		if ignored := slices.Contains(p.Ignored, "uidp.ids"); ignored != (name == "ignored") {
			t.Errorf("%s: the page says ignored %v", name, p.Ignored)
		}
	}
}
