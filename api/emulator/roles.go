package emulator

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"canopy/api"
)

// Custom roles, written, as roles.proto has them: made in a group, changed
// by a mask (name, description, capabilities), deleted; the service's own
// roles (a flat uid) are neither changed nor deleted. A role grants only
// capabilities a customer's role may hold (api.Capabilities): not an
// unknown, deprecated or staff-only one, and at least one. Names are
// unique under a group, and no custom role takes a built-in one's name
// (an organization's roles are chosen by name). A role still bound is not
// deleted: roles.proto says the delete fails, and the refusal says how
// many bindings hold it.

// Capabilities of writing roles.
const (
	capRolesCreate = "CAP_IAM_ROLES_CREATE"
	capRolesUpdate = "CAP_IAM_ROLES_UPDATE"
	capRolesDelete = "CAP_IAM_ROLES_DELETE"
)

// roleNameMax bounds a role's name; the definitions give no bound, and
// the emulator takes a folder's.
const roleNameMax = api.GroupNameMax

// roleSpec is how a role is updated.
var roleSpec = sync.OnceValue(func() *maskSpec {
	return &maskSpec{
		fields:    jsonNames("uid", "name", "description", "capabilities", "create_time", "update_time"),
		updatable: api.RoleUpdates()}
})

// writeRole answers the writes of roles (rest: a uid, or a group's for a
// create); ok is false for a method that is none.
func (c *call) writeRole(rest string) (e *apiErr, ok bool) {
	switch c.r.Method {
	case http.MethodPost:
		return c.createRole(rest), true
	case http.MethodPatch:
		return c.patchRole(rest), true
	case http.MethodDelete:
		return c.deleteRole(rest), true
	}
	return nil, false
}

// roleBody is a create's body: the service sets the rest.
type roleBody struct {
	Name         string   `json:"name"`
	Description  string   `json:"description"`
	Capabilities []string `json:"capabilities"`
}

func (c *call) createRole(parent string) *apiErr {
	if _, e := c.parentGroup(domainIAM, capRolesCreate, parent, false); e != nil {
		return e
	}
	var body roleBody
	if e := decodeBody(c, domainIAM, &body); e != nil {
		return e
	}
	r := api.Role{Name: body.Name, Description: body.Description, Capabilities: body.Capabilities}
	if e := c.checkRole(&r, nil, parent, ""); e != nil {
		return e
	}
	now := c.now()
	r.UID, r.CreateTime, r.UpdateTime = c.st.childUID(parent), now, now
	c.st.roles.insert(r)
	writeJSON(c.w, r)
	return nil
}

// builtIn refuses a change to one of the service's own roles, or answers
// NOT_FOUND for a flat uid that is none; nil for a custom role's uid.
func (c *call) builtIn(uid, verb string) *apiErr {
	if !builtinRole(uid) {
		return nil
	}
	r, ok := c.st.roles.get(uid)
	if !ok {
		return notFound(domainIAM, typeRole, uid)
	}
	msg := fmt.Sprintf("role %q is built in: the service's own roles cannot be %s", r.Name, verb)
	return newErr(api.CodeFailedPrecondition, domainIAM, msg, api.Detail{PreconditionFailure: &api.PreconditionFailure{
		Violations: []api.PreconditionViolation{{Type: "BUILT_IN_ROLE", Subject: uid, Description: msg}}}})
}

func (c *call) patchRole(uid string) *apiErr {
	if e := c.builtIn(uid, "changed"); e != nil {
		return e
	}
	if e := c.p.require(domainIAM, capRolesUpdate, uid, false); e != nil {
		return e
	}
	return patchStored(c, domainIAM, typeRole, c.st.roles, uid, roleSpec(),
		func(next, cur *api.Role) *apiErr { return c.checkRole(next, cur, api.ParentUID(uid), uid) },
		func(r *api.Role, now api.Time) { r.UpdateTime = now })
}

// checkRole checks a role being made (was nil) or changed, whole: its
// name (unique under parent, and not a built-in role's) when it is new,
// its description, and its capabilities.
func (c *call) checkRole(r, was *api.Role, parent, self string) *apiErr {
	if was == nil || r.Name != was.Name {
		if e := checkName(domainIAM, "name", r.Name, 1, roleNameMax); e != nil {
			return e
		}
		if siblingNamed(c.st.roles, parent, r.Name, self) {
			return alreadyExists(domainIAM, typeRole, parent, fmt.Sprintf("a role named %q already exists in %s", r.Name, parent))
		}
		if slices.ContainsFunc(builtinRoles, func(b roleDef) bool { return b.name == r.Name }) {
			return alreadyExists(domainIAM, typeRole, builtinRoleUID(r.Name), fmt.Sprintf("%q is a built-in role's name", r.Name))
		}
	}
	if e := checkDescription(domainIAM, "description", r.Description); e != nil {
		return e
	}
	return checkCapabilities(r)
}

// checkCapabilities requires one capability at least, each one a
// customer's role may hold; the same one twice is kept once.
func checkCapabilities(r *api.Role) *apiErr {
	if len(r.Capabilities) == 0 {
		return badField(domainIAM, "capabilities", "a role grants at least one capability")
	}
	grantable := map[string]bool{}
	for _, cp := range api.Capabilities() {
		grantable[cp.Name] = true
	}
	var bad []string
	seen := map[string]bool{}
	kept := make([]string, 0, len(r.Capabilities))
	for _, cp := range r.Capabilities {
		switch {
		case !grantable[cp]:
			bad = append(bad, fmt.Sprintf("%q", cp))
		case !seen[cp]:
			seen[cp] = true
			kept = append(kept, cp)
		}
	}
	if len(bad) > 0 {
		return badField(domainIAM, "capabilities", strings.Join(bad, ", ")+
			" are not capabilities a customer's role may hold (unknown, deprecated or Chainguard's own)")
	}
	r.Capabilities = kept
	return nil
}

func (c *call) deleteRole(uid string) *apiErr {
	if e := c.builtIn(uid, "deleted"); e != nil {
		return e
	}
	if e := c.p.require(domainIAM, capRolesDelete, uid, false); e != nil {
		return e
	}
	st := c.st
	id, ok := st.roles.find(uid)
	if !ok {
		return notFound(domainIAM, typeRole, uid)
	}
	bound := 0
	for i := range st.bindings.items {
		if !st.bindings.dead[i] && st.bindings.items[i].RoleUID == uid {
			bound++
		}
	}
	if bound > 0 {
		held := plural(bound, "role binding holds", "role bindings hold")
		msg := fmt.Sprintf("role %q is still bound: %s it; delete them first", st.roles.items[id].Name, held)
		return newErr(api.CodeFailedPrecondition, domainIAM, msg, api.Detail{PreconditionFailure: &api.PreconditionFailure{
			Violations: []api.PreconditionViolation{{Type: "ROLE_IN_USE", Subject: uid, Description: msg}}}})
	}
	st.roles.remove(id)
	writeJSON(c.w, struct{}{})
	return nil
}
