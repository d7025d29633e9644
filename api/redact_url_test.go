package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestRedactUserinfo: the user and password of every URL in a text are
// hidden, whatever the URL holds or however it is quoted, and nothing
// else is changed.
func TestRedactUserinfo(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"http://user:pw@host/x", "http://***@host/x"},
		{"https://pw@host", "https://***@host"},
		{"http://host/a@b", "http://host/a@b"},
		{"http://host?q=a@b", "http://host?q=a@b"},
		{`parse "http://user:pw@host:badport/x": invalid port`, `parse "http://***@host:badport/x": invalid port`},
		{`parse "http://user:p w\"@host": invalid`, `parse "http://***@host": invalid`},
		{"from http://a:1@x/ to https://b:2@y/", "from http://***@x/ to https://***@y/"},
		{"http://u:p%40ss@host", "http://***@host"},
		{"no url here, a@b", "no url here, a@b"},
		{"http://host", "http://host"},
		{"", ""},
	} {
		if got := RedactUserinfo(tc.in); got != tc.want {
			t.Errorf("RedactUserinfo(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestUserinfoNeverShown: a base URL with a user and password works, and
// neither reaches a change's URL (the log of changes and its curl command)
// nor the error of a base URL that does not parse.
func TestUserinfoNeverShown(t *testing.T) {
	t.Parallel()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"uid":"` + strings.Repeat("a", 40) + `/0123456789abcdef","name":"x"}`))
	}))
	t.Cleanup(hs.Close)
	var changes []Change
	base := strings.Replace(hs.URL, "http://", "http://user:secretpw@", 1)
	c, err := New(Options{BaseURL: base, TokenSource: StaticToken("t", "test"), Observe: func(ch Change) { changes = append(changes, ch) }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateRepo(context.Background(), strings.Repeat("a", 40), Repo{Name: "x"}); err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 || strings.Contains(changes[0].URL, "secretpw") || strings.Contains(changes[0].URL, "user") ||
		!strings.HasPrefix(changes[0].URL, "http://***@127.0.0.1") {
		t.Errorf("the change shows %+v", changes)
	}
	for _, bad := range []string{"http://user:secretpw@host:badport", "ftp://user:secretpw@host", "http://user:secret pw@host\x7f"} {
		_, err := New(Options{BaseURL: bad})
		if err == nil || strings.Contains(err.Error(), "secret") {
			t.Errorf("New(%q): %v", bad, err)
		}
	}
}
