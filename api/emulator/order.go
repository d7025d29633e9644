package emulator

import (
	"slices"
	"strconv"
	"strings"
	"sync"
)

// sorting is what order_by a collection takes and its order when none is
// asked. The service documents few orders: `name` and `created_at`
// (optionally asc or desc) and each list's stated default. A strict
// server refuses the rest; a lenient one also takes uid, update_time and
// the camelCase and create_time spellings, as the emulator always has.
type sorting struct {
	name    string // the order_by word of fieldName ("name", "version"); "" when the resource has no name
	created bool   // the resource has a createTime, so created_at is meaningful
	byUID   bool   // uid is the stated default, so documented
	def     int    // default field
	defDesc bool   // default direction
}

// The sortings of each collection, from its resource's fields and its
// list request's stated default.
var (
	// Groups, identities, roles and repos have a name and a createTime.
	sortNamed = sorting{name: "name", created: true, byUID: true}
	// Role bindings and advisories have a createTime and no name (an
	// advisory has an advisoryId, which is not a name).
	sortUnnamed = sorting{created: true, byUID: true}
	// Tags have a name and no createTime (their stored one is private).
	sortTags = sorting{name: "name", byUID: true}
	// Subscriptions have neither.
	sortSubs = sorting{byUID: true}
	// Artifacts are by name ascending unless asked otherwise.
	sortArtifacts = sorting{name: "name", created: true, def: fieldName}
	// Versions are newest first: by version, descending.
	sortVersions = sorting{name: "version", created: true, def: fieldName, defDesc: true}
)

// lenientOrders maps every order_by field a lenient server takes to its index.
var lenientOrders = sync.OnceValue(func() map[string]int {
	return map[string]int{
		"uid": fieldUID, "name": fieldName,
		"create_time": fieldCreate, "created_at": fieldCreate, "createTime": fieldCreate, "createdAt": fieldCreate,
		"update_time": fieldUpdate, "updated_at": fieldUpdate, "updateTime": fieldUpdate, "updatedAt": fieldUpdate,
	}
})

// documented are the order_by fields the service documents for s, by index.
func (s sorting) documented() map[string]int {
	out := map[string]int{}
	if s.byUID {
		out["uid"] = fieldUID
	}
	if s.name != "" {
		out[s.name] = fieldName
	}
	if s.created {
		out["created_at"] = fieldCreate
	}
	return out
}

// parseOrder sets q's order from an order_by value ("" keeps s's default).
func (q *listQuery) parseOrder(v, domain string, s sorting, strict bool) *apiErr {
	q.field, q.desc = s.def, s.defDesc
	words := strings.Fields(v)
	if len(words) == 0 {
		return nil
	}
	fields := s.documented()
	if !strict {
		for k, f := range lenientOrders() {
			fields[k] = f
		}
	}
	f, ok := fields[words[0]]
	if !ok || len(words) > 2 {
		names := make([]string, 0, len(fields))
		for k := range fields {
			names = append(names, k)
		}
		slices.Sort(names)
		return badField(domain, "order_by", "unknown sort field "+strconv.Quote(v)+"; use one of "+
			strings.Join(names, ", ")+", optionally followed by asc or desc")
	}
	q.field, q.desc = f, false
	if len(words) == 2 {
		switch strings.ToLower(words[1]) {
		case "asc":
		case "desc":
			q.desc = true
		default:
			return badField(domain, "order_by", "unknown sort direction "+strconv.Quote(words[1])+"; use asc or desc")
		}
	}
	return nil
}
