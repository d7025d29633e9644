package emulator

import (
	"net/http"
	"net/url"
	"testing"

	"canopy/api"
)

// One acceptance is seeded: the organization's of the terms of service,
// by alice. A folder's list has its organization's; accepting records
// each document once, by who asked, and refuses a document the platform
// does not have, a folder, and who may not.
func TestTerms(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	path := "/iam/v2/terms/" + e.org
	p := e.list(path, "termsAcceptances", url.Values{})
	if len(p.Items) != 1 || p.Items[0]["docId"] != "chainguard-tos.v3" || p.Items[0]["orgUid"] != e.org || p.Items[0]["createTime"] == nil {
		t.Fatalf("seeded %v", p.Items)
	}
	alice := p.Items[0]["acceptedBy"].(string)
	var who api.Identity
	e.ok(e.get("/iam/v2/identities/"+alice), &who)
	if who.Name != "alice" {
		t.Errorf("accepted by %+v", who)
	}
	if p := e.list("/iam/v2/terms/"+e.groupUID("ml"), "termsAcceptances", url.Values{}); len(p.Items) != 1 {
		t.Errorf("a folder's: %v", p.Items)
	}

	var out api.AcceptedTerms
	body := map[string]any{"documentIds": []string{"guardener-tos.v1", "chainguard-tos.v3"}}
	e.ok(e.call("POST", path, e.tokenFor(issuerGoogle, bobSub), body), &out)
	if out.Group != e.org || len(out.DocumentIDs) != 2 {
		t.Errorf("answered %+v", out)
	}
	e.ok(e.call("POST", path, adminTok, body), nil)
	p = e.list(path, "termsAcceptances", url.Values{"order_by": {"created_at desc"}})
	if len(p.Items) != 2 || p.Items[0]["docId"] != "guardener-tos.v1" || p.Items[0]["acceptedBy"] == alice {
		t.Fatalf("after accepting twice: %v", p.Items)
	}
	s := wantErr(t, e.call("POST", path, adminTok, map[string]any{"documentIds": []string{"guardener-tos.v1", "eula.v9"}}),
		http.StatusBadRequest, api.CodeInvalidArgument)
	if fieldOf(t, s) != "document_ids[1]" {
		t.Errorf("an unknown document: %s", s.Message)
	}
	wantErr(t, e.call("POST", path, adminTok, map[string]any{}), http.StatusBadRequest, api.CodeInvalidArgument)
	wantErr(t, e.call("POST", "/iam/v2/terms/"+e.groupUID("ml"), adminTok, body), http.StatusBadRequest, api.CodeInvalidArgument)
	wantErr(t, e.call("POST", path, e.tokenFor(issuerGoogle, carolSub), body), http.StatusForbidden, api.CodePermissionDenied)
	wantErr(t, e.get("/iam/v2/terms/"+e.org+"/0123456789abcdef"), http.StatusNotFound, api.CodeNotFound)
	wantNoRoute(t, e.get("/iam/v2/terms"))
}
