package emulator

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"canopy/api"
)

// Joining an organization and the caller's own identity, as the service
// serves them to any caller (no capability): the verified organization
// named as the caller's email domain (LookupGroup), whether the caller may
// look for one at all (CheckEligibility), a request to its owners to be
// let in (RequestGroupAccess), which uid an issuer and subject have or
// will have (LookupIdentity), and the caller's profile (its metadata).
// The three custom methods of the collections are routes of their own;
// the one of a group (uid:requestGroupAccess) is found by its verb before
// the groups' route takes the path for a uid (verbRoute).

const (
	lookupGroupPath      = "/iam/v2/groups:lookupGroup"
	checkEligibilityPath = "/iam/v2/groups:checkEligibility"
	lookupIdentityPath   = "/iam/v2/identities:lookupIdentity"
	identityMetaPath     = "/iam/v2/identities:updateIdentityMetadata"
	requestAccessVerb    = ":requestGroupAccess"
)

// requestAgain is how long after a request to join the same caller may
// send another to the same organization.
const requestAgain = 24 * time.Hour

// verbRoute is the handler of a custom method of one group, which the
// groups' route would take for part of a uid.
func verbRoute(path string) (func(*call) *apiErr, bool) {
	rest, ok := strings.CutPrefix(path, "/iam/v2/groups/")
	if !ok {
		return nil, false
	}
	uid, ok := strings.CutSuffix(rest, requestAccessVerb)
	if !ok {
		return nil, false
	}
	return func(c *call) *apiErr { return c.requestGroupAccess(uid) }, true
}

// noneFound is the one answer of every way a lookup finds nothing: no
// such organization, a token from a sign-in not trusted, a domain not
// matched. The service does not say which.
func noneFound() *apiErr {
	return newErr(api.CodeNotFound, domainIAM, "no verified organization matches the caller's email domain")
}

func (c *call) lookupGroup(rest string) *apiErr {
	switch {
	case rest != "":
		return noRoute()
	case c.r.Method != http.MethodGet:
		return methodNotAllowed(domainIAM, c.r)
	}
	g := c.st.domainOrg(c.p)
	if g == nil {
		return noneFound()
	}
	writeJSON(c.w, struct {
		Group *api.Group `json:"group"`
	}{g})
	return nil
}

func (c *call) checkEligibility(rest string) *apiErr {
	switch {
	case rest != "":
		return noRoute()
	case c.r.Method != http.MethodGet:
		return methodNotAllowed(domainIAM, c.r)
	}
	_, ok := c.st.eligible(c.p)
	writeJSON(c.w, struct {
		Eligible bool `json:"eligible"`
	}{ok})
	return nil
}

// requestGroupAccess records a request to join the organization uid: the
// owners are told out of band, so the answer is empty. Only the caller's
// own domain's organization takes one, once a day.
func (c *call) requestGroupAccess(uid string) *apiErr {
	if c.r.Method != http.MethodPost {
		return methodNotAllowed(domainIAM, c.r)
	}
	// The body is the whole request; its one field is the path's.
	var body struct {
		GroupUID string `json:"groupUid"`
	}
	if e := decodeBody(c, domainIAM, &body); e != nil {
		return e
	}
	switch {
	case uid == "":
		return badField(domainIAM, "group_uid", "is required")
	case body.GroupUID != "" && body.GroupUID != uid:
		return badField(domainIAM, "group_uid", fmt.Sprintf("the body names %q, the path %q", body.GroupUID, uid))
	}
	g := c.st.domainOrg(c.p)
	if g == nil || g.UID != uid {
		return noneFound()
	}
	key := c.p.identity + " " + uid
	now := c.srv.now()
	if at, ok := c.st.people.requests[key]; ok && now.Sub(at) < requestAgain {
		e := newErr(api.CodeResourceExhausted, domainIAM, fmt.Sprintf("a request to join %s was already sent at %s: its owners have it",
			g.Name, at.UTC().Format(time.RFC3339)))
		e.retryAfter = int((requestAgain - now.Sub(at)) / time.Second)
		return e
	}
	c.st.people.requests[key] = now
	writeJSON(c.w, struct{}{})
	return nil
}

