package api

import (
	"context"
	"net/http"
)

// Joining an organization, for a token that sees none. The service takes
// the email domain on the caller's token (when the token comes from an
// upstream sign-in that verifies email addresses) and matches it with the
// name of a verified organization: the caller may look that organization
// up, ask whether its token passes the checks at all, and send the
// organization's owners a request to be let in. No call takes a name: the
// token decides which organization, and a caller cannot ask about another.

// The custom methods of groups: two of the collection, one of a group.
const (
	lookupGroupPath        = groupsPath + ":lookupGroup"
	checkEligibilityPath   = groupsPath + ":checkEligibility"
	requestGroupAccessVerb = ":requestGroupAccess"
)

// lookedUpGroup is LookupGroup's answer.
type lookedUpGroup struct {
	Group *Group `json:"group,omitempty"`
}

// eligibility is CheckEligibility's answer.
type eligibility struct {
	Eligible bool `json:"eligible"`
}

// LookupGroup is the verified organization whose name is the email domain
// on the caller's token. NOT_FOUND tells nothing more on purpose: there is
// no such organization, or the token is not from a sign-in the service
// trusts, or the domain is one it does not match (a free mail provider).
func (c *Client) LookupGroup(ctx context.Context) (*Group, error) {
	out, err := get[lookedUpGroup](ctx, c, lookupGroupPath, nil)
	if err != nil {
		return nil, err
	}
	if out.Group == nil {
		// An answer without a group is no organization found: the caller
		// cannot tell it from NOT_FOUND, and need not.
		return nil, &Error{Status: Status{Code: CodeNotFound, Message: "the answer names no organization"},
			HTTPStatus: http.StatusNotFound, Method: http.MethodGet, Path: lookupGroupPath}
	}
	return out.Group, nil
}

// CheckEligibility reports whether the caller's token passes the checks
// LookupGroup and RequestGroupAccess apply to it (a verified email from a
// trusted sign-in, of a domain the service matches). true does not mean
// an organization was found, or that a request may be sent now.
func (c *Client) CheckEligibility(ctx context.Context) (bool, error) {
	out, err := get[eligibility](ctx, c, checkEligibilityPath, nil)
	if err != nil {
		return false, err
	}
	return out.Eligible, nil
}

// RequestGroupAccessOf is the request that asks the owners of the
// organization uid to let the caller in.
func RequestGroupAccessOf(uid string) Request {
	return Request{Method: http.MethodPost, Path: groupsPath + "/" + uid + requestGroupAccessVerb}
}

// RequestGroupAccess asks the owners of the organization uid (the one
// LookupGroup answers) to let the caller in; the service tells them out
// of band, and the answer says only that it did. RESOURCE_EXHAUSTED
// (AlreadyRequested) means the caller asked recently: it is not to be
// sent again. Never retried.
func (c *Client) RequestGroupAccess(ctx context.Context, uid string) error {
	r := RequestGroupAccessOf(uid)
	// The body is the whole request, whose one field the path carries.
	return c.do(ctx, call{method: r.Method, path: r.Path, body: struct{}{}}, nil)
}

// AlreadyRequested reports whether err is the service saying the caller
// asked for access recently (HTTP 429): say so, do not ask again.
func AlreadyRequested(err error) bool {
	e, ok := AsError(err)
	return ok && (e.Code == CodeResourceExhausted || e.HTTPStatus == http.StatusTooManyRequests)
}
