package api_test

import (
	"context"
	"strings"
	"testing"

	"canopy/api"
	"canopy/api/emulator"
)

// A client secret sent in a create never reaches the change record (which
// :changes shows and copies as curl); the rest of the body does.
func TestChangeRecordKeepsNoSecret(t *testing.T) {
	t.Parallel()
	var changes []api.Change
	e := newEnv(t, emulator.Options{}, api.Options{Observe: func(ch api.Change) { changes = append(changes, ch) }})
	_, err := e.client.CreateIdentityProvider(context.Background(), e.org, api.NewIdentityProvider{Name: "corp sso", DefaultRole: viewerRole,
		OIDC: api.NewOIDCLogin{Issuer: "https://login.example.com", ClientID: "canopy", ClientSecret: "hunter2-very-secret"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 {
		t.Fatalf("changes recorded: %d, want 1", len(changes))
	}
	body := string(changes[0].Body)
	if strings.Contains(body, "hunter2") || !strings.Contains(body, api.Redacted) || !strings.Contains(body, `"clientId":"canopy"`) {
		t.Errorf("recorded body %s: want the secret redacted and the rest kept", body)
	}
}

// An invite's code, said once in the answer to its create, is not kept by
// the record of that answer.
func TestRecordedAnswerKeepsNoInviteCode(t *testing.T) {
	t.Parallel()
	got, err := api.Recorded(&api.GroupInvite{UID: "g/1", Code: "cgi_secret-code", Email: "a@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(got), "cgi_secret") || !strings.Contains(string(got), api.Redacted) || !strings.Contains(string(got), "a@example.com") {
		t.Errorf("recorded %s", got)
	}
}
