package emulator

// getMember answers a GET of one member of cl by its uid, for a caller
// with capability cap on it; out is how the member is shown (nil: as it is).
func getMember[T any](c *call, domain, cap, resType string, cl *coll[T], uid string, out func(*T) any) *apiErr {
	if e := c.p.require(domain, cap, uid, false); e != nil {
		return e
	}
	it, ok := cl.get(uid)
	if !ok {
		return notFound(domain, resType, uid)
	}
	if out == nil {
		writeJSON(c.w, it)
		return nil
	}
	writeJSON(c.w, out(it))
	return nil
}

// deleteMember answers a DELETE of one member of cl by its uid, for a
// caller with capability cap on it: NOT_FOUND when there is none.
func deleteMember[T any](c *call, domain, cap, resType string, cl *coll[T], uid string) *apiErr {
	if e := c.p.require(domain, cap, uid, false); e != nil {
		return e
	}
	id, ok := cl.find(uid)
	if !ok {
		return notFound(domain, resType, uid)
	}
	cl.remove(id)
	writeJSON(c.w, struct{}{})
	return nil
}

// listMembers answers a List of cl's members in sorting s, as ls says
// which and how.
func listMembers[T any](c *call, domain string, s sorting, ls listSpec[T]) *apiErr {
	q, e := c.parseList(domain, s)
	if e != nil {
		return e
	}
	runList(c.srv, c.w, c.r, q, ls)
	return nil
}
