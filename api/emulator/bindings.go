package emulator

import (
	"fmt"
	"net/http"
	"strings"

	"canopy/api"
)

// builtinRole reports whether a role uid is a built-in one (flat, no group).
func builtinRole(uid string) bool { return !strings.Contains(uid, "/") }

func (c *call) rolesRoute(rest string) *apiErr {
	st := c.st
	switch {
	case rest == "" && c.r.Method == http.MethodGet:
		q, e := c.parseList(domainIAM, sortNamed)
		if e != nil {
			return e
		}
		// Custom roles follow the hierarchy filter and the caller's scope.
		// Whether the built-in roles (which are in no group) come with a
		// uidp filter is not documented: a lenient server lists them
		// whatever the filter, a strict one only in a list without one.
		scope := q.descendantsOf
		direct := false
		if q.childrenOf != "" {
			scope, direct = q.childrenOf, true
		}
		inRoot := q.inRoot
		filtered := scope != "" || inRoot
		q.descendantsOf, q.childrenOf, q.inRoot = "", "", false
		p, strict := c.p, c.srv.strict
		runList(c.srv, c.w, c.r, q, listSpec[api.Role]{c: st.roles, plural: "roles", mask: maskAll,
			extra: []string{scope, fmt.Sprint(direct, inRoot)},
			keep: func(r *api.Role) bool {
				if builtinRole(r.UID) {
					return !strict || !filtered
				}
				if inRoot || (scope != "" && !(direct && api.ParentUID(r.UID) == scope) && !(!direct && api.IsDescendant(r.UID, scope))) {
					return false
				}
				return p.can(capRolesList, r.UID, false)
			},
			out: func(r *api.Role) any { return r }})
		return nil
	case c.r.Method == http.MethodGet && rest != "":
		if !builtinRole(rest) {
			if e := c.p.require(domainIAM, capRolesList, rest, false); e != nil {
				return e
			}
		}
		r, ok := st.roles.get(rest)
		if !ok {
			return notFound(domainIAM, typeRole, rest)
		}
		writeJSON(c.w, r)
		return nil
	case rest != "":
		if e, ok := c.writeRole(rest); ok {
			return e
		}
	}
	return methodNotAllowed(domainIAM, c.r)
}

func (c *call) roleBindings(rest string) *apiErr {
	st := c.st
	switch {
	case rest == "" && c.r.Method == http.MethodGet:
		q, e := c.parseList(domainIAM, sortUnnamed)
		if e != nil {
			return e
		}
		ident, group, role := q.p.get("identity"), q.p.get("group"), q.p.get("role")
		p := c.p
		ls := listSpec[bindingRec]{c: st.bindings, plural: "roleBindings", mask: maskAll,
			extra: []string{ident, group, role},
			out:   func(b *bindingRec) any { return st.bindingOut(b) }}
		if ident != "" || group != "" || role != "" || !p.admin {
			ls.keep = func(b *bindingRec) bool {
				return (ident == "" || b.IdentityUID == ident) && (group == "" || api.ParentUID(b.UID) == group) &&
					(role == "" || b.RoleUID == role) && p.can(capBindingsList, b.UID, false)
			}
		}
		runList(c.srv, c.w, c.r, q, ls)
		return nil
	case rest == "":
		return methodNotAllowed(domainIAM, c.r)
	case c.r.Method == http.MethodGet:
		return getMember(c, domainIAM, capBindingsList, typeRoleBinding, st.bindings, rest, func(b *bindingRec) any { return st.bindingOut(b) })
	case c.r.Method == http.MethodPost:
		return c.createBinding(rest)
	case c.r.Method == http.MethodPatch:
		return c.patchBinding(rest)
	case c.r.Method == http.MethodDelete:
		if e := c.p.require(domainIAM, capBindingsDelete, rest, false); e != nil {
			return e
		}
		// Idempotent: deleting an absent binding succeeds.
		if id, ok := st.bindings.find(rest); ok {
			st.bindings.remove(id)
		}
		writeJSON(c.w, struct{}{})
	default:
		return methodNotAllowed(domainIAM, c.r)
	}
	return nil
}

func (c *call) createBinding(group string) *apiErr {
	st := c.st
	g, e := c.parentGroup(domainIAM, capBindingsCreate, group, false)
	if e != nil {
		return e
	}
	var body api.CreateRoleBinding
	if e := decodeBody(c, domainIAM, &body); e != nil {
		return e
	}
	if body.IdentityUID == "" {
		return badField(domainIAM, "identityUid", "is required")
	}
	if body.RoleUID == "" {
		return badField(domainIAM, "roleUid", "is required")
	}
	ident, ok := st.idents.get(body.IdentityUID)
	if !ok {
		return notFound(domainIAM, typeIdentity, body.IdentityUID)
	}
	role, ok := st.roles.get(body.RoleUID)
	if !ok {
		return notFound(domainIAM, typeRole, body.RoleUID)
	}
	org := api.RootUID(g.UID)
	if api.RootUID(ident.UID) != org {
		return badField(domainIAM, "identityUid", fmt.Sprintf("identity %q belongs to another organization", ident.Name))
	}
	if !builtinRole(role.UID) && api.RootUID(role.UID) != org {
		return badField(domainIAM, "roleUid", fmt.Sprintf("role %q belongs to another organization", role.Name))
	}
	for i := range st.bindings.items {
		b := &st.bindings.items[i]
		if !st.bindings.dead[i] && b.IdentityUID == ident.UID && b.RoleUID == role.UID && api.ParentUID(b.UID) == group {
			return alreadyExists(domainIAM, typeRoleBinding, b.UID,
				fmt.Sprintf("identity %q already has role %q on group %q", ident.Name, role.Name, g.Name))
		}
	}
	now := c.now()
	rec := bindingRec{UID: st.childUID(group), IdentityUID: ident.UID, RoleUID: role.UID, Create: now, Update: now}
	st.bindings.insert(rec)
	writeJSON(c.w, st.bindingOut(&rec))
	return nil
}
