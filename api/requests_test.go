package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
)

// TestRequests checks the exact request each kind of call sends: method,
// path with uids unescaped, snake_case query names, body and headers.
func TestRequests(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client
	py := repoNamed(t, e, "python")
	latest := must(c.ListTags(ctx, api.ListOptions{ChildrenOf: py.UID, Name: "latest"}))(t).Items[0]
	carol := must(c.ListIdentities(ctx, api.ListOptions{Name: "carol"}))(t).Items[0]
	platform := must(c.ListGroups(ctx, api.ListOptions{ChildrenOf: e.org, Name: "platform"}))(t).Items[0]
	arch := must(c.GetArchitectures(ctx, py.UID, latest.Digest))(t).Architectures[0]

	cases := []struct {
		name  string
		call  func(context.Context) error
		want  string              // method and request target, as sent
		query map[string][]string // instead of a query in want: compared decoded
		body  map[string]any      // nil: no body
	}{
		{name: "patch repo",
			call: func(ctx context.Context) error {
				_, err := c.PatchRepo(ctx, api.Repo{UID: py.UID, Description: "new words"}, api.FieldDescription)
				return err
			},
			want: "PATCH /registry/v2/repos/" + py.UID + "?update_mask=description",
			body: map[string]any{"description": "new words"}}, // only the masked field
		{name: "patch group, two fields",
			call: func(ctx context.Context) error {
				_, err := c.PatchGroup(ctx, api.Group{UID: platform.UID, Name: "platform", Description: "d"}, api.FieldName, api.FieldDescription)
				return err
			},
			want:  "PATCH /iam/v2/groups/" + platform.UID,
			query: map[string][]string{"update_mask": {"name,description"}},
			body:  map[string]any{"name": "platform", "description": "d"}},
		{name: "get repo", want: "GET /registry/v2/repos/" + py.UID,
			call: func(ctx context.Context) error { _, err := c.GetRepo(ctx, py.UID); return err }},
		{name: "readme", want: "GET /registry/v2/repos/" + py.UID + "/readme",
			call: func(ctx context.Context) error { _, err := c.GetRepoReadme(ctx, py.UID); return err }},
		{name: "image size", want: "GET /registry/v2/repos/" + py.UID + "/digests/" + latest.Digest + "/size?architecture=" + arch,
			call: func(ctx context.Context) error {
				_, err := c.GetImageSize(ctx, py.UID, latest.Digest, arch)
				return err
			}},
		{name: "list tags", want: "GET /registry/v2/tags",
			call: func(ctx context.Context) error {
				_, err := c.ListTags(ctx, api.ListOptions{DescendantsOf: e.org, PageSize: 7, OrderBy: api.OrderNameDesc, Skip: 3, IncludeReferrers: true})
				return err
			},
			query: map[string][]string{"uidp.descendants_of": {e.org}, "page_size": {"7"}, "order_by": {"name desc"},
				"skip": {"3"}, "include_referrers": {"true"}}},
		{name: "list children, page token", want: "GET /iam/v2/groups",
			call: func(ctx context.Context) error {
				_, err := c.ListGroups(ctx, api.ListOptions{ChildrenOf: e.org, PageToken: "opaque"})
				return err
			},
			query: map[string][]string{"uidp.children_of": {e.org}, "page_token": {"opaque"}}},
		{name: "organizations", want: "GET /iam/v2/groups?uidp.in_root=true",
			call: func(ctx context.Context) error {
				_, err := c.ListGroups(ctx, api.ListOptions{InRoot: true})
				return err
			}},
		{name: "advisory filters", want: "GET /vulnerabilities/v2/advisories",
			call: func(ctx context.Context) error {
				_, err := c.ListAdvisories(ctx, api.ListOptions{ArtifactNames: []string{"openssl", "curl"},
					AdvisoryIDs: []string{"CGA-aaaa-bbbb-cccc", "CGA-dddd-eeee-ffff"}, Query: "cve"})
				return err
			},
			query: map[string][]string{"artifact_names": {"openssl", "curl"},
				"advisory_ids": {"CGA-aaaa-bbbb-cccc", "CGA-dddd-eeee-ffff"}, "query": {"cve"}}},
		{name: "binding filters", want: "GET /iam/v2/roleBindings",
			call: func(ctx context.Context) error {
				_, err := c.ListRoleBindings(ctx, api.ListOptions{Identity: carol.UID, Group: e.org, Role: viewerRole})
				return err
			},
			query: map[string][]string{"identity": {carol.UID}, "group": {e.org}, "role": {viewerRole}}},
		{name: "artifact count", want: "GET /libraries/v2/artifacts/count",
			call: func(ctx context.Context) error {
				_, err := c.CountArtifacts(ctx, api.EcosystemJava, api.EcosystemPython)
				return err
			},
			query: map[string][]string{"ecosystems": {api.EcosystemJava, api.EcosystemPython}}},
		{name: "create binding", want: "POST /iam/v2/roleBindings/" + platform.UID,
			call: func(ctx context.Context) error {
				_, err := c.CreateRoleBinding(ctx, platform.UID, api.CreateRoleBinding{IdentityUID: carol.UID, RoleUID: viewerRole})
				return err
			},
			body: map[string]any{"identityUid": carol.UID, "roleUid": viewerRole}},
		{name: "create identity", want: "POST /iam/v2/identities/" + platform.UID,
			call: func(ctx context.Context) error {
				_, err := c.CreateIdentity(ctx, platform.UID, api.Identity{Name: "robot", Description: "beep",
					ClaimMatch: &api.ClaimMatch{Issuer: "https://issuer.example", Subject: "robot-1"}})
				return err
			},
			body: map[string]any{"name": "robot", "description": "beep",
				"claimMatch": map[string]any{"issuer": "https://issuer.example", "subject": "robot-1"}}},
		{name: "create tag", want: "POST /registry/v2/tags/" + py.UID,
			call: func(ctx context.Context) error {
				_, err := c.CreateTag(ctx, py.UID, "pinned", latest.Digest)
				return err
			},
			body: map[string]any{"name": "pinned", "digest": latest.Digest}},
		{name: "delete tag", want: "DELETE /registry/v2/tags/" + latest.UID,
			call: func(ctx context.Context) error { return c.DeleteTag(ctx, latest.UID) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.rec.reset()
			if err := tc.call(ctx); err != nil {
				t.Fatalf("call: %v", err)
			}
			if n := e.rec.count(); n != 1 {
				t.Fatalf("%d requests, want 1", n)
			}
			r := e.rec.last(t)
			got := r.Method + " " + r.URI
			if tc.query != nil {
				got, _, _ = strings.Cut(got, "?")
				if !maps.EqualFunc(r.Query, tc.query, slices.Equal) {
					t.Errorf("query = %v, want %v", r.Query, tc.query)
				}
			}
			if got != tc.want {
				t.Errorf("request = %s\nwant      %s", got, tc.want)
			}
			for h, want := range map[string]string{"User-Agent": "canopy/" + api.Version,
				"Accept": "application/json", "Authorization": "Bearer " + adminToken} {
				if v := r.Header.Get(h); v != want {
					t.Errorf("%s = %q, want %q", h, v, want)
				}
			}
			if tc.body == nil {
				if len(r.Body) != 0 || r.Header.Get("Content-Type") != "" {
					t.Errorf("body %q (Content-Type %q), want none", r.Body, r.Header.Get("Content-Type"))
				}
				return
			}
			if ct := r.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type = %q", ct)
			}
			var body map[string]any
			if err := json.Unmarshal(r.Body, &body); err != nil || !equalJSON(body, tc.body) {
				t.Errorf("body = %s, want %v (%v)", r.Body, tc.body, err)
			}
		})
	}
}

