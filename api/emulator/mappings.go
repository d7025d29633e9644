package emulator

import (
	"fmt"
	"net/http"
	"slices"

	"canopy/api"
)

// External group role mappings, as the service keeps them: each under its
// identity provider, never changed (deleted and made again), one per
// provider, group, role and scope. Reading them takes the capability of
// reading providers, deleting them that of deleting providers; making one
// takes making providers and role bindings, and every capability the role
// grants (nobody grants through a mapping more than they hold). A
// provider's mappings go with it.

const typeMapping = "chainguard.iam.v2.ExternalGroupRoleMapping"

// maxExternalGroupID bounds a group's id as a provider names it.
const maxExternalGroupID = 256

// mappingsBatchDelete is the path of the batch delete, a custom method of
// the collection: the verb follows the collection after a colon, so it is
// its own route, never a uid under the collection's.
const mappingsBatchDelete = "/iam/v2/externalGroupRoleMappings:batchDelete"

func (c *call) mappings(rest string) *apiErr {
	st := c.st
	switch {
	case rest == "" && c.r.Method == http.MethodGet:
		q, e := c.parseList(domainIAM, sortUnnamed)
		if e != nil {
			return e
		}
		provider, p := q.p.get("identity_provider_uid"), c.p
		ls := listSpec[api.ExternalGroupRoleMapping]{c: st.mappings, plural: "externalGroupRoleMappings", mask: maskAll,
			extra: []string{provider}, out: func(m *api.ExternalGroupRoleMapping) any { return m }}
		if provider != "" || !p.admin {
			ls.keep = func(m *api.ExternalGroupRoleMapping) bool {
				return (provider == "" || m.IdentityProviderUID == provider) && p.can(capProvidersList, m.UID, false)
			}
		}
		runList(c.srv, c.w, c.r, q, ls)
		return nil
	case rest == "":
		return methodNotAllowed(domainIAM, c.r)
	case c.r.Method == http.MethodGet:
		return getMember(c, domainIAM, capProvidersList, typeMapping, st.mappings, rest, nil)
	case c.r.Method == http.MethodPost:
		return c.createMapping(rest)
	case c.r.Method == http.MethodDelete:
		return deleteMember(c, domainIAM, capProvidersDelete, typeMapping, st.mappings, rest)
	}
	return methodNotAllowed(domainIAM, c.r)
}

// mappingBody is a create's body: the service sets the rest.
type mappingBody struct {
	ExternalGroupID string `json:"externalGroupId"`
	RoleUID         string `json:"roleUid"`
	Scope           string `json:"scope"`
}

func (c *call) createMapping(provider string) *apiErr {
	st, p := c.st, c.p
	if e := p.require(domainIAM, capProvidersCreate, provider, false); e != nil {
		return e
	}
	if e := p.require(domainIAM, capBindingsCreate, provider, false); e != nil {
		return e
	}
	if _, ok := st.providers.get(provider); !ok {
		return notFound(domainIAM, typeIdentityProvider, provider)
	}
	var body mappingBody
	if e := decodeBody(c, domainIAM, &body); e != nil {
		return e
	}
	if e := checkName(domainIAM, "external_group_id", body.ExternalGroupID, 1, maxExternalGroupID); e != nil {
		return e
	}
	org := api.RootUID(provider)
	if body.Scope != org {
		return badField(domainIAM, "scope", fmt.Sprintf("%q must be the uid of the organization of the identity provider (%s): "+
			"a mapping grants its role on the organization only", body.Scope, org))
	}
	role, ok := st.roles.get(body.RoleUID)
	switch {
	case body.RoleUID == "":
		return badField(domainIAM, "role_uid", "is required")
	case !ok:
		return badField(domainIAM, "role_uid", fmt.Sprintf("%q is not a role", body.RoleUID))
	case !builtinRole(role.UID) && api.RootUID(role.UID) != org:
		return badField(domainIAM, "role_uid", fmt.Sprintf("role %q belongs to another organization", role.Name))
	}
	for _, capability := range role.Capabilities {
		if !p.can(capability, body.Scope, false) {
			return p.denied(domainIAM, capability, body.Scope)
		}
	}
	for _, id := range st.mappings.childIDs(provider) {
		m := &st.mappings.items[id]
		if m.ExternalGroupID == body.ExternalGroupID && m.RoleUID == body.RoleUID && m.Scope == body.Scope {
			return alreadyExists(domainIAM, typeMapping, m.UID,
				fmt.Sprintf("the group %q of this identity provider already has the role %q on this scope", m.ExternalGroupID, role.Name))
		}
	}
	m := api.ExternalGroupRoleMapping{UID: st.mappingUID(provider), IdentityProviderUID: provider,
		ExternalGroupID: body.ExternalGroupID, RoleUID: body.RoleUID, Scope: body.Scope, CreateTime: c.now()}
	st.mappings.insert(m)
	writeJSON(c.w, m)
	return nil
}

// mappingUID makes a uid under a provider that no mapping has.
func (s *store) mappingUID(provider string) string {
	for {
		uid := provider + "/" + s.hex16()
		if _, ok := s.mappings.find(uid); !ok {
			return uid
		}
	}
}

// batchDeleteBody is a batch delete's body: the whole request.
type batchDeleteBody struct {
	Parent string   `json:"parent"`
	Names  []string `json:"names"`
}

// batchDeleteMappings deletes the named mappings of one provider at once:
// a name under another parent refuses the whole call before anything is
// deleted; a name it no longer has is skipped. The answer lists what was
// deleted.
func (c *call) batchDeleteMappings(rest string) *apiErr {
	st := c.st
	if rest != "" {
		return noRoute()
	}
	if c.r.Method != http.MethodPost {
		return methodNotAllowed(domainIAM, c.r)
	}
	var body batchDeleteBody
	if e := decodeBody(c, domainIAM, &body); e != nil {
		return e
	}
	switch {
	case body.Parent == "":
		return badField(domainIAM, "parent", "is required")
	case len(body.Names) == 0:
		return badField(domainIAM, "names", "is required: the uids of the mappings to delete")
	}
	if e := c.p.require(domainIAM, capProvidersDelete, body.Parent, false); e != nil {
		return e
	}
	for i, name := range body.Names {
		if api.ParentUID(name) != body.Parent {
			return badField(domainIAM, fmt.Sprintf("names[%d]", i), fmt.Sprintf("%q is not a mapping of %s", name, body.Parent))
		}
	}
	var ids []int32
	out := struct {
		Parent   string                         `json:"parent"`
		Mappings []api.ExternalGroupRoleMapping `json:"externalGroupRoleMappings"`
	}{Parent: body.Parent, Mappings: []api.ExternalGroupRoleMapping{}}
	for _, name := range body.Names {
		id, ok := st.mappings.find(name)
		if !ok || slices.Contains(ids, id) {
			continue // gone already, or named twice
		}
		ids = append(ids, id)
		out.Mappings = append(out.Mappings, st.mappings.items[id])
	}
	st.mappings.removeAll(ids)
	writeJSON(c.w, out)
	return nil
}
