package api_test

import (
	"errors"
	"strings"
	"testing"

	"canopy/api"
)

// TestListOfAnotherShapeIsNotEmpty: a List answer whose items are under
// a key the API does not use (a server of another version, a proxy's
// envelope) is an error naming the keys that came, not an empty page;
// an answer that leaves the list out (as an empty one is) or holds an
// empty list under another key is an empty page.
func TestListOfAnotherShapeIsNotEmpty(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body string
		items      int
		want       string // "" for no error
	}{
		{"items", `{"artifactVersions":[{"uid":"a"}],"nextPageToken":""}`, 1, ""},
		{"no list", `{"nextPageToken":""}`, 0, ""},
		{"empty object", `{}`, 0, ""},
		{"an empty list elsewhere", `{"versions":[],"nextPageToken":""}`, 0, ""},
		{"not a list elsewhere", `{"versions":{"a":1}}`, 0, ""},
		{"renamed", `{"versions":[{"uid":"a"},{"uid":"b"}],"nextPageToken":"x"}`, 0,
			`holds no "artifactVersions" list but a list under "versions" (its keys: "versions", "nextPageToken")`},
		{"enveloped", `{"data": [ {"uid":"a"} ], "meta":{}}`, 0, `list under "data" (its keys: "data", "meta")`},
		{"hostile key", `{"\u001b]0;x\u0007":[1]}`, 0, `list under "\x1b]0;x\a"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := newClient(t, serveBody(t, []byte(tc.body)), api.Options{Retry: api.NoRetry()})
			p, err := c.ListArtifactVersions(t.Context(), "art", api.ListOptions{})
			var shape *api.ShapeError
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("%s: %v", tc.body, err)
			case tc.want == "" && len(p.Items) != tc.items:
				t.Errorf("%s: %d items, want %d", tc.body, len(p.Items), tc.items)
			case tc.want != "" && !errors.As(err, &shape):
				t.Fatalf("%s: %v (%v), want a *ShapeError", tc.body, p, err)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Errorf("%s:\n%v\nwant it to say %s", tc.body, err, tc.want)
			}
		})
	}
}
