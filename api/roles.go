package api

import (
	"context"
	"fmt"
	"slices"
)

// Custom roles, written: a role made in a folder (the organization, as
// canopy makes them) grants the capabilities it lists wherever it is
// bound. The service's own roles (a flat uid, BuiltIn) are not changed or
// deleted; the service refuses it.

// FieldCapabilities is the mask path of a role's capabilities: an update
// with it replaces the whole list with the one sent.
const FieldCapabilities = "capabilities"

// RoleUpdates are the mask paths an update of a role may name.
func RoleUpdates() []string { return []string{FieldName, FieldDescription, FieldCapabilities} }

// NewRole is what a create sends: the parent is the request's, and the
// service sets the uid and times.
type NewRole struct {
	Name         string   `json:"name"`
	Description  string   `json:"description,omitempty"`
	Capabilities []string `json:"capabilities"`
}

// CreateRole makes a custom role in the folder parent. It must grant at
// least one capability, each an enum name of the catalogue
// (Capabilities).
func (c *Client) CreateRole(ctx context.Context, parent string, r NewRole) (*Role, error) {
	return create[Role](ctx, c, Roles.Create(parent), r)
}

// UpdateRole changes the fields of r named by mask (RoleUpdates); the
// capabilities are replaced whole.
func (c *Client) UpdateRole(ctx context.Context, r Role, mask ...string) (*Role, error) {
	return patch[Role](ctx, c, Roles.Patch(r.UID, mask...), r)
}

// DeleteRole deletes a custom role. The service refuses a role still
// bound (FAILED_PRECONDITION, see PreconditionViolations): its bindings go
// first.
func (c *Client) DeleteRole(ctx context.Context, uid string) error {
	return del(ctx, c, Roles.Delete(uid))
}

// FindRole finds the role r directly in parent (after a create whose
// answer was lost): same name, description and capabilities, so that an
// older role of the same name (where the service allows one) is not taken
// for it.
func (c *Client) FindRole(ctx context.Context, parent string, r NewRole) (*Role, error) {
	want := slices.Sorted(slices.Values(r.Capabilities))
	got, err := find(ctx, c.ListRoles, ListOptions{ChildrenOf: parent, Name: r.Name}, func(x *Role) bool {
		return x.Name == r.Name && ParentUID(x.UID) == parent && x.Description == r.Description &&
			slices.Equal(slices.Sorted(slices.Values(x.Capabilities)), want)
	})
	if err != nil {
		return nil, fmt.Errorf("find role %q in %s: %w", r.Name, parent, err)
	}
	return got, nil
}
