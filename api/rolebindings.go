package api

import (
	"context"
	"fmt"
	"net/http"
	"slices"
)

// Role bindings changed in place and made in batches. A binding's role can
// be changed without deleting it (its uid, and so its place in every list,
// stays); several identities can be bound on one folder in one request,
// which the service makes all or none of.

// FieldRoleUID is the update mask path of a binding's role: the uid of the
// role it grants.
const FieldRoleUID = "role_uid"

// MaxBatchBindings is the most bindings one batch create may carry.
const MaxBatchBindings = 25

// BatchCreate is the request that creates several members of one parent,
// all named in its body: the collection's custom method batchCreate.
func (c Collection) BatchCreate() Request {
	return Request{Method: http.MethodPost, Path: string(c) + ":batchCreate"}
}

// roleChange is an update's body: the binding's new role. The uid is the
// path's.
type roleChange struct {
	RoleUID string `json:"roleUid"`
}

// PatchRoleBinding gives the binding uid the role roleUID in place (mask
// role_uid) and returns it hydrated.
func (c *Client) PatchRoleBinding(ctx context.Context, uid, roleUID string) (*RoleBinding, error) {
	role := func(b *RoleBinding) []KeptField {
		if b.Role == nil || b.Role.UID == "" || b.Role.UID == roleUID {
			return nil // the role applied, or not said
		}
		return []KeptField{{Path: FieldRoleUID, Sent: bounded(roleUID), Answered: bounded(b.Role.UID)}}
	}
	return patchChecked[RoleBinding](ctx, c, RoleBindings.Patch(uid, FieldRoleUID), roleChange{RoleUID: roleUID}, role)
}

// batchBinding is one binding of a batch: a create's request, its parent
// the batch's (the service takes it there or empty).
type batchBinding struct {
	Parent      string            `json:"parent"`
	RoleBinding CreateRoleBinding `json:"roleBinding"`
}

// batchBindings is a batch create's body: the whole request.
type batchBindings struct {
	Parent   string         `json:"parent"`
	Requests []batchBinding `json:"requests"`
}

// BatchCreatedBindings is the answer to a batch create: the bindings made,
// hydrated, in the order asked.
type BatchCreatedBindings struct {
	RoleBindings []RoleBinding `json:"roleBindings,omitempty"`
}

// ErrBatchTooLarge is a batch of more bindings than MaxBatchBindings.
var ErrBatchTooLarge = fmt.Errorf("a batch holds at most %d bindings", MaxBatchBindings)

// BatchCreateRoleBindings binds role to each of identities on group in one
// request: the service makes every binding or none. A service without the
// call answers as NotOnServer says. Like every POST, it is never sent
// again by the client: after a lost answer, FindRoleBindings tells what
// was made.
func (c *Client) BatchCreateRoleBindings(ctx context.Context, group, role string, identities []string) (*BatchCreatedBindings, error) {
	if len(identities) == 0 || len(identities) > MaxBatchBindings {
		return nil, fmt.Errorf("bind %d identities on %s: %w", len(identities), group, ErrBatchTooLarge)
	}
	body := batchBindings{Parent: group, Requests: make([]batchBinding, len(identities))}
	for i, id := range identities {
		// Each carries its role (the service also takes one for all, but
		// every item naming its own is read alike by any version of it).
		body.Requests[i] = batchBinding{Parent: group, RoleBinding: CreateRoleBinding{IdentityUID: id, RoleUID: role}}
	}
	return create[BatchCreatedBindings](ctx, c, RoleBindings.BatchCreate(), body)
}

// FindRoleBindings finds which of identities have role on group (after a
// batch create whose answer was lost): the bindings found, by identity.
// One listing of the group's bindings of role answers for all of them; a
// listing that does not end within the pages a find reads is an error,
// since "not there" must be sure.
func (c *Client) FindRoleBindings(ctx context.Context, group, role string, identities []string) (map[string]*RoleBinding, error) {
	out := map[string]*RoleBinding{}
	_, err := find(ctx, c.ListRoleBindings, ListOptions{Group: group, Role: role}, func(b *RoleBinding) bool {
		if b.Group != nil && b.Group.UID == group && b.Role != nil && b.Role.UID == role && b.Identity != nil &&
			slices.Contains(identities, b.Identity.UID) && out[b.Identity.UID] == nil {
			found := *b
			out[b.Identity.UID] = &found
		}
		return len(out) == len(identities) // every one found: stop reading
	})
	if err != nil {
		return out, fmt.Errorf("find the bindings of role %s on %s: %w", role, group, err)
	}
	return out, nil
}
