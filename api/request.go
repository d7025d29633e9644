package api

import (
	"context"
	"net/http"
	"strings"
)

// Request is a call that changes something, as a person reads it: its
// method, its API path (uids as they are, not escaped) and, for a PATCH,
// its update mask. The client builds its calls from the same Requests, so
// what a preview says is what is sent.
type Request struct {
	Method string
	Path   string
	Mask   string // update mask paths, comma separated; "" for none
	// BodyMask: the mask travels in the body (a custom method whose body
	// is the whole request), not as the update_mask parameter.
	BodyMask bool
}

// String is the request in full: "POST /iam/v2/roleBindings/<group uid>".
func (r Request) String() string { return r.line(r.Path) }

// Short is the request with its path shortened (ShortPath):
// "PATCH /registry/v2/repos/…/121222eda7a9eba3?update_mask=description".
func (r Request) Short() string { return r.line(ShortPath(r.Path)) }

func (r Request) line(path string) string {
	s := r.Method + " " + path
	switch {
	case r.Mask != "" && r.BodyMask:
		s += " with updateMask " + r.Mask + " in the body"
	case r.Mask != "":
		s += "?update_mask=" + r.Mask
	}
	return s
}

// ShortPath keeps of a resource path its collection and the uid's last
// segment: /registry/v2/repos/…/121222eda7a9eba3 (a uid holds its
// parents' uids, which say little to a reader).
func ShortPath(p string) string {
	parts := strings.Split(p, "/")
	if len(parts) > 5 {
		return strings.Join(parts[:4], "/") + "/…/" + parts[len(parts)-1]
	}
	return p
}

// Collection is a kind of resource the API creates, updates and deletes,
// by the path of its collection: a create is POSTed under the parent's
// uid, an update and a delete go to the resource's uid.
type Collection string

// The collections that can be changed.
const (
	Groups        Collection = groupsPath
	Identities    Collection = identitiesPath
	RoleBindings  Collection = bindingsPath
	Repos         Collection = reposPath
	Tags          Collection = tagsPath
	Subscriptions Collection = subscriptionsPath
	// IdentityProviders and GroupInvites: who may come into a group.
	IdentityProviders Collection = identityProvidersPath
	GroupInvites      Collection = groupInvitesPath
	// ExternalGroupRoleMappings: the roles an identity provider's groups
	// give their members.
	ExternalGroupRoleMappings Collection = externalGroupRoleMappingsPath
	// Roles: custom roles, in a folder.
	Roles Collection = rolesPath
)

// Create is the request that creates a member under parent (a group's
// uid; a repo's for a tag, which also moves a tag of the same name).
func (c Collection) Create(parent string) Request {
	return Request{Method: http.MethodPost, Path: string(c) + "/" + parent}
}

// Patch is the request that updates the fields of mask of the member uid.
func (c Collection) Patch(uid string, mask ...string) Request {
	return Request{Method: http.MethodPatch, Path: string(c) + "/" + uid, Mask: strings.Join(mask, ",")}
}

// Delete is the request that deletes the member uid.
func (c Collection) Delete(uid string) Request {
	return Request{Method: http.MethodDelete, Path: string(c) + "/" + uid}
}

// BatchDelete is the request that deletes several members of one parent,
// named in its body: the collection's custom method batchDelete.
func (c Collection) BatchDelete() Request {
	return Request{Method: http.MethodPost, Path: string(c) + ":batchDelete"}
}

// Note is what a change means to the person who asked for it, in words:
// which resource (`repo "nginx"`, `tag "v1" of nginx`), which fields
// ("description") and how (`"old" → "new"`). It travels with the request
// in its context (WithNote) and comes back in the Change the client
// reports, so that a log of changes pairs each request with its meaning
// without matching paths.
type Note struct {
	What   string
	Fields string
	Change string
	// Differs, set by the client once a create is answered, are the
	// fields sent that the created resource holds otherwise (the server
	// made it, but not as asked: a default, a value it kept to itself).
	// Written by the request, read after it returned.
	Differs []KeptField
}

type noteKey struct{}

// WithNote says in ctx what the changes sent with it mean: the client
// copies n into the Change it reports of each (Options.Observe).
func WithNote(ctx context.Context, n *Note) context.Context {
	return context.WithValue(ctx, noteKey{}, n)
}

// NoteOf is the note ctx carries, nil for none.
func NoteOf(ctx context.Context) *Note {
	n, _ := ctx.Value(noteKey{}).(*Note)
	return n
}
