package emulator

import (
	"fmt"
	"net/http"
	"strings"

	"canopy/api"
)

// Capabilities checked by the emulator, as roles grant them.
const (
	capGroupsList     = "CAP_IAM_GROUPS_LIST"
	capGroupsCreate   = "CAP_IAM_GROUPS_CREATE"
	capGroupsUpdate   = "CAP_IAM_GROUPS_UPDATE"
	capGroupsDelete   = "CAP_IAM_GROUPS_DELETE"
	capIdentityList   = "CAP_IDENTITY_LIST"
	capIdentityCreate = "CAP_IDENTITY_CREATE"
	capIdentityUpdate = "CAP_IDENTITY_UPDATE"
	capIdentityDelete = "CAP_IDENTITY_DELETE"
	capRolesList      = "CAP_IAM_ROLES_LIST"
	capBindingsList   = "CAP_IAM_ROLE_BINDINGS_LIST"
	capBindingsCreate = "CAP_IAM_ROLE_BINDINGS_CREATE"
	capBindingsDelete = "CAP_IAM_ROLE_BINDINGS_DELETE"
	capRepoList       = "CAP_REPO_LIST"
	capRepoCreate     = "CAP_REPO_CREATE"
	capRepoUpdate     = "CAP_REPO_UPDATE"
	capRepoDelete     = "CAP_REPO_DELETE"
	capTagList        = "CAP_TAG_LIST"
	capTagCreate      = "CAP_TAG_CREATE"
	capTagDelete      = "CAP_TAG_DELETE"
	capSubsList       = "CAP_SUBSCRIPTION_LIST"
	capSubsCreate     = "CAP_SUBSCRIPTION_CREATE"
	capSubsDelete     = "CAP_SUBSCRIPTION_DELETE"
)

var (
	groupFields       = []string{"uid", "name", "description", "kind", "status", "verified", "resourceLimits", "createTime", "updateTime"}
	groupUpdatable    = []string{"name", "description"}
	identityFields    = []string{"uid", "name", "description", "email", "claimMatch", "lastSeenTime", "createTime", "updateTime"}
	identityUpdatable = []string{"description", "claimMatch", "claimMatch.issuer", "claimMatch.subject"}
)

// scopedKeep filters a list to what a non-admin caller may see.
func scopedKeep[T any](p *principal, cap string, registry bool, uid func(*T) string) func(*T) bool {
	if p.admin {
		return nil
	}
	return func(it *T) bool { return p.can(cap, uid(it), registry) }
}

func (c *call) groups(rest string) *apiErr {
	st := c.st
	switch {
	case rest == "" && c.r.Method == http.MethodGet:
		q, e := parseList(c.r, domainIAM)
		if e != nil {
			return e
		}
		runList(c.srv, c.w, c.r, q, listSpec[api.Group]{c: st.groups, plural: "groups", mask: maskAll,
			keep: scopedKeep(c.p, capGroupsList, false, func(g *api.Group) string { return g.UID }),
			out:  func(g *api.Group) any { return g }})
		return nil
	case rest == "":
		return methodNotAllowed(domainIAM, c.r)
	case c.r.Method == http.MethodGet:
		if e := c.p.require(domainIAM, capGroupsList, rest, false); e != nil {
			return e
		}
		g, ok := st.groups.get(rest)
		if !ok {
			return notFound(domainIAM, typeGroup, rest)
		}
		writeJSON(c.w, g)
	case c.r.Method == http.MethodPost:
		return c.createGroup(rest)
	case c.r.Method == http.MethodPatch:
		return c.patchGroup(rest)
	case c.r.Method == http.MethodDelete:
		return c.deleteGroup(rest)
	default:
		return methodNotAllowed(domainIAM, c.r)
	}
	return nil
}

// parentGroup checks the caller may act on the group a resource is created in.
func (c *call) parentGroup(domain, cap, uid string, registry bool) (*api.Group, *apiErr) {
	if e := c.p.require(domain, cap, uid, registry); e != nil {
		return nil, e
	}
	g, ok := c.st.groups.get(uid)
	if !ok {
		return nil, notFound(domain, typeGroup, uid)
	}
	return g, nil
}

