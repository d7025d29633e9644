package emulator

import (
	"fmt"
	"net/http"
	"strings"

	"canopy/api"
)

func (c *call) tagsRoute(rest string) *apiErr {
	st := c.st
	switch {
	case rest == "" && c.r.Method == http.MethodGet:
		q, e := c.parseList(domainRegistry, sortTags)
		if e != nil {
			return e
		}
		scope := q.descendantsOf + q.childrenOf
		if e := c.registryAccess(capTagList, scope); e != nil {
			return e
		}
		if e := c.tagsListed(q); e != nil {
			return e
		}
		// Referrers, epoch and dated tags are hidden unless asked for.
		mask := uint8(1 << classNormal)
		for _, inc := range []struct {
			param string
			class uint8
		}{{"include_referrers", classReferrer}, {"include_epochs", classEpoch}, {"include_dates", classDate}} {
			if q.p.bool(inc.param) {
				mask |= 1 << inc.class
			}
		}
		// The page's uids and digests are cut from one buffer: one
		// allocation a page rather than one a tag.
		var strs strings.Builder
		strs.Grow(q.size * pageBytesPerTag)
		ls := listSpec[tagRec]{c: st.tags, plural: "tags", mask: mask,
			out: func(t *tagRec) any { return st.tagOutIn(&strs, t) }}
		if scope == "" {
			ls.within, ls.keep = registryScope(c, capTagList, st.tagUID)
		}
		runList(c.srv, c.w, c.r, q, ls)
		return nil
	case rest == "":
		return methodNotAllowed(domainRegistry, c.r)
	case c.r.Method == http.MethodGet:
		if e := c.p.require(domainRegistry, capTagList, rest, true); e != nil {
			return e
		}
		if e := c.needTags(api.ParentUID(rest), true); e != nil {
			return e
		}
		t, ok := st.tags.get(rest)
		if !ok {
			return notFound(domainRegistry, typeTag, rest)
		}
		writeJSON(c.w, st.tagOut(t))
	case c.r.Method == http.MethodPost:
		return c.createTag(rest)
	case c.r.Method == http.MethodDelete:
		if e := c.p.require(domainRegistry, capTagDelete, rest, true); e != nil {
			return e
		}
		if e := c.needTags(api.ParentUID(rest), true); e != nil {
			return e
		}
		id, ok := st.tags.find(rest)
		if !ok {
			return notFound(domainRegistry, typeTag, rest)
		}
		st.tags.remove(id)
		writeJSON(c.w, struct{}{})
	default:
		return methodNotAllowed(domainRegistry, c.r)
	}
	return nil
}

// tagsListed makes the tags a list reaches: those of the repo it lists the
// children of, of the repos below the group it lists the descendants of,
// or, with no uidp filter, all.
func (c *call) tagsListed(q *listQuery) *apiErr {
	switch {
	case q.inRoot:
		return nil // no tag is at the root
	case q.childrenOf != "":
		return c.needTags(q.childrenOf, true)
	}
	return c.needTags(q.descendantsOf, false)
}

// createTag creates a tag in a repo, or points an existing tag of that name
// at the new digest (there is no PATCH for tags).
func (c *call) createTag(repoUID string) *apiErr {
	st := c.st
	if _, e := c.repo(repoUID); e != nil {
		return e
	}
	if e := c.p.require(domainRegistry, capTagCreate, repoUID, true); e != nil {
		return e
	}
	if e := c.needTags(repoUID, true); e != nil {
		return e
	}
	var body api.Tag
	if e := decodeBody(c, domainRegistry, &body); e != nil {
		return e
	}
	if !api.TagName.Match(body.Name) {
		return badField(domainRegistry, "name", fmt.Sprintf("%q must match ^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$", body.Name))
	}
	if !api.Digest.Match(body.Digest) {
		return badField(domainRegistry, "digest", fmt.Sprintf("%q must be sha256: and 64 lower-case hex digits", body.Digest))
	}
	now := c.srv.now().UnixMilli()
	// The digest matched api.Digest: it parses.
	if id, ok := childNamed(st.tags, repoUID, body.Name); ok {
		t := st.tags.items[id]
		if d, _ := parseDigest(body.Digest); d != t.Digest {
			t.Digest, t.Update = d, now
			st.tags.update(id, t)
		}
		writeJSON(c.w, st.tagOut(&t))
		return nil
	}
	d, _ := parseDigest(body.Digest)
	t := st.newTag(repoUID, st.rng.Uint64(), body.Name, d, now, now, false)
	st.tags.insert(t)
	writeJSON(c.w, st.tagOut(&t))
	return nil
}
