package api

import (
	"context"
	"fmt"
)

// External group role mappings: the members of a group of an identity
// provider's directory (the value its token's groups claim carries) get a
// role in the organization when they sign in through that provider. A
// mapping lives under its provider (its uid is the provider's and one
// segment more) and is never changed: to change one, delete it and make
// another.

const externalGroupRoleMappingsPath = "/iam/v2/externalGroupRoleMappings"

// ExternalGroupRoleMapping grants RoleUID at Scope to whoever signs in
// through the provider IdentityProviderUID as a member of its group
// ExternalGroupID.
type ExternalGroupRoleMapping struct {
	UID                 string `json:"uid,omitempty"`
	IdentityProviderUID string `json:"identityProviderUid,omitempty"`
	// ExternalGroupID is the group as the provider names it, opaque to the
	// service: the value of the groups claim it is matched against.
	ExternalGroupID string `json:"externalGroupId,omitempty"`
	RoleUID         string `json:"roleUid,omitempty"`
	// Scope is the uid of the group the role is granted on: for now the
	// service takes only the organization itself.
	Scope      string `json:"scope,omitempty"`
	CreateTime Time   `json:"createTime,omitzero"`
}

// NewExternalGroupRoleMapping is what a create sends: the provider is the
// parent of the request, and the service sets the rest.
type NewExternalGroupRoleMapping struct {
	ExternalGroupID string `json:"externalGroupId"`
	RoleUID         string `json:"roleUid"`
	Scope           string `json:"scope"`
}

// BatchDeletedMappings is the answer to a batch delete: the provider
// asked about, and the mappings the call deleted (not those already gone).
type BatchDeletedMappings struct {
	Parent   string                     `json:"parent,omitempty"`
	Mappings []ExternalGroupRoleMapping `json:"externalGroupRoleMappings,omitempty"`
}

// batchDeleteMappings is a batch delete's body.
type batchDeleteMappings struct {
	Parent string   `json:"parent"`
	Names  []string `json:"names"`
}

// ExternalGroupRoleMappingKey is a mapping's uid.
func ExternalGroupRoleMappingKey(m *ExternalGroupRoleMapping) string { return m.UID }

// ListExternalGroupRoleMappings lists mappings (ListOptions.IdentityProvider
// keeps one provider's).
func (c *Client) ListExternalGroupRoleMappings(ctx context.Context, opts ListOptions) (*Page[ExternalGroupRoleMapping], error) {
	return list[ExternalGroupRoleMapping](ctx, c, externalGroupRoleMappingsPath, "externalGroupRoleMappings", opts)
}

// GetExternalGroupRoleMapping fetches one mapping.
func (c *Client) GetExternalGroupRoleMapping(ctx context.Context, uid string) (*ExternalGroupRoleMapping, error) {
	return get[ExternalGroupRoleMapping](ctx, c, externalGroupRoleMappingsPath+"/"+uid, nil)
}

// CreateExternalGroupRoleMapping makes a mapping under the identity
// provider provider.
func (c *Client) CreateExternalGroupRoleMapping(ctx context.Context, provider string, m NewExternalGroupRoleMapping) (*ExternalGroupRoleMapping, error) {
	return create[ExternalGroupRoleMapping](ctx, c, ExternalGroupRoleMappings.Create(provider), m)
}

// DeleteExternalGroupRoleMapping deletes a mapping: the members of its
// group no longer get its role when they next sign in.
func (c *Client) DeleteExternalGroupRoleMapping(ctx context.Context, uid string) error {
	return del(ctx, c, ExternalGroupRoleMappings.Delete(uid))
}

// BatchDeleteExternalGroupRoleMappings deletes the mappings uids of the
// identity provider provider in one request. The service skips a uid it
// no longer has and refuses the whole call when a uid is under another
// provider; the answer lists what it deleted. Like every POST, it is
// never sent again by the client.
func (c *Client) BatchDeleteExternalGroupRoleMappings(ctx context.Context, provider string, uids []string) (*BatchDeletedMappings, error) {
	return create[BatchDeletedMappings](ctx, c, ExternalGroupRoleMappings.BatchDelete(),
		batchDeleteMappings{Parent: provider, Names: uids})
}

// FindExternalGroupRoleMapping finds the mapping of provider that grants
// role at scope to group (after a create whose answer was lost): the
// service keeps at most one.
func (c *Client) FindExternalGroupRoleMapping(ctx context.Context, provider string, m NewExternalGroupRoleMapping) (*ExternalGroupRoleMapping, error) {
	opts := ListOptions{ChildrenOf: provider, IdentityProvider: provider}
	got, err := find(ctx, c.ListExternalGroupRoleMappings, opts, func(x *ExternalGroupRoleMapping) bool {
		return ParentUID(x.UID) == provider && x.ExternalGroupID == m.ExternalGroupID && x.RoleUID == m.RoleUID && x.Scope == m.Scope
	})
	if err != nil {
		return nil, fmt.Errorf("find the mapping of %q to role %s in %s: %w", m.ExternalGroupID, m.RoleUID, provider, err)
	}
	return got, nil
}
