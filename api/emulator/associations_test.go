package emulator

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"canopy/api"
)

// assocPath is the collection of account associations.
const assocPath = "/iam/v2/accountAssociations"

// People of the seeds, by their Google subjects.
const (
	carolSub = "109283746501928374650" // viewer on the organization
	bobSub   = "117730195837465019283" // editor on the organization
)

// Five associations are seeded, each under its group's uid: the
// organization's and four folders'. A folder's own is not among its
// descendants; children_of a folder has its subfolders', as the filter
// reads uids. A viewer reads them; a get of a group without one is
// NOT_FOUND.
func TestAssociationsList(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	all := e.list(assocPath, "accountAssociations", url.Values{})
	if len(all.Items) != 5 || all.TotalCount != "5" {
		t.Fatalf("listed %d of %s: %v", len(all.Items), all.TotalCount, all.Items)
	}
	below := e.list(assocPath, "accountAssociations", url.Values{"uidp.descendants_of": {e.org}})
	if got := uids(below.Items); len(got) != 4 || slices.Contains(got, e.org) {
		t.Errorf("descendants of the organization: %v, want the four folders' without its own", got)
	}
	if p := e.list(assocPath, "accountAssociations", url.Values{"uidp.children_of": {e.groupUID("data")}}); len(p.Items) != 1 ||
		p.Items[0]["name"] != "ml-sandbox" {
		t.Errorf("children of data: %v", p.Items)
	}
	if p := e.list(assocPath, "accountAssociations", url.Values{"name": {"platform-aws"}}); len(p.Items) != 1 ||
		p.Items[0]["uid"] != e.groupUID("platform") {
		t.Errorf("by name: %v", p.Items)
	}
	var own api.AccountAssociation
	e.ok(e.get(assocPath+"/"+e.org), &own)
	if own.Name != "acme-chainguard" || own.Chainguard == nil || len(own.Chainguard.ServiceBindings) != 2 || own.GitHub == nil {
		t.Errorf("the organization's: %+v", own)
	}
	r := e.get(assocPath + "/" + e.groupUID("platform"))
	if !strings.Contains(string(r.body), `"installationId":"51873205"`) || !strings.Contains(string(r.body), `"account":"123456789012"`) {
		t.Errorf("platform's, as the proto's JSON has it (an int64 as a string): %s", r.body)
	}
	wantErr(t, e.get(assocPath+"/"+e.groupUID("apps")), http.StatusNotFound, api.CodeNotFound)
	viewer := e.tokenFor(issuerGoogle, carolSub)
	if p := e.listAs(viewer, assocPath, "accountAssociations", url.Values{"uidp.descendants_of": {e.org}}); len(p.Items) != 4 {
		t.Errorf("a viewer reads %d", len(p.Items))
	}
}

