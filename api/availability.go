package api

import "strings"

// NotOnServer reports whether err says the server has no such call at all,
// as opposed to a resource that is not there: UNIMPLEMENTED (501), or a
// 404 that names no resource (a gateway's "no route"). A service older or
// newer than the one canopy was written for may lack a route; that is "not
// available on this server", not a failure to retry.
func NotOnServer(err error) bool {
	e, ok := AsError(err)
	if !ok {
		return false
	}
	switch {
	case e.Code == CodeUnimplemented:
		return true
	case e.Code == CodeNotFound || e.HTTPStatus == 404:
		// A missing resource is described by a ResourceInfo; a route the
		// gateway does not know is not (its body may not even be AIP-193).
		return e.ResourceInfo() == nil
	}
	return false
}

// RefusedOrder reports whether err is the server refusing a list's order_by:
// INVALID_ARGUMENT whose field violation (or, without details, whose
// message) names the order. The caller falls back to the default order.
func RefusedOrder(err error) bool {
	e, ok := AsError(err)
	if !ok || e.Code != CodeInvalidArgument {
		return false
	}
	vs := e.FieldViolations()
	for _, v := range vs {
		if isOrderField(v.Field) {
			return true
		}
	}
	if len(vs) > 0 {
		return false
	}
	msg := strings.ToLower(e.Message)
	return strings.Contains(msg, "order_by") || strings.Contains(msg, "orderby") || strings.Contains(msg, "order by")
}

func isOrderField(f string) bool {
	f = strings.ToLower(strings.ReplaceAll(f, "_", ""))
	return f == "orderby"
}

// CollectionOf names the collection a failed List call was for, by the
// last segment of its path ("subscriptions", "versions"), "" when err is
// not an answer to a call.
func CollectionOf(err error) string {
	e, ok := AsError(err)
	if !ok {
		return ""
	}
	p := strings.TrimRight(e.Path, "/")
	return p[strings.LastIndexByte(p, '/')+1:]
}
