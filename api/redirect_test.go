package api_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"canopy/api"
	"canopy/api/emulator"
)

// cleartext is a transport that answers every http:// request itself (as a
// listener on the same host and port would) and records its Authorization;
// https:// requests go to the TLS test server.
type cleartext struct {
	tls  http.RoundTripper
	mu   sync.Mutex
	auth []string
}

func (c *cleartext) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Scheme == "https" {
		return c.tls.RoundTrip(r)
	}
	c.mu.Lock()
	c.auth = append(c.auth, r.Header.Get("Authorization"))
	c.mu.Unlock()
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}}, Request: r,
		Body: io.NopCloser(strings.NewReader(`{"uid":"org/repo","name":"leaked"}`))}, nil
}

// TestRedirectNeverDowngrades: an https API that redirects to http on the
// same host is refused before the token could travel in cleartext.
func TestRedirectNeverDowngrades(t *testing.T) {
	t.Parallel()
	hs := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://"+r.Host+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(hs.Close)
	tr := &cleartext{tls: hs.Client().Transport}
	c := newClient(t, hs.URL, api.Options{TokenSource: static(adminToken), Retry: api.NoRetry(), HTTPClient: &http.Client{Transport: tr}})
	_, err := c.GetRepo(t.Context(), "org/repo")
	if err == nil || !strings.Contains(err.Error(), "refusing redirect from https to http") || strings.Contains(err.Error(), adminToken) {
		t.Errorf("https → http redirect: %v, want it refused", err)
	}
	if len(tr.auth) != 0 {
		t.Errorf("%d cleartext requests were sent (Authorization %q)", len(tr.auth), tr.auth)
	}

	// From http, a redirect up to https on the same host is fine.
	up := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"uid":"org/repo","name":"secure"}`))
	}))
	t.Cleanup(up.Close)
	host := strings.TrimPrefix(up.URL, "https://")
	redirector := &cleartext{tls: up.Client().Transport}
	c = newClient(t, "http://"+host, api.Options{TokenSource: static(adminToken), Retry: api.NoRetry(),
		HTTPClient: &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			if r.URL.Scheme == "http" {
				return &http.Response{StatusCode: http.StatusPermanentRedirect, Request: r, Body: http.NoBody,
					Header: http.Header{"Location": {"https://" + host + r.URL.Path}}}, nil
			}
			return redirector.RoundTrip(r)
		})}})
	if r, err := c.GetRepo(t.Context(), "org/repo"); err != nil || r.Name != "secure" {
		t.Errorf("http → https redirect: %+v, %v", r, err)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestDotSegmentsAreRefused: a uid with an empty, "." or ".." segment is
// refused before anything is sent: a server that resolves dot segments
// would otherwise delete something else.
func TestDotSegmentsAreRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client
	platform := must(c.ListGroups(ctx, api.ListOptions{ChildrenOf: e.org, Name: "platform"}))(t).Items[0]
	e.rec.reset()
	for _, uid := range []string{
		e.org + "/../../../iam/v2/groups/" + platform.UID,
		e.org + "/./x", e.org + "//x", e.org + "/", "", "..", ".",
	} {
		err := c.DeleteRepo(ctx, uid)
		if !errors.Is(err, api.ErrInvalidUID) || !strings.Contains(err.Error(), "invalid uid") {
			t.Errorf("DeleteRepo(%q) = %v, want ErrInvalidUID", uid, err)
		}
		if _, err := c.GetGroup(ctx, uid); !errors.Is(err, api.ErrInvalidUID) {
			t.Errorf("GetGroup(%q) = %v, want ErrInvalidUID", uid, err)
		}
	}
	if n := e.rec.count(); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
	if _, err := c.GetGroup(ctx, platform.UID); err != nil {
		t.Errorf("the group is gone: %v", err)
	}
}
