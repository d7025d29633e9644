package api

import "net/http"

// The contract: every call the client makes, as the vendor's v2 service
// definitions describe it. It is data, not code the client runs: the tests
// hold each request the client sends to it (contract_test.go) and, where the
// vendor's definitions are at hand, hold it to them (contract_proto_test.go).
// Paths, mask paths and enum values come from the client's own constants
// wherever the client has them, so the table cannot say one thing while the
// code does another.

// Route is one call of the client: which rpc of which service it is, how it
// travels over HTTP, and which JSON fields go each way.
type Route struct {
	// Call is the Client method ("PatchRepo"). A method that only makes
	// requests of another call (RolesOf lists roles) has no entry of its own.
	Call string
	// Service is the full name of the vendor's service
	// ("chainguard.platform.registry.v2.ReposService"); RPC is the rpc of it
	// the call is ("UpdateRepo").
	Service, RPC string
	// Method is the HTTP method.
	Method string
	// Path is the route template: literal segments and variables between
	// braces. {name=*} is exactly one segment, so a slash in its value is sent
	// escaped (%2F); {name=**} is one segment or more, so a uid's slashes are
	// sent as they are and separate segments.
	Path string
	// Body is the request field the JSON body fills ("repo"), "" when the
	// call sends no body.
	Body string
	// Query are the query parameter names the client may send: request
	// fields by their proto names, a member of a message field after a dot
	// ("uidp.children_of").
	Query []string
	// ListKey is, for a List, the JSON key of the items of a page; Page are
	// the other keys of a page the client reads. Both are empty otherwise.
	ListKey string
	Page    []string
	// Reads are the JSON fields the client decodes from the answer (from
	// each item of a List): a member of an object or of a list of objects
	// after a dot ("claimMatch.issuer", "severities.type"). An object that
	// the client keeps whole (a map) is one field.
	Reads []string
	// Sends are the JSON fields the client may put in the body, written as
	// Reads are.
	Sends []string
	// Replace says the client may send the mask "*", a full replacement:
	// the body is then the whole resource as read (Reads).
	Replace bool
	// Updates are the fields an update may change, by mask path.
	Updates []Update
	// MaskOf is, for an update whose body is the whole request, the
	// request field whose message the mask paths name
	// ("identity_metadata"): the mask then travels in the body, as
	// updateMask, not in the query.
	MaskOf string
	// Enums are the enum values the client sends or reads, by the field
	// that carries them.
	Enums []Enum
}

// Update is one field an update may change.
type Update struct {
	// Mask is the update_mask path: proto field names, a member after a dot.
	Mask string
	// JSON is where the body carries the new value: the JSON key, a member
	// of an object after a dot.
	JSON string
}

// Where is the part of a request or an answer a field is in.
type Where string

// The parts of a request or an answer an Enum field can be in.
const (
	InQuery  Where = "query"  // a query parameter, by its name
	InBody   Where = "body"   // a field of the body, by its JSON path
	InAnswer Where = "answer" // a field of the answer (each item of a List), by its JSON path
)

// Enum is a field of enum type and the values of it the client uses.
type Enum struct {
	In     Where
	Field  string
	Values []string
}

// Contract lists every call the client makes, one Route each, built afresh
// on every call so that no caller can change another's copy.
func Contract() []Route {
	var out []Route
	out = append(out, registryRoutes()...)
	out = append(out, iamRoutes()...)
	out = append(out, accessRoutes()...)
	out = append(out, mappingRoutes()...)
	out = append(out, roleBindingChangeRoutes()...)
	out = append(out, scimRoutes()...)
	out = append(out, associationRoutes()...)
	out = append(out, termsRoutes()...)
	out = append(out, joiningRoutes()...)
	out = append(out, roleRoutes()...)
	out = append(out, feedRoutes()...)
	out = append(out, securityAdvisoryRoutes()...)
	return append(out, Route{Call: "Ping", Service: svcPing, RPC: "Ping", Method: http.MethodGet, Path: pingPath,
		Reads: []string{"response"}})
}

// Services of the vendor's API the client calls.
const (
	svcRepos         = "chainguard.platform.registry.v2.ReposService"
	svcTags          = "chainguard.platform.registry.v2.TagsService"
	svcImages        = "chainguard.platform.registry.v2.ImagesService"
	svcGroups        = "chainguard.platform.iam.v2.GroupsService"
	svcIdentities    = "chainguard.platform.iam.v2.IdentitiesService"
	svcRoles         = "chainguard.platform.iam.v2.RolesService"
	svcRoleBindings  = "chainguard.platform.iam.v2.RoleBindingsService"
	svcAdvisories    = "chainguard.platform.vulnerabilities.v2.AdvisoriesService"
	svcArtifacts     = "chainguard.platform.libraries.v2.ArtifactsService"
	svcSubscriptions = "chainguard.platform.events.v2.SubscriptionsService"
	svcPing          = "chainguard.platform.ping.v2.PingService"
)

// Route variables, one kind each: a uid (or a parent group's uid) spans
// segments, one segment is one segment.
const (
	varUID    = "/{uid=**}"
	varParent = "/{parent=**}"
)

// maskQuery is the query parameter of an update's field mask.
const maskQuery = "update_mask"

// uidpQuery are the members of the hierarchy filter every List of
// resources in groups takes (ListOptions' DescendantsOf, ChildrenOf, InRoot).
func uidpQuery() []string {
	return []string{"uidp.descendants_of", "uidp.children_of", "uidp.in_root"}
}

// pageQuery are the paging parameters every List takes.
func pageQuery() []string { return []string{"page_size", "page_token", "order_by", "skip"} }

// pageKeys are the keys of a page beside its items (decodePage).
func pageKeys() []string { return []string{keyNextPageToken, keyTotalCount, keySkipped} }

// joined is the lists one after the other, in a new slice.
func joined(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// under is each field as a member of object: under("a", "b") is "a.b".
func under(object string, fields ...string) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = object + "." + f
	}
	return out
}

// sends are the JSON keys of updates: what a masked body may carry.
func sends(us []Update) []string {
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = u.JSON
	}
	return out
}

// plainUpdates are updates of top-level fields, whose JSON key is the
// lowerCamelCase of the mask path.
func plainUpdates(masks ...string) []Update {
	out := make([]Update, len(masks))
	for i, m := range masks {
		out[i] = Update{Mask: m, JSON: JSONName(m)}
	}
	return out
}
