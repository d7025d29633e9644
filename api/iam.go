package api

import "context"

// Paths of the IAM domain.
const (
	groupsPath     = "/iam/v2/groups"
	identitiesPath = "/iam/v2/identities"
	rolesPath      = "/iam/v2/roles"
	bindingsPath   = "/iam/v2/roleBindings"
)

// Updatable fields of IAM resources, as update mask names.
const (
	FieldName        = "name"
	FieldDescription = "description"
	FieldClaimMatch  = "claimMatch"
	// FieldClaimMatchIssuer and FieldClaimMatchSubject change one member
	// of an identity's claimMatch.
	FieldClaimMatchIssuer  = "claimMatch.issuer"
	FieldClaimMatchSubject = "claimMatch.subject"
	// FieldAll is the mask of a full replacement: every updatable field
	// takes the value sent, and one left out (zero) is cleared.
	FieldAll = "*"
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
	return create[Group](ctx, c, groupsPath+"/"+parent, g)
}

// PatchGroup changes the fields of g named by mask (name, description).
func (c *Client) PatchGroup(ctx context.Context, g Group, mask ...string) (*Group, error) {
	return patch[Group](ctx, c, groupsPath+"/"+g.UID, g, mask)
}

// DeleteGroup deletes an empty group; a group with children is refused
// with FAILED_PRECONDITION (see PreconditionViolations).
func (c *Client) DeleteGroup(ctx context.Context, uid string) error {
	return del(ctx, c, groupsPath+"/"+uid)
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
	return create[Identity](ctx, c, identitiesPath+"/"+group, id)
}

// PatchIdentity changes the fields of id named by mask (description, claimMatch).
func (c *Client) PatchIdentity(ctx context.Context, id Identity, mask ...string) (*Identity, error) {
	return patch[Identity](ctx, c, identitiesPath+"/"+id.UID, id, mask)
}

// DeleteIdentity deletes an identity.
func (c *Client) DeleteIdentity(ctx context.Context, uid string) error {
	return del(ctx, c, identitiesPath+"/"+uid)
}

// ListRoles lists roles; built-in roles are always included.
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
	return create[RoleBinding](ctx, c, bindingsPath+"/"+group, b)
}

// DeleteRoleBinding deletes a binding; deleting an absent one succeeds.
func (c *Client) DeleteRoleBinding(ctx context.Context, uid string) error {
	return del(ctx, c, bindingsPath+"/"+uid)
}
