package ui

import (
	"canopy/api"
	"canopy/resource"
	"canopy/views/detail"
)

// ecosystemKind: the libraries of one ecosystem, a grouping the tree
// shows with its count (it has no uid).
type ecosystemKind struct{ is[api.EcosystemCount] }

func (ecosystemKind) of() string                          { return resource.Ecosystem }
func (ecosystemKind) shape() shape                        { return shape{} }
func (ecosystemKind) page(*env) detail.Page               { return detail.EcosystemPage() }
func (ecosystemKind) label(ec *api.EcosystemCount) string { return ecosystemWords(ec.Ecosystem) }
