package emulator

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"

	"canopy/api"
)

// Role bindings changed in place (a new role or identity, on the same
// folder) and made in batches: a batch names one folder and up to 25
// bindings, and makes all of them or, refused, none.

const capBindingsUpdate = "CAP_IAM_ROLE_BINDINGS_UPDATE"

// bindingsBatchCreate is the path of the batch create, a custom method of
// the collection: its own route, never a uid under the collection's.
const bindingsBatchCreate = "/iam/v2/roleBindings:batchCreate"

// maxBatchBindings is the most bindings one batch makes.
const maxBatchBindings = 25

// bindingSpec is how a binding is updated: which identity and which role,
// by uid. The hydrated parts are the server's; the folder is its uid's.
var bindingSpec = sync.OnceValue(func() *maskSpec {
	return &maskSpec{
		fields:    jsonNames("uid", "identity", "group", "role", "create_time", "identity_uid", "role_uid"),
		updatable: []string{"identity_uid", "role_uid"},
		fixed: map[string]string{"identity": "it is the server's account of identity_uid: set identity_uid",
			"role":  "it is the server's account of role_uid: set role_uid",
			"group": "a binding stays on its folder: bind on the other folder and delete this one",
			"uid":   "the server sets it", "create_time": "the server sets it"}}
})

// bindingBody is a binding as an update may send it: the two uids it
// changes, and what a read gave (hydrated parts, times), which is ignored.
type bindingBody struct {
	UID         string          `json:"uid"`
	IdentityUID string          `json:"identityUid"`
	RoleUID     string          `json:"roleUid"`
	Identity    json.RawMessage `json:"identity"`
	Group       json.RawMessage `json:"group"`
	Role        json.RawMessage `json:"role"`
	CreateTime  json.RawMessage `json:"createTime"`
}

// patchBinding changes the identity or the role of a binding in place.
func (c *call) patchBinding(uid string) *apiErr {
	st := c.st
	if e := c.p.require(domainIAM, capBindingsUpdate, uid, false); e != nil {
		return e
	}
	id, ok := st.bindings.find(uid)
	if !ok {
		return notFound(domainIAM, typeRoleBinding, uid)
	}
	var body bindingBody
	raw, e := decodePatch(c, domainIAM, &body)
	if e != nil {
		return e
	}
	if body.UID != "" && body.UID != uid {
		return badField(domainIAM, "role_binding.uid", fmt.Sprintf("%q is not the binding of the path (%s)", body.UID, uid))
	}
	paths, e := c.updateMask(domainIAM, raw, bindingSpec())
	if e != nil {
		return e
	}
	next := st.bindings.items[id]
	for _, p := range paths {
		switch p {
		case "identity_uid":
			next.IdentityUID = body.IdentityUID
		case "role_uid":
			next.RoleUID = body.RoleUID
		}
	}
	g, ok := st.groups.get(api.ParentUID(uid))
	if !ok {
		return notFound(domainIAM, typeGroup, api.ParentUID(uid))
	}
	if e := c.bindable(g, next.IdentityUID, next.RoleUID, "role_binding.", uid); e != nil {
		return e
	}
	if cur := st.bindings.items[id]; next != cur {
		next.Update = c.now()
		st.bindings.update(id, next)
	}
	writeJSON(c.w, st.bindingOut(&next))
	return nil
}

// bindable checks that identity may take role on g (fields named under
// prefix): both given, of g's organization (a role may be built in), and
// no other binding than self's already grants it there.
func (c *call) bindable(g *api.Group, identity, role, prefix, self string) *apiErr {
	st := c.st
	switch {
	case identity == "":
		return badField(domainIAM, prefix+"identity_uid", "is required")
	case role == "":
		return badField(domainIAM, prefix+"role_uid", "is required")
	}
	org := api.RootUID(g.UID)
	ident, ok := st.idents.get(identity)
	if !ok || api.RootUID(ident.UID) != org {
		return badField(domainIAM, prefix+"identity_uid", fmt.Sprintf("%q is not an identity of the organization %s", identity, org))
	}
	r, ok := st.roles.get(role)
	if !ok || !builtinRole(r.UID) && api.RootUID(r.UID) != org {
		return badField(domainIAM, prefix+"role_uid", fmt.Sprintf("%q is not a role of the organization %s", role, org))
	}
	for _, i := range st.bindings.childIDs(g.UID) {
		b := &st.bindings.items[i]
		if b.UID != self && b.IdentityUID == identity && b.RoleUID == role {
			return alreadyExists(domainIAM, typeRoleBinding, b.UID,
				fmt.Sprintf("identity %q already has role %q on group %q", ident.Name, r.Name, g.Name))
		}
	}
	return nil
}

// batchBindingsBody is a batch create's body: the whole request.
type batchBindingsBody struct {
	Parent   string `json:"parent"`
	Requests []struct {
		Parent      string                `json:"parent"`
		RoleBinding api.CreateRoleBinding `json:"roleBinding"`
	} `json:"requests"`
	// RoleUID is the role of every binding that names none.
	RoleUID string `json:"roleUid"`
}

// batchCreateBindings makes every binding of the request on its folder,
// or none: each is checked (and none may repeat another) before any is
// made. The answer lists them hydrated, in the order asked.
func (c *call) batchCreateBindings(rest string) *apiErr {
	st := c.st
	if rest != "" {
		return noRoute()
	}
	if c.r.Method != http.MethodPost {
		return methodNotAllowed(domainIAM, c.r)
	}
	var body batchBindingsBody
	if e := decodeBody(c, domainIAM, &body); e != nil {
		return e
	}
	if body.Parent == "" {
		return badField(domainIAM, "parent", "is required")
	}
	g, e := c.parentGroup(domainIAM, capBindingsCreate, body.Parent, false)
	if e != nil {
		return e
	}
	if n := len(body.Requests); n == 0 || n > maxBatchBindings {
		return badField(domainIAM, "requests", fmt.Sprintf("must hold 1 to %d bindings, got %d", maxBatchBindings, n))
	}
	type pair struct{ identity, role string }
	var asked []pair
	for i, r := range body.Requests {
		at := fmt.Sprintf("requests[%d].", i)
		if r.Parent != "" && r.Parent != body.Parent {
			return badField(domainIAM, at+"parent", fmt.Sprintf("%q is not the batch's parent (%s)", r.Parent, body.Parent))
		}
		role := r.RoleBinding.RoleUID
		switch {
		case role == "":
			role = body.RoleUID
		case body.RoleUID != "" && role != body.RoleUID:
			return badField(domainIAM, at+"role_binding.role_uid", fmt.Sprintf("%q differs from the batch's role_uid %q", role, body.RoleUID))
		}
		if e := c.bindable(g, r.RoleBinding.IdentityUID, role, at+"role_binding.", ""); e != nil {
			return e
		}
		p := pair{r.RoleBinding.IdentityUID, role}
		if slices.Contains(asked, p) {
			return badField(domainIAM, at+"role_binding", "binds the same identity and role as an earlier request of the batch")
		}
		asked = append(asked, p)
	}
	now := c.now()
	out := struct {
		RoleBindings []api.RoleBinding `json:"roleBindings"`
	}{RoleBindings: make([]api.RoleBinding, 0, len(asked))}
	for _, p := range asked {
		rec := bindingRec{UID: st.childUID(body.Parent), IdentityUID: p.identity, RoleUID: p.role, Create: now, Update: now}
		st.bindings.insert(rec)
		out.RoleBindings = append(out.RoleBindings, st.bindingOut(&rec))
	}
	writeJSON(c.w, out)
	return nil
}
