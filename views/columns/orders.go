package columns

import (
	"canopy/api"
	"canopy/views/table"
)

// The `s` cycles of the kinds whose tables do not start by name. The first
// order of each is the one its `:` table starts with and the one canopy
// list prints in: both read it here.

// BindingOrders: newest first, as a binding has no name.
func BindingOrders() []table.Order {
	return []table.Order{{Label: "newest first", OrderBy: api.OrderCreatedDesc}, {Label: "oldest first", OrderBy: api.OrderCreated}}
}

// AdvisoryOrders: the feed recently updated first, then by id and age.
func AdvisoryOrders() []table.Order {
	return append([]table.Order{{Label: "recently updated", OrderBy: api.OrderUpdatedDesc}}, Orders()[:3]...)
}

// LibraryOrders: library artifacts by name only.
func LibraryOrders() []table.Order { return Orders()[:2] }

// SubscriptionOrders: the server's own (by uid), as a subscription is a
// uid and a sink, with no name or time to sort by.
func SubscriptionOrders() []table.Order { return []table.Order{{Label: "server order"}} }

// RoleOrders are the orders of a folder's roles as the server lists them;
// AllRoleOrders the one order of every role that may be bound in the
// organization, gathered whole (built-in ones whether or not the server
// lists them under a filter), built-in first.
func RoleOrders() []table.Order    { return Orders()[:2] }
func AllRoleOrders() []table.Order { return []table.Order{{Label: "built-in first"}} }
