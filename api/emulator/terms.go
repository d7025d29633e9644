package emulator

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"canopy/api"
)

// Terms, as the service keeps them: an organization accepts the legal
// documents the platform has (legalDocuments), each acceptance recorded
// once with who accepted and when; accepting one already accepted records
// nothing more. A group's list has its organization's acceptances.

const (
	capTermsAccept = "CAP_TERMS_ACCEPT"
	capTermsList   = "CAP_TERMS_LIST"
)

const termsPrefix = "/iam/v2/terms"

// legalDocuments are the documents the platform asks organizations to
// accept, by id (its version after the last dot), with their names.
func legalDocuments() map[string]string {
	return map[string]string{
		"chainguard-tos.v3": "Chainguard Terms of Service",
		"chainguard-dpa.v2": "Chainguard Data Processing Addendum",
		"guardener-tos.v1":  "Guardener Terms of Service",
	}
}

// termsRec is an acceptance as stored: under its organization, by a uid
// of the emulator's own that orders acceptances as they were made.
type termsRec struct {
	UID string
	api.TermsAcceptance
}

// sortTerms: acceptances have a time and no name; the default is the
// order they were made in.
var sortTerms = sorting{created: true, byUID: true}

func (c *call) terms(group string) *apiErr {
	switch {
	case group == "":
		return noRoute()
	case c.r.Method == http.MethodGet:
		return c.listTerms(group)
	case c.r.Method == http.MethodPost:
		return c.acceptTerms(group)
	}
	return methodNotAllowed(domainIAM, c.r)
}

func (c *call) listTerms(group string) *apiErr {
	if e := c.p.require(domainIAM, capTermsList, group, false); e != nil {
		return e
	}
	if _, ok := c.st.groups.get(group); !ok {
		return notFound(domainIAM, typeGroup, group)
	}
	q, e := c.parseList(domainIAM, sortTerms)
	if e != nil {
		return e
	}
	// The group is in the path: its organization's acceptances, whatever
	// else is asked.
	q.descendantsOf, q.childrenOf, q.inRoot, q.name = "", api.RootUID(group), false, ""
	runList(c.srv, c.w, c.r, q, listSpec[termsRec]{c: c.st.terms, plural: "termsAcceptances", mask: maskAll,
		out: func(t *termsRec) any { return t.TermsAcceptance }})
	return nil
}

// acceptBody is an acceptance's body: the group is in the path.
type acceptBody struct {
	DocumentIDs []string `json:"documentIds"`
}

func (c *call) acceptTerms(group string) *apiErr {
	st := c.st
	if e := c.p.require(domainIAM, capTermsAccept, group, false); e != nil {
		return e
	}
	if _, ok := st.groups.get(group); !ok {
		return notFound(domainIAM, typeGroup, group)
	}
	if api.ParentUID(group) != "" {
		return badField(domainIAM, "group", fmt.Sprintf("%s is a folder: an organization accepts terms, for its folders too", group))
	}
	var body acceptBody
	if e := decodeBody(c, domainIAM, &body); e != nil {
		return e
	}
	if len(body.DocumentIDs) == 0 {
		return badField(domainIAM, "document_ids", "is required: the ids of the documents accepted")
	}
	docs := legalDocuments()
	for i, id := range body.DocumentIDs {
		if _, ok := docs[id]; !ok {
			known := make([]string, 0, len(docs))
			for d := range docs {
				known = append(known, d)
			}
			slices.Sort(known)
			return badField(domainIAM, fmt.Sprintf("document_ids[%d]", i), fmt.Sprintf("%q is no document of the platform (%s)",
				id, strings.Join(known, ", ")))
		}
	}
	by := c.p.identity
	if by == "" {
		by = c.p.name
	}
	for _, id := range body.DocumentIDs {
		if st.accepted(group, id) {
			continue
		}
		st.terms.insert(termsRec{UID: st.termsUID(group), TermsAcceptance: api.TermsAcceptance{DocID: id, AcceptedBy: by,
			OrgUID: group, CreateTime: c.now()}})
	}
	writeJSON(c.w, api.AcceptedTerms{Group: group, DocumentIDs: body.DocumentIDs})
	return nil
}

// accepted reports whether org has accepted the document id.
func (s *store) accepted(org, id string) bool {
	for _, i := range s.terms.childIDs(org) {
		if s.terms.items[i].DocID == id {
			return true
		}
	}
	return false
}

// termsUID is the uid of org's next acceptance: after every other.
func (s *store) termsUID(org string) string {
	return fmt.Sprintf("%s/%016x", org, len(s.terms.items))
}

// newTerms is the store's collection of acceptances, under their
// organizations; one has no name but its document's.
func newTerms() *coll[termsRec] {
	return newColl(accessors[termsRec]{
		uid: func(t *termsRec) string { return t.UID }, name: func(t *termsRec) string { return t.DocID },
		ctime: func(t *termsRec) int64 { return ms(t.CreateTime) }, utime: func(t *termsRec) int64 { return ms(t.CreateTime) }})
}