func (c *call) lookupIdentity(rest string) *apiErr {
	switch {
	case rest != "":
		return noRoute()
	case c.r.Method != http.MethodGet:
		return methodNotAllowed(domainIAM, c.r)
	}
	q := c.r.URL.Query()
	issuer, subject := q.Get("issuer"), q.Get("subject")
	switch {
	case issuer == "":
		return badField(domainIAM, "issuer", "is required")
	case subject == "":
		return badField(domainIAM, "subject", "is required")
	}
	uid := userUID(issuer, subject)
	tc := &tokenClaims{Iss: issuer, Sub: subject}
	if p := c.st.people.signIn(tc); p != nil {
		uid = p.identity
	} else {
		for i := range c.st.idents.items {
			id := &c.st.idents.items[i]
			if !c.st.idents.dead[i] && id.ClaimMatch != nil && id.ClaimMatch.Issuer == issuer && id.ClaimMatch.Subject == subject {
				uid = id.UID
				break
			}
		}
	}
	writeJSON(c.w, struct {
		UID string `json:"uid"`
	}{uid})
	return nil
}

// metaFields are the profile's fields by JSON name, and whether the
// caller may set each.
var metaFields = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"uid": false, "name": false, "givenName": false, "familyName": false,
		"company": true, "updatesOptIn": true, "product": true, "jobTitle": true, "utmCampaign": true, "utmContent": true,
		"utmMedium": true, "utmSource": true, "utmTerm": true, "latestFormSubmitUrl": true, "latestInternalReferringUrl": true,
		"hubspotUtk": true, "selfServe": true,
	}
})

// maxMetaText bounds a profile's text field.
const maxMetaText = 256

// updateIdentityMetadata sets fields of the caller's own profile: the
// body is the whole request, its mask (in JSON, lowerCamelCase paths)
// inside it. Without a mask, the fields present are set.
func (c *call) updateIdentityMetadata(rest string) *apiErr {
	switch {
	case rest != "":
		return noRoute()
	case c.r.Method != http.MethodPatch:
		return methodNotAllowed(domainIAM, c.r)
	case c.p.admin:
		return newErr(api.CodeFailedPrecondition, domainIAM, "the admin token is no identity: it has no profile to update")
	}
	var body struct {
		Meta map[string]json.RawMessage `json:"identityMetadata"`
		Mask *string                    `json:"updateMask"`
	}
	if e := decodeBody(c, domainIAM, &body); e != nil {
		return e
	}
	if body.Meta == nil {
		return badField(domainIAM, "identity_metadata", "is required")
	}
	for k := range body.Meta {
		if _, ok := metaFields()[k]; !ok {
			return badField(domainIAM, "identity_metadata", fmt.Sprintf("unknown field %q", k))
		}
	}
	paths, e := metaMask(body.Mask, body.Meta)
	if e != nil {
		return e
	}
	cur := c.st.profileOf(c.p)
	var all map[string]json.RawMessage
	b, _ := json.Marshal(cur) // strings and bools always encode
	_ = json.Unmarshal(b, &all)
	for _, p := range paths {
		v, ok := body.Meta[p]
		if !ok {
			// Named by the mask and absent: cleared.
			v = json.RawMessage(`""`)
			if p == "updatesOptIn" || p == "selfServe" {
				v = json.RawMessage(`false`)
			}
		}
		all[p] = v
	}
	b, _ = json.Marshal(all)
	var next profile
	if err := json.Unmarshal(b, &next); err != nil {
		return malformed(domainIAM, err)
	}
	for _, f := range []struct{ name, v string }{{"company", next.Company}, {"job_title", next.JobTitle}, {"product", next.Product}} {
		if len(f.v) > maxMetaText {
			return badField(domainIAM, "identity_metadata."+f.name, fmt.Sprintf("is %d bytes, at most %d", len(f.v), maxMetaText))
		}
	}
	// The marketing cookie is passed on, never kept.
	next.HubspotUTK = ""
	c.st.people.meta[c.p.identity] = next
	writeJSON(c.w, next)
	return nil
}

// metaMask reads an update's mask: JSON paths, comma separated, of fields
// the caller may set; without one, the fields the body has.
func metaMask(mask *string, meta map[string]json.RawMessage) ([]string, *apiErr) {
	bad := func(msg string) *apiErr { return badField(domainIAM, "update_mask", msg) }
	if mask == nil || *mask == "" {
		var out []string
		for k := range meta {
			if metaFields()[k] {
				out = append(out, k)
			}
		}
		slices.Sort(out)
		return out, nil
	}
	var out []string
	for _, p := range strings.Split(*mask, ",") {
		switch settable, known := metaFields()[p]; {
		case p == "*":
			return nil, bad(`"*" is taken over gRPC only: name the fields`)
		case strings.Contains(p, "_"):
			return nil, bad(fmt.Sprintf("%q: a field mask in a JSON body names fields in lowerCamelCase", p))
		case !known:
			return nil, bad(fmt.Sprintf("unknown field %q", p))
		case !settable:
			return nil, bad(fmt.Sprintf("field %q is set by the service, from the caller's sign-in", p))
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}