func equalJSON(a, b map[string]any) bool {
	x, _ := json.Marshal(a) // maps marshal with sorted keys
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func TestEmptyMaskIsRefusedWithoutARequest(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client
	py := repoNamed(t, e, "python")
	e.rec.reset()
	calls := map[string]func() error{
		"repo":  func() error { _, err := c.PatchRepo(ctx, py); return err },
		"group": func() error { _, err := c.PatchGroup(ctx, api.Group{UID: e.org, Name: "x"}); return err },
		"identity": func() error {
			_, err := c.PatchIdentity(ctx, api.Identity{UID: e.org + "/0000000000000000"})
			return err
		},
	}
	for name, call := range calls {
		if err := call(); err == nil || !strings.Contains(err.Error(), "empty update mask") {
			t.Errorf("%s: %v, want an empty-mask error", name, err)
		}
	}
	if n := e.rec.count(); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
	if got := must(c.GetRepo(ctx, py.UID))(t); got.Description != py.Description {
		t.Errorf("description changed to %q", got.Description)
	}
}

func TestPathsEscapeEachUIDSegment(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	const odd = "a b/c%d?e#f/ü"
	_, err := e.client.GetRepo(t.Context(), odd)
	if got, want := e.rec.last(t).URI, "/registry/v2/repos/a%20b/c%25d%3Fe%23f/%C3%BC"; got != want {
		t.Errorf("request target = %s, want %s", got, want)
	}
	apiErr, ok := api.AsError(err)
	if !ok || apiErr.ResourceInfo() == nil || apiErr.ResourceInfo().ResourceName != odd {
		t.Errorf("GetRepo(%q) = %v, want NOT_FOUND naming the uid as given", odd, err)
	}
}

func TestBaseURLWithAPathPrefix(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	rec := &recorder{next: http.StripPrefix("/gateway", e.rec)}
	c := newClient(t, serve(t, rec)+"/gateway/", api.Options{TokenSource: static(adminToken)})
	g := must(c.GetGroup(t.Context(), e.org))(t)
	if g.Name != "acme.example" {
		t.Errorf("GetGroup through a prefix = %+v", g)
	}
	if got, want := rec.last(t).URI, "/gateway/iam/v2/groups/"+e.org; got != want {
		t.Errorf("request target = %s, want %s", got, want)
	}
}

// TestRedirects: a redirect to another host is refused before the token
// travels; one within the API's host is followed.
func TestRedirects(t *testing.T) {
	t.Parallel()
	other := &recorder{next: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"response":"elsewhere"}`))
	})}
	otherURL := serve(t, other)
	// Ping is redirected within the host; everything else to the other host.
	self := &recorder{next: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path != "/ping/v2/ping":
			http.Redirect(w, r, otherURL+r.URL.Path, http.StatusTemporaryRedirect)
		case r.URL.Query().Get("moved") == "":
			http.Redirect(w, r, r.URL.Path+"?moved=1", http.StatusFound)
		default:
			_, _ = w.Write([]byte(`{"response":"moved"}`))
		}
	})}
	c := newClient(t, serve(t, self), api.Options{TokenSource: static(adminToken), Retry: api.NoRetry()})
	if got := must(c.Ping(t.Context()))(t); got != "moved" {
		t.Errorf("Ping after a same-host redirect = %q", got)
	}
	// Ping is anonymous: not even the API's own host gets the token for it.
	if reqs := self.all(); len(reqs) != 2 || reqs[0].Header.Get("Authorization") != "" || reqs[1].Header.Get("Authorization") != "" {
		t.Errorf("same-host redirect: %d requests, want 2 without a token", len(reqs))
	}

	_, err := c.GetRepo(t.Context(), "org/repo")
	if err == nil {
		t.Fatal("a redirect to another host was followed")
	}
	if !strings.Contains(err.Error(), "redirect") || strings.Contains(err.Error(), adminToken) {
		t.Errorf("error = %v, want a refused redirect (and no token)", err)
	}
	for _, r := range other.all() {
		if h := r.Header.Get("Authorization"); h != "" {
			t.Errorf("the other host received Authorization %q", h)
		}
	}
}

// TestLogNeverShowsTheToken: the debug log has a line per attempt but never the token.
func TestLogNeverShowsTheToken(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	e := newEnv(t, emulator.Options{}, api.Options{Logger: log})
	_, _ = e.client.GetRepo(t.Context(), e.org+"/0000000000000000")
	_, _ = e.client.ListTags(t.Context(), api.ListOptions{PageToken: adminToken})
	out := buf.String()
	if !strings.Contains(out, "status=404") || !strings.Contains(out, "/registry/v2/tags") {
		t.Errorf("log lacks the attempts:\n%s", out)
	}
	if strings.Contains(out, adminToken) {
		t.Errorf("log shows the token:\n%s", out)
	}
}

// arrivals passes requests to next and signals each arrival, without blocking.
func arrivals(next http.Handler) (*recorder, <-chan struct{}) {
	ch := make(chan struct{}, 16)
	return &recorder{next: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case ch <- struct{}{}:
		default:
		}
		next.ServeHTTP(w, r)
	})}, ch
}

// signalWriter signals each write that contains want.
type signalWriter struct {
	want string
	ch   chan struct{}
}

func (w signalWriter) Write(p []byte) (int, error) {
	if strings.Contains(string(p), w.want) {
		select {
		case w.ch <- struct{}{}:
		default:
		}
	}
	return len(p), nil
}

// TestCancellation: cancelling the context ends a call, whether a request
// is in flight (the server never answers) or the client waits to retry
// (the server asked for an hour): either would outlast the test's patience.
func TestCancellation(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		h       http.Handler
		waiting bool // cancel while waiting to retry, not in flight
	}{
		{"in flight", http.HandlerFunc(neverAnswers), false},
		{"waiting to retry", failFirst(1000, 503, "3600", nil), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec, trigger := arrivals(tc.h)
			retrying := signalWriter{want: "msg=retrying", ch: make(chan struct{}, 1)}
			if tc.waiting {
				trigger = retrying.ch
			}
			c := newClient(t, serve(t, rec), api.Options{TokenSource: static(adminToken),
				Retry:  api.RetryPolicy{MaxDelay: 2 * time.Hour, MaxElapsed: 2 * time.Hour},
				Logger: slog.New(slog.NewTextHandler(retrying, &slog.HandlerOptions{Level: slog.LevelDebug}))})
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			go func() {
				select {
				case <-trigger:
					cancel()
				case <-ctx.Done():
				}
			}()
			var err error
			returned := make(chan struct{})
			go func() { defer close(returned); _, err = c.ListRepos(ctx, api.ListOptions{}) }()
			select {
			case <-returned:
			case <-time.After(patience):
				t.Fatal("the call did not end once cancelled")
			}
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want context.Canceled in the chain", err)
			}
			// While waiting, the error that caused the wait is kept too.
			if _, ok := api.AsError(err); ok != tc.waiting {
				t.Errorf("err = %v: *api.Error in the chain: %v, want %v", err, ok, tc.waiting)
			}
			if n := rec.count(); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
		})
	}
}

// TestTimeoutBoundsEachAttempt: a server that never answers is given up
// on after the timeout, and the GET tried once more: the call ends, with
// both attempts timed out.
func TestTimeoutBoundsEachAttempt(t *testing.T) {
	t.Parallel()
	// Attempts are counted as sent: on a loaded machine one may time out
	// before the server sees it.
	var sent atomic.Int64
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	counting := roundTripFunc(func(r *http.Request) (*http.Response, error) { sent.Add(1); return tr.RoundTrip(r) })
	c := newClient(t, serve(t, http.HandlerFunc(neverAnswers)), api.Options{TokenSource: static(adminToken),
		Timeout: 150 * time.Millisecond, HTTPClient: &http.Client{Transport: counting},
		Retry: api.RetryPolicy{MaxAttempts: 2, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond, MaxElapsed: patience}})
	var err error
	returned := make(chan struct{})
	go func() { defer close(returned); _, err = c.GetGroup(t.Context(), "org") }()
	select {
	case <-returned:
	case <-time.After(patience):
		t.Fatal("a call to a server that never answers did not end")
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want context.DeadlineExceeded in the chain", err)
	}
	if n := sent.Load(); n != 2 {
		t.Errorf("%d attempts, want 2 (a timed-out GET is retried)", n)
	}
}

// TestPageSizeSettingCapsLists: a client told to ask for small pages does,
// and a cursor still walks every item.
func TestPageSizeSettingCapsLists(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{PageSize: 20})
	ctx, c := t.Context(), e.client
	all := must(c.ListRepos(ctx, api.ListOptions{DescendantsOf: e.org, PageSize: api.MaxPageSize}))(t)
	if len(all.Items) != 20 || e.rec.last(t).URI == "" || !strings.Contains(e.rec.last(t).URI, "page_size=20") {
		t.Fatalf("asked %s, got %d items", e.rec.last(t).URI, len(all.Items))
	}
	must(c.ListRepos(ctx, api.ListOptions{DescendantsOf: e.org, PageSize: 5}))(t)
	if !strings.Contains(e.rec.last(t).URI, "page_size=5") {
		t.Errorf("a smaller request was enlarged: %s", e.rec.last(t).URI)
	}
	n := 0
	for _, err := range api.NewCursor(c.ListRepos, api.ListOptions{DescendantsOf: e.org}, api.RepoKey).All(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if int64(n) != all.Total {
		t.Errorf("walked %d of %d repos", n, all.Total)
	}
}