// A create takes a group without one, a name and whole parts; the uid is
// the group's. An update replaces a part named by the mask, and removes
// one named and left out; a delete of what is not there is done.
func TestAssociationsWrite(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	apps := e.groupUID("apps")
	body := map[string]any{"name": "apps-aws", "amazon": map[string]any{"account": "210987654321"}}
	var made api.AccountAssociation
	e.ok(e.call("POST", assocPath+"/"+apps, adminTok, body), &made)
	if made.UID != apps || made.Amazon == nil || made.CreateTime.IsZero() {
		t.Fatalf("made %+v", made)
	}
	s := wantErr(t, e.call("POST", assocPath+"/"+apps, adminTok, body), http.StatusConflict, api.CodeAlreadyExists)
	if ri := (&api.Error{Status: s}).ResourceInfo(); ri == nil || ri.ResourceName != apps {
		t.Errorf("the refusal names %+v", ri)
	}
	web := e.groupUID("web")
	for field, bad := range map[string]map[string]any{
		"name":                        {"amazon": map[string]any{"account": "210987654321"}},
		"amazon.account":              {"name": "x", "amazon": map[string]any{"account": "12"}},
		"google.project_id":           {"name": "x", "google": map[string]any{"projectId": "Bad", "projectNumber": "1"}},
		"azure.client_ids":            {"name": "x", "azure": map[string]any{"tenantId": "5b8e2c41-7d3a-4f09-9e6b-1c2d3e4f5a6b"}},
		"github.app_installations":    {"name": "x", "github": map[string]any{"appInstallations": map[string]any{"7": map[string]any{}}}},
		"chainguard.service_bindings": {"name": "x", "chainguard": map[string]any{"serviceBindings": map[string]any{"INGESTER": "nobody"}}},
	} {
		s := wantErr(t, e.call("POST", assocPath+"/"+web, adminTok, bad), http.StatusBadRequest, api.CodeInvalidArgument)
		if got := fieldOf(t, s); got != field {
			t.Errorf("refused on %s, want %s: %s", got, field, s.Message)
		}
	}
	if r := e.call("POST", assocPath+"/"+web, adminTok, `{"name":"x","uid":"mine"}`); r.status != http.StatusBadRequest {
		t.Errorf("a body with the uid: %d %s", r.status, r.body)
	}
	wantErr(t, e.call("POST", assocPath+"/"+e.org+"/0123456789abcdef", adminTok, body), http.StatusNotFound, api.CodeNotFound)
	wantErr(t, e.call("POST", assocPath+"/"+web, e.tokenFor(issuerGoogle, carolSub), body), http.StatusForbidden, api.CodePermissionDenied)

	var next api.AccountAssociation
	e.ok(e.call("PATCH", assocPath+"/"+apps+"?update_mask=google", adminTok,
		map[string]any{"google": map[string]any{"projectId": "acme-apps", "projectNumber": "123"}}), &next)
	if next.Google == nil || next.Amazon == nil || next.Name != "apps-aws" {
		t.Fatalf("google added: %+v", next)
	}
	next = api.AccountAssociation{} // absent fields are left as they were by a decode
	e.ok(e.call("PATCH", assocPath+"/"+apps+"?update_mask=amazon,name", adminTok, map[string]any{"name": "apps-gcp"}), &next)
	if next.Amazon != nil || next.Google == nil || next.Name != "apps-gcp" {
		t.Fatalf("amazon removed, renamed: %+v", next)
	}
	s = wantErr(t, e.call("PATCH", assocPath+"/"+apps+"?update_mask=amazon", adminTok, map[string]any{"amazon": map[string]any{}}),
		http.StatusBadRequest, api.CodeInvalidArgument)
	if fieldOf(t, s) != "amazon.account" {
		t.Errorf("an empty part: %s", s.Message)
	}
	wantErr(t, e.call("PATCH", assocPath+"/"+apps+"?update_mask=uid", adminTok, map[string]any{}), http.StatusBadRequest, api.CodeInvalidArgument)
	wantErr(t, e.call("PATCH", assocPath+"/"+web+"?update_mask=name", adminTok, map[string]any{"name": "y"}), http.StatusNotFound, api.CodeNotFound)

	e.ok(e.call("DELETE", assocPath+"/"+apps, adminTok, nil), nil)
	wantErr(t, e.get(assocPath+"/"+apps), http.StatusNotFound, api.CodeNotFound)
	e.ok(e.call("DELETE", assocPath+"/"+apps, adminTok, nil), nil)
	wantErr(t, e.call("DELETE", assocPath+"/"+e.org, e.tokenFor(issuerGoogle, carolSub), nil), http.StatusForbidden, api.CodePermissionDenied)
}

// A check of a part set up right is ready; of one the provider refuses,
// not ready with its reason; of one the association lacks, not
// configured. It takes the provider by name or number, and requires one.
func TestAssociationsCheck(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	check := func(group string, provider any) api.AccountCheck {
		t.Helper()
		var out api.AccountCheck
		e.ok(e.call("POST", assocPath+"/"+group+":checkAccountAssociation", adminTok, map[string]any{"providerType": provider}), &out)
		return out
	}
	platform, ml := e.groupUID("platform"), e.groupUID("ml")
	if got := check(platform, api.ProviderAmazon); got.Status != api.CheckReady || got.Reason != "" {
		t.Errorf("platform's AWS: %+v", got)
	}
	if got := check(platform, 2); got.Status != api.CheckReady {
		t.Errorf("by number: %+v", got)
	}
	if got := check(platform, api.ProviderGoogle); got.Status != api.CheckNotReady || got.Reason != "not configured" {
		t.Errorf("platform's Google Cloud: %+v", got)
	}
	if got := check(ml, api.ProviderGoogle); got.Status != api.CheckNotReady || got.Reason != "error exchanging credentials" ||
		!strings.Contains(got.Message, "acme-ml-sandbox") {
		t.Errorf("ml's Google Cloud: %+v", got)
	}
	if got := check(e.groupUID("payments"), api.ProviderAzure); got.Status != api.CheckReady {
		t.Errorf("payments' Azure: %+v", got)
	}
	for _, bad := range []any{nil, "ACCOUNT_PROVIDER_TYPE_UNSPECIFIED", "GITHUB"} {
		r := e.call("POST", assocPath+"/"+platform+":checkAccountAssociation", adminTok, map[string]any{"providerType": bad})
		if s := wantErr(t, r, http.StatusBadRequest, api.CodeInvalidArgument); fieldOf(t, s) != "provider_type" {
			t.Errorf("%v: %s", bad, s.Message)
		}
	}
	wantErr(t, e.call("POST", assocPath+"/"+e.groupUID("apps")+":checkAccountAssociation", adminTok,
		map[string]any{"providerType": api.ProviderAmazon}), http.StatusNotFound, api.CodeNotFound)
	wantErr(t, e.call("GET", assocPath+"/"+platform+":checkAccountAssociation", adminTok, nil), http.StatusNotImplemented, api.CodeUnimplemented)
}