func (c *call) createGroup(parent string) *apiErr {
	if _, e := c.parentGroup(domainIAM, capGroupsCreate, parent, false); e != nil {
		return e
	}
	var g api.Group
	if e := decodeBody(c, domainIAM, &g); e != nil {
		return e
	}
	if e := c.checkGroup(&g, parent, ""); e != nil {
		return e
	}
	now := c.now()
	out := api.Group{UID: c.st.childUID(parent), Name: g.Name, Description: g.Description,
		Status: "ORG_STATUS_READY", CreateTime: now, UpdateTime: now}
	c.st.groups.insert(out)
	writeJSON(c.w, out)
	return nil
}

func (c *call) checkGroup(g *api.Group, parent, self string) *apiErr {
	if e := checkName(domainIAM, "name", g.Name, 100); e != nil {
		return e
	}
	if e := checkDescription(domainIAM, "description", g.Description); e != nil {
		return e
	}
	if siblingNamed(c.st.groups, parent, g.Name, self) {
		return alreadyExists(domainIAM, typeGroup, parent, fmt.Sprintf("a group named %q already exists in %s", g.Name, parent))
	}
	return nil
}

func (c *call) patchGroup(uid string) *apiErr {
	if e := c.p.require(domainIAM, capGroupsUpdate, uid, false); e != nil {
		return e
	}
	id, ok := c.st.groups.find(uid)
	if !ok {
		return notFound(domainIAM, typeGroup, uid)
	}
	var body api.Group
	raw, e := decodePatch(c, domainIAM, &body)
	if e != nil {
		return e
	}
	mask, e := patchMask(c, domainIAM, raw, groupFields, groupUpdatable)
	if e != nil {
		return e
	}
	cur := c.st.groups.items[id]
	next := cur
	for _, f := range mask {
		switch f {
		case "name":
			next.Name = body.Name
		case "description":
			next.Description = body.Description
		}
	}
	if e := c.checkGroup(&next, api.ParentUID(uid), uid); e != nil {
		return e
	}
	if next.Name != cur.Name || next.Description != cur.Description {
		next.UpdateTime = c.now()
		c.st.groups.update(id, next)
	}
	writeJSON(c.w, next)
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func (c *call) deleteGroup(uid string) *apiErr {
	if e := c.p.require(domainIAM, capGroupsDelete, uid, false); e != nil {
		return e
	}
	id, ok := c.st.groups.find(uid)
	if !ok {
		return notFound(domainIAM, typeGroup, uid)
	}
	st := c.st
	var what []string
	var vs []api.PreconditionViolation
	for _, k := range []struct {
		n         int
		one, many string
	}{
		{st.groups.count(uid, true), "subgroup", "subgroups"},
		{st.repos.count(uid, true), "repo", "repos"},
		{st.idents.count(uid, true), "identity", "identities"},
		{st.bindings.count(uid, true), "role binding", "role bindings"},
		{st.subs.count(uid, true), "subscription", "subscriptions"},
		{st.roles.count(uid, true), "custom role", "custom roles"},
	} {
		if k.n == 0 {
			continue
		}
		s := plural(k.n, k.one, k.many)
		what = append(what, s)
		vs = append(vs, api.PreconditionViolation{Type: "RESOURCE_NOT_EMPTY", Subject: uid, Description: "group has " + s})
	}
	if len(vs) > 0 {
		return newErr(api.CodeFailedPrecondition, domainIAM,
			fmt.Sprintf("group %q is not empty: it has %s", st.groups.items[id].Name, strings.Join(what, ", ")),
			api.Detail{PreconditionFailure: &api.PreconditionFailure{Violations: vs}})
	}
	st.groups.remove(id)
	writeJSON(c.w, struct{}{})
	return nil
}

func (c *call) identities(rest string) *apiErr {
	st := c.st
	switch {
	case rest == "" && c.r.Method == http.MethodGet:
		q, e := parseList(c.r, domainIAM)
		if e != nil {
			return e
		}
		runList(c.srv, c.w, c.r, q, listSpec[api.Identity]{c: st.idents, plural: "identities", mask: maskAll,
			keep: scopedKeep(c.p, capIdentityList, false, func(g *api.Identity) string { return g.UID }),
			out:  func(g *api.Identity) any { return g }})
		return nil
	case rest == "":
		return methodNotAllowed(domainIAM, c.r)
	case c.r.Method == http.MethodGet:
		if e := c.p.require(domainIAM, capIdentityList, rest, false); e != nil {
			return e
		}
		g, ok := st.idents.get(rest)
		if !ok {
			return notFound(domainIAM, typeIdentity, rest)
		}
		writeJSON(c.w, g)
	case c.r.Method == http.MethodPost:
		return c.createIdentity(rest)
	case c.r.Method == http.MethodPatch:
		return c.patchIdentity(rest)
	case c.r.Method == http.MethodDelete:
		if e := c.p.require(domainIAM, capIdentityDelete, rest, false); e != nil {
			return e
		}
		id, ok := st.idents.find(rest)
		if !ok {
			return notFound(domainIAM, typeIdentity, rest)
		}
		// The identity's role bindings go with it: they grant nothing without it.
		var drop []int32
		for i := range st.bindings.items {
			if !st.bindings.dead[i] && st.bindings.items[i].IdentityUID == rest {
				drop = append(drop, int32(i))
			}
		}
		for _, b := range drop {
			st.bindings.remove(b)
		}
		st.idents.remove(id)
		writeJSON(c.w, struct{}{})
	default:
		return methodNotAllowed(domainIAM, c.r)
	}
	return nil
}

func checkIdentity(id *api.Identity) *apiErr {
	if e := checkDescription(domainIAM, "description", id.Description); e != nil {
		return e
	}
	if cm := id.ClaimMatch; cm != nil {
		if !strings.HasPrefix(cm.Issuer, "https://") && !strings.HasPrefix(cm.Issuer, "http://") {
			return badField(domainIAM, "claimMatch.issuer", fmt.Sprintf("%q must be the URL of a token issuer", cm.Issuer))
		}
		if cm.Subject == "" {
			return badField(domainIAM, "claimMatch.subject", "is required")
		}
	}
	return nil
}

func (c *call) createIdentity(parent string) *apiErr {
	if _, e := c.parentGroup(domainIAM, capIdentityCreate, parent, false); e != nil {
		return e
	}
	var id api.Identity
	if e := decodeBody(c, domainIAM, &id); e != nil {
		return e
	}
	if e := checkIdentityName(id.Name); e != nil {
		return e
	}
	if e := checkIdentity(&id); e != nil {
		return e
	}
	if siblingNamed(c.st.idents, parent, id.Name, "") {
		return alreadyExists(domainIAM, typeIdentity, parent, fmt.Sprintf("an identity named %q already exists in %s", id.Name, parent))
	}
	now := c.now()
	out := api.Identity{UID: c.st.childUID(parent), Name: id.Name, Description: id.Description, Email: id.Email,
		ClaimMatch: id.ClaimMatch, CreateTime: now, UpdateTime: now}
	c.st.idents.insert(out)
	writeJSON(c.w, out)
	return nil
}

func (c *call) patchIdentity(uid string) *apiErr {
	if e := c.p.require(domainIAM, capIdentityUpdate, uid, false); e != nil {
		return e
	}
	id, ok := c.st.idents.find(uid)
	if !ok {
		return notFound(domainIAM, typeIdentity, uid)
	}
	var body api.Identity
	raw, e := decodePatch(c, domainIAM, &body)
	if e != nil {
		return e
	}
	mask, e := patchMask(c, domainIAM, raw, identityFields, identityUpdatable)
	if e != nil {
		return e
	}
	cur := c.st.idents.items[id]
	next := cur
	for _, f := range mask {
		switch f {
		case "description":
			next.Description = body.Description
		case "claimMatch":
			next.ClaimMatch = body.ClaimMatch
		case "claimMatch.issuer", "claimMatch.subject":
			// One member: the other keeps its value (a copy, so that the
			// stored identity changes only through update).
			var cm, from api.ClaimMatch
			if next.ClaimMatch != nil {
				cm = *next.ClaimMatch
			}
			if body.ClaimMatch != nil {
				from = *body.ClaimMatch
			}
			if f == "claimMatch.issuer" {
				cm.Issuer = from.Issuer
			} else {
				cm.Subject = from.Subject
			}
			next.ClaimMatch = &cm
		}
	}
	if e := checkIdentity(&next); e != nil {
		return e
	}
	if next.Description != cur.Description || claimString(next.ClaimMatch) != claimString(cur.ClaimMatch) {
		next.UpdateTime = c.now()
		c.st.idents.update(id, next)
	}
	writeJSON(c.w, next)
	return nil
}

func claimString(cm *api.ClaimMatch) string {
	if cm == nil {
		return ""
	}
	return cm.Issuer + "\x00" + cm.Subject
}
