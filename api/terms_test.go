package api_test

import (
	"net/http"
	"testing"

	"canopy/api"
	"canopy/api/emulator"
)

// The terms an organization accepted and an acceptance: the group in the
// path of both, the ids in the body; what is accepted then found by id.
func TestTermsCalls(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client
	p := must(c.ListTermsAcceptances(ctx, e.org, api.ListOptions{DescendantsOf: "ignored", PageSize: 10}))(t)
	if r := e.rec.last(t); r.URI != "/iam/v2/terms/"+e.org+"?page_size=10" {
		t.Errorf("sent %s", r.URI)
	}
	if len(p.Items) != 1 || p.Items[0].DocID != "chainguard-tos.v3" || p.Items[0].OrgUID != e.org || p.Items[0].AcceptedBy == "" {
		t.Fatalf("listed %+v", p.Items)
	}
	if got := must(c.AcceptedOf(ctx, e.org, []string{"guardener-tos.v1", "chainguard-tos.v3"}))(t); len(got) != 1 ||
		got["chainguard-tos.v3"].DocID == "" {
		t.Fatalf("accepted before: %+v", got)
	}
	e.rec.reset()
	out := must(c.AcceptTerms(ctx, e.org, []string{"guardener-tos.v1"}))(t)
	if r := e.rec.last(t); r.Method != http.MethodPost || r.Path != "/iam/v2/terms/"+e.org || string(r.Body) != `{"documentIds":["guardener-tos.v1"]}` {
		t.Fatalf("sent %s %s %s", r.Method, r.URI, r.Body)
	}
	if out.Group != e.org || len(out.DocumentIDs) != 1 {
		t.Errorf("answered %+v", out)
	}
	if got := must(c.AcceptedOf(ctx, e.org, []string{"guardener-tos.v1", "chainguard-tos.v3"}))(t); len(got) != 2 {
		t.Errorf("accepted after: %+v", got)
	}
	if _, err := c.AcceptTerms(ctx, e.org, []string{"eula.v9"}); !api.IsInvalidArgument(err) {
		t.Errorf("a document the platform does not have: %v", err)
	}
	if got := api.AcceptRequest(e.org).String(); got != "POST /iam/v2/terms/"+e.org {
		t.Errorf("the request reads %q", got)
	}
}
