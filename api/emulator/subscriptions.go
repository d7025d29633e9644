package emulator

import (
	"net/http"

	"canopy/api"
)

func (c *call) subscriptions(rest string) *apiErr {
	st := c.st
	switch {
	case rest == "" && c.r.Method == http.MethodGet:
		return listMembers(c, domainEvents, sortSubs, listSpec[api.Subscription]{c: st.subs, plural: "subscriptions", mask: maskAll,
			keep: scopedKeep(c.p, capSubsList, false, func(s *api.Subscription) string { return s.UID }),
			out:  func(s *api.Subscription) any { return s }})
	case rest == "":
		return methodNotAllowed(domainEvents, c.r)
	case c.r.Method == http.MethodGet:
		return getMember(c, domainEvents, capSubsList, typeSubscription, st.subs, rest, nil)
	case c.r.Method == http.MethodPost:
		if _, e := c.parentGroup(domainEvents, capSubsCreate, rest, false); e != nil {
			return e
		}
		var body api.Subscription
		if e := decodeBody(c, domainEvents, &body); e != nil {
			return e
		}
		if e := checkHTTPSURL(domainEvents, "sink", body.Sink); e != nil {
			return e
		}
		out := api.Subscription{UID: st.childUID(rest), Sink: body.Sink}
		st.subs.insert(out)
		writeJSON(c.w, out)
	case c.r.Method == http.MethodDelete:
		return deleteMember(c, domainEvents, capSubsDelete, typeSubscription, st.subs, rest)
	default:
		return methodNotAllowed(domainEvents, c.r)
	}
	return nil
}
