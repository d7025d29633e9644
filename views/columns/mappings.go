package columns

import (
	"strings"

	"canopy/api"
	"canopy/safe"
	"canopy/text"
	"canopy/views"
	"canopy/views/table"
)

// External group role mappings live under identity providers, not in
// folders: a table of them names each row's provider (PROVIDER, as a tag
// table names its REPO) and has no FOLDER column. A mapping holds its
// role, provider and scope by uid; the table shows their names as the
// shell learns them (Names), a short uid until then.

// MappingNames are the resolvers of a mapping table's names: nil ones
// show short uids.
type MappingNames struct {
	Roles, Providers, Scopes Names
}

// Mappings are the columns of an external group role mapping table.
func Mappings(c views.Common, n MappingNames) []table.Column[api.ExternalGroupRoleMapping] {
	role := func(m *api.ExternalGroupRoleMapping) string { return m.RoleUID }
	provider := func(m *api.ExternalGroupRoleMapping) string { return m.IdentityProviderUID }
	scope := func(m *api.ExternalGroupRoleMapping) string { return m.Scope }
	cols := []table.Column[api.ExternalGroupRoleMapping]{
		{Title: "EXTERNAL GROUP", Flex: 3, Min: 14, Cell: func(m *api.ExternalGroupRoleMapping) safe.Text { return safe.Of(m.ExternalGroupID) }},
		byName("ROLE", n.Roles, role),
		byName("PROVIDER", n.Providers, provider),
		byName("SCOPE", n.Scopes, scope),
		{Title: "CREATED", Width: 7, Right: true, Order: "created_at", Cell: func(m *api.ExternalGroupRoleMapping) safe.Text { return age(c, m.CreateTime) }},
	}
	cols[1].Flex, cols[1].Min, cols[1].Max = 2, 8, 32
	cols[2].Flex, cols[2].Min, cols[2].Max, cols[2].Drop = 2, 10, 32, 2
	cols[3].Flex, cols[3].Min, cols[3].Max, cols[3].Drop = 1, 8, 30, 1
	return cols
}

// MappingOrders is the `s` cycle of mappings: the server's own order (by
// uid: a mapping has no name), then newest first.
func MappingOrders() []table.Order {
	return []table.Order{{Label: "server order"}, {Label: "newest first", OrderBy: api.OrderCreatedDesc}}
}

// byName is a searched column naming a uid a row holds (its role, its
// provider): drawn with the names known at each frame, searched with
// those known when the filter took its snapshot; a uid whose name is not
// known shows as its last segment, cut short.
func byName[T any](title string, names Names, uid func(*T) string) table.Column[T] {
	cell := func(resolve func(string) string) func(*T) safe.Text {
		return func(it *T) safe.Text {
			u := uid(it)
			if resolve != nil {
				if n := resolve(u); n != "" {
					return safe.Of(n)
				}
			}
			return safe.Of(text.Short(u[strings.LastIndexByte(u, '/')+1:], 12))
		}
	}
	resolver := func() func(string) string {
		if names == nil {
			return nil
		}
		return names()
	}
	return table.Column[T]{Title: title, Search: true,
		Cell: func(it *T) safe.Text { return cell(resolver())(it) },
		Snap: func() func(*T) safe.Text { return cell(resolver()) }}
}
