package api

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
)

// Terms: the legal documents an organization accepted, each acceptance
// recorded with who accepted and when. A document is known by a stable
// id, which carries its version by convention ("guardener-tos.v1"). An
// acceptance has no uid, and is never changed or withdrawn.

const termsPath = "/iam/v2/terms"

// TermsAcceptance is one document accepted for the organization OrgUID by
// AcceptedBy (the subject of the identity that accepted it).
type TermsAcceptance struct {
	DocID      string `json:"docId,omitempty"`
	AcceptedBy string `json:"acceptedBy,omitempty"`
	OrgUID     string `json:"orgUid,omitempty"`
	CreateTime Time   `json:"createTime,omitzero"`
}

// AcceptedTerms is the answer to an acceptance: the group and the ids of
// the documents accepted.
type AcceptedTerms struct {
	Group       string   `json:"group,omitempty"`
	DocumentIDs []string `json:"documentIds,omitempty"`
}

// acceptBody is an acceptance's body: the group is in the path.
type acceptBody struct {
	DocumentIDs []string `json:"documentIds"`
}

// An acceptance has no uid: it is named by its document, in its
// organization.
func (t *TermsAcceptance) GetUID() string    { return "" }
func (t *TermsAcceptance) GetName() string   { return t.DocID }
func (t *TermsAcceptance) GetParent() string { return t.OrgUID }

var _ Resource = (*TermsAcceptance)(nil)

// TermsAcceptanceKey tells acceptances apart: the same document may be
// accepted again, by someone else, or in an ancestor organization.
func TermsAcceptanceKey(t *TermsAcceptance) string {
	return t.OrgUID + "/" + t.DocID + "@" + strconv.FormatInt(t.CreateTime.Time().UnixMilli(), 10) + " " + t.AcceptedBy
}

// ListTermsAcceptances lists the documents accepted for group, with those
// of the organizations above it; of opts only the paging is sent.
func (c *Client) ListTermsAcceptances(ctx context.Context, group string, opts ListOptions) (*Page[TermsAcceptance], error) {
	o := ListOptions{PageSize: opts.PageSize, PageToken: opts.PageToken, OrderBy: opts.OrderBy, Skip: opts.Skip}
	return list[TermsAcceptance](ctx, c, termsPath+"/"+group, "termsAcceptances", o)
}

// TermsAcceptancesOf is ListTermsAcceptances of group as a Lister.
func (c *Client) TermsAcceptancesOf(group string) Lister[TermsAcceptance] {
	return func(ctx context.Context, opts ListOptions) (*Page[TermsAcceptance], error) {
		return c.ListTermsAcceptances(ctx, group, opts)
	}
}

// AcceptRequest is the request that records group's acceptance of
// documents.
func AcceptRequest(group string) Request {
	return Request{Method: http.MethodPost, Path: termsPath + "/" + group}
}

// AcceptTerms records that group accepts the documents ids. Like every
// POST it is never sent again by the client: after a lost answer,
// AcceptedOf tells what the service has.
func (c *Client) AcceptTerms(ctx context.Context, group string, ids []string) (*AcceptedTerms, error) {
	return create[AcceptedTerms](ctx, c, AcceptRequest(group), acceptBody{DocumentIDs: ids})
}

// AcceptedOf are the acceptances of group (its organization's included)
// of the documents ids, by id: an id missing is not accepted. A listing
// that does not end within the pages read is an error, since "not
// accepted" is what allows sending again.
func (c *Client) AcceptedOf(ctx context.Context, group string, ids []string) (map[string]TermsAcceptance, error) {
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	out := map[string]TermsAcceptance{}
	_, err := find(ctx, c.TermsAcceptancesOf(group), ListOptions{}, func(t *TermsAcceptance) bool {
		if _, seen := out[t.DocID]; want[t.DocID] && !seen {
			out[t.DocID] = *t
		}
		return len(out) == len(want)
	})
	if err != nil {
		return nil, fmt.Errorf("list the terms accepted for %s: %w", group, err)
	}
	return out, nil
}
