package ui

import (
	"strings"
	"sync"
)

// Collections as the API's list paths end: the key under which the server's
// refused orders are remembered (api.CollectionOf names a refusal's so).
const (
	colGroups        = "groups"
	colRepos         = "repos"
	colTags          = "tags"
	colIdentities    = "identities"
	colRoles         = "roles"
	colBindings      = "roleBindings"
	colSubscriptions = "subscriptions"
	colAdvisories    = "advisories"
	colArtifacts     = "artifacts"
	colVersions      = "versions"
)

// refusedOrders remembers, for each collection, the orders the server
// refused to sort it by, so that no later list of it asks again (the
// protos document few orders; the client must work whichever it takes).
// Only Update adds to it; lists read it as they are made, some in commands
// (the tree's), hence the lock.
type refusedOrders struct {
	mu sync.Mutex
	by map[string]map[string]bool
}

// add records a refusal and reports whether it is news.
func (r *refusedOrders) add(collection, order string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.by == nil {
		r.by = map[string]map[string]bool{}
	}
	if r.by[collection][order] {
		return false
	}
	if r.by[collection] == nil {
		r.by[collection] = map[string]bool{}
	}
	r.by[collection][order] = true
	return true
}

// of is the test of a collection's refused orders.
func (r *refusedOrders) of(collection string) func(order string) bool {
	return func(order string) bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.by[collection][order]
	}
}

// orderWords says an order for people: "name desc" → "name, descending".
func orderWords(order string) string {
	field, dir, _ := strings.Cut(order, " ")
	words := map[string]string{"name": "name", "created_at": "creation time", "update_time": "update time", "uid": "uid"}[field]
	if words == "" {
		words = field
	}
	if dir == "desc" {
		words += ", descending"
	}
	return words
}

// collectionWords names a collection for people ("role bindings").
func (e *env) collectionWords(c string) string {
	if k := e.kinds.byList[c]; k != nil {
		return k.nouns
	}
	return c
}
