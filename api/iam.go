package api

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Paths of the IAM domain.
const (
	groupsPath     = "/iam/v2/groups"
	identitiesPath = "/iam/v2/identities"
	rolesPath      = "/iam/v2/roles"
	bindingsPath   = "/iam/v2/roleBindings"
)

// Updatable fields of IAM resources, as update mask paths: proto field
// names, which the server compares as written (never camelCase).
const (
	FieldName        = "name"
	FieldDescription = "description"
	// FieldClaimMatch replaces an identity's whole claim match.
	FieldClaimMatch = "claim_match"
	// FieldAll is the mask of a full replacement: every updatable field
	// takes the value sent, and one left out (zero) is cleared.
	FieldAll = "*"
)

// ClaimMatchField is the mask path of one member of an identity's claim
// match, by its proto name ("issuer", "subject_pattern", "claims"):
// claim_match.<member>. A PATCH with it changes that member alone.
func ClaimMatchField(member string) string { return FieldClaimMatch + "." + member }

// Members of a claim match, as proto names (see ClaimMatchField). Each of
// issuer, subject and audience is matched exactly or by a pattern, one of
// the two.
const (
	ClaimIssuer          = "issuer"
	ClaimIssuerPattern   = "issuer_pattern"
	ClaimSubject         = "subject"
	ClaimSubjectPattern  = "subject_pattern"
	ClaimAudience        = "audience"
	ClaimAudiencePattern = "audience_pattern"
	ClaimClaims          = "claims"
	ClaimClaimPatterns   = "claim_patterns"
)

// ListGroups lists groups; InRoot lists the caller's organizations.
func (c *Client) ListGroups(ctx context.Context, opts ListOptions) (*Page[Group], error) {
	return list[Group](ctx, c, groupsPath, "groups", opts)
}

// GetGroup fetches one group.
func (c *Client) GetGroup(ctx context.Context, uid string) (*Group, error) {
	return get[Group](ctx, c, groupsPath+"/"+uid, nil)
}

// CreateGroup creates a folder under parent.
func (c *Client) CreateGroup(ctx context.Context, parent string, g Group) (*Group, error) {
	return create[Group](ctx, c, Groups.Create(parent), g)
}

// PatchGroup changes the fields of g named by mask (name, description).
func (c *Client) PatchGroup(ctx context.Context, g Group, mask ...string) (*Group, error) {
	return patch[Group](ctx, c, Groups.Patch(g.UID, mask...), g)
}

// DeleteGroup deletes an empty group; a group with children is refused
// with FAILED_PRECONDITION (see PreconditionViolations).
func (c *Client) DeleteGroup(ctx context.Context, uid string) error {
	return del(ctx, c, Groups.Delete(uid))
}

// ListIdentities lists identities.
func (c *Client) ListIdentities(ctx context.Context, opts ListOptions) (*Page[Identity], error) {
	return list[Identity](ctx, c, identitiesPath, "identities", opts)
}

// GetIdentity fetches one identity.
func (c *Client) GetIdentity(ctx context.Context, uid string) (*Identity, error) {
	return get[Identity](ctx, c, identitiesPath+"/"+uid, nil)
}

// CreateIdentity creates an identity in group.
func (c *Client) CreateIdentity(ctx context.Context, group string, id Identity) (*Identity, error) {
	return create[Identity](ctx, c, Identities.Create(group), id)
}

// PatchIdentity changes the fields of id named by mask (FieldName,
// FieldDescription, FieldClaimMatch or ClaimMatchField paths).
func (c *Client) PatchIdentity(ctx context.Context, id Identity, mask ...string) (*Identity, error) {
	return patch[Identity](ctx, c, Identities.Patch(id.UID, mask...), id)
}

// DeleteIdentity deletes an identity.
func (c *Client) DeleteIdentity(ctx context.Context, uid string) error {
	return del(ctx, c, Identities.Delete(uid))
}

// ListRoles lists roles. Whether a uidp filter includes the built-in roles
// is not documented: RolesOf gathers an organization's roles either way.
func (c *Client) ListRoles(ctx context.Context, opts ListOptions) (*Page[Role], error) {
	return list[Role](ctx, c, rolesPath, "roles", opts)
}

// GetRole fetches one role.
func (c *Client) GetRole(ctx context.Context, uid string) (*Role, error) {
	return get[Role](ctx, c, rolesPath+"/"+uid, nil)
}

// ListRoleBindings lists hydrated role bindings; filter with Identity,
// Group and Role.
func (c *Client) ListRoleBindings(ctx context.Context, opts ListOptions) (*Page[RoleBinding], error) {
	return list[RoleBinding](ctx, c, bindingsPath, "roleBindings", opts)
}

// GetRoleBinding fetches one hydrated role binding.
func (c *Client) GetRoleBinding(ctx context.Context, uid string) (*RoleBinding, error) {
	return get[RoleBinding](ctx, c, bindingsPath+"/"+uid, nil)
}

// CreateRoleBinding binds a role to an identity on group and returns the
// hydrated binding.
func (c *Client) CreateRoleBinding(ctx context.Context, group string, b CreateRoleBinding) (*RoleBinding, error) {
	return create[RoleBinding](ctx, c, RoleBindings.Create(group), b)
}

// DeleteRoleBinding deletes a binding; deleting an absent one succeeds.
func (c *Client) DeleteRoleBinding(ctx context.Context, uid string) error {
	return del(ctx, c, RoleBindings.Delete(uid))
}

// maxRoles bounds how many roles RolesOf gathers: roles are few (the
// built-in ones and an organization's own), and a server that never stops
// listing them must not take all memory.
const maxRoles = 10000

// RolesOf lists the roles that may be bound in organization org: the
// built-in roles and the custom roles of org and its folders, built-in
// first, each group by name. Whether the service lists built-in roles under
// a uidp filter is not documented, so when the filtered list has none, the
// unfiltered list is read for them (and only them) too.
func (c *Client) RolesOf(ctx context.Context, org string) ([]Role, error) {
	var out []Role
	seen := map[string]bool{}
	builtIn := false
	gather := func(opts ListOptions, keep func(*Role) bool) error {
		cur := NewCursor(c.ListRoles, opts, RoleKey)
		for r, err := range cur.All(ctx) {
			if err != nil {
				return err
			}
			if seen[r.UID] || !keep(&r) {
				continue
			}
			if len(out) >= maxRoles {
				return fmt.Errorf("list roles: more than %d roles; stopped", maxRoles)
			}
			seen[r.UID] = true
			builtIn = builtIn || r.BuiltIn()
			out = append(out, r)
		}
		return nil
	}
	inOrg := func(r *Role) bool { return r.BuiltIn() || r.UID == org || IsDescendant(r.UID, org) }
	if err := gather(ListOptions{DescendantsOf: org, PageSize: MaxPageSize}, inOrg); err != nil {
		return out, err
	}
	if !builtIn {
		if err := gather(ListOptions{PageSize: MaxPageSize}, (*Role).BuiltIn); err != nil {
			return out, err
		}
	}
	slices.SortStableFunc(out, func(a, b Role) int {
		if a.BuiltIn() != b.BuiltIn() {
			if a.BuiltIn() {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, nil
}
