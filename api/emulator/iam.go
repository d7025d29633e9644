package emulator

import (
	"fmt"
	"net/http"
	"strings"
	"sync"

	"canopy/api"
)

// Capabilities checked by the emulator, as roles grant them: the names of
// the vendor's capability enum.
const (
	capGroupsList     = "CAP_IAM_GROUPS_LIST"
	capGroupsCreate   = "CAP_IAM_GROUPS_CREATE"
	capGroupsUpdate   = "CAP_IAM_GROUPS_UPDATE"
	capGroupsDelete   = "CAP_IAM_GROUPS_DELETE"
	capIdentityList   = "CAP_IAM_IDENTITY_LIST"
	capIdentityCreate = "CAP_IAM_IDENTITY_CREATE"
	capIdentityUpdate = "CAP_IAM_IDENTITY_UPDATE"
	capIdentityDelete = "CAP_IAM_IDENTITY_DELETE"
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
	capSubsList       = "CAP_EVENTS_SUBSCRIPTION_LIST"
	capSubsCreate     = "CAP_EVENTS_SUBSCRIPTION_CREATE"
	capSubsDelete     = "CAP_EVENTS_SUBSCRIPTION_DELETE"
)

// groupSpec is how a group is updated: its name and description. Whether
// it is verified is Chainguard's to say, and its kind is its root's.
var groupSpec = sync.OnceValue(func() *maskSpec {
	return &maskSpec{
		fields:    jsonNames("uid", "name", "description", "resource_limits", "verified", "create_time", "update_time", "kind", "status"),
		updatable: []string{"name", "description"},
		fixed: map[string]string{"verified": "only Chainguard staff set it",
			"kind": "an organization's kind is set when it is created, and a subgroup's is its root's"}}
})

// jsonNames maps proto field names to their JSON keys (lowerCamelCase).
func jsonNames(protos ...string) map[string]string {
	out := make(map[string]string, len(protos))
	for _, p := range protos {
		out[p] = api.JSONName(p)
	}
	return out
}

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
		return listMembers(c, domainIAM, sortNamed, listSpec[api.Group]{c: st.groups, plural: "groups", mask: maskAll,
			keep: scopedKeep(c.p, capGroupsList, false, func(g *api.Group) string { return g.UID }),
			out:  func(g *api.Group) any { return g }})
	case rest == "":
		return methodNotAllowed(domainIAM, c.r)
	case c.r.Method == http.MethodGet:
		return getMember(c, domainIAM, capGroupsList, typeGroup, st.groups, rest, nil)
	case c.r.Method == http.MethodPost:
		return c.createGroup(rest)
	case c.r.Method == http.MethodPatch:
		return c.patchGroup(rest)
	case c.r.Method == http.MethodDelete:
		return c.deleteGroup(rest)
	default:
		return methodNotAllowed(domainIAM, c.r)
	}
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
	if e := c.checkGroup(&g, nil, parent, ""); e != nil {
		return e
	}
	now := c.now()
	out := api.Group{UID: c.st.childUID(parent), Name: g.Name, Description: g.Description,
		Status: "ORG_STATUS_READY", CreateTime: now, UpdateTime: now}
	c.st.groups.insert(out)
	writeJSON(c.w, out)
	return nil
}

// checkGroup checks a group being created (was nil) or changed, whole:
// its name must be printable whatever the change. The 3 to 63 characters
// are checked only of a new name: older groups may have shorter names
// ("ci"), and keeping one is no change.
func (c *call) checkGroup(g, was *api.Group, parent, self string) *apiErr {
	if was == nil || g.Name != was.Name {
		if e := checkName(domainIAM, "name", g.Name, api.GroupNameMin, api.GroupNameMax); e != nil {
			return e
		}
		if siblingNamed(c.st.groups, parent, g.Name, self) {
			return alreadyExists(domainIAM, typeGroup, parent, fmt.Sprintf("a group named %q already exists in %s", g.Name, parent))
		}
	}
	if e := checkDescription(domainIAM, "name", g.Name); e != nil {
		return e
	}
	return checkDescription(domainIAM, "description", g.Description)
}

func (c *call) patchGroup(uid string) *apiErr {
	if e := c.p.require(domainIAM, capGroupsUpdate, uid, false); e != nil {
		return e
	}
	return patchStored(c, domainIAM, typeGroup, c.st.groups, uid, groupSpec(),
		func(next, cur *api.Group) *apiErr { return c.checkGroup(next, cur, api.ParentUID(uid), uid) },
		func(g *api.Group, now api.Time) { g.UpdateTime = now })
}

// patchStored answers the PATCH of a resource stored whole in cl (a group,
// an identity): the mask applied to a copy, the result checked, stored
// (touched) when it changed, and sent back.
func patchStored[T any](c *call, domain, typ string, cl *coll[T], uid string, spec *maskSpec,
	check func(next, cur *T) *apiErr, touch func(*T, api.Time)) *apiErr {
	id, ok := cl.find(uid)
	if !ok {
		return notFound(domain, typ, uid)
	}
	var body T
	raw, e := decodePatch(c, domain, &body)
	if e != nil {
		return e
	}
	cur := cl.items[id]
	var next T
	if e := patched(c, domain, &cur, raw, spec, &next); e != nil {
		return e
	}
	if e := check(&next, &cur); e != nil {
		return e
	}
	if !sameJSON(next, cur) {
		touch(&next, c.now())
		cl.update(id, next)
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
		{st.providers.count(uid, true), "identity provider", "identity providers"},
		{st.invites.count(uid, true), "invite", "invites"},
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
