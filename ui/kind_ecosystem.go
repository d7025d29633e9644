package ui

import (
	"canopy/api"
	"canopy/resource"
	"canopy/safe"
	"canopy/views/detail"
)

// ecosystemKind: the libraries of one ecosystem, a grouping the tree
// shows with its count (it has no uid).
func ecosystemKind() spec[api.EcosystemCount] {
	return spec[api.EcosystemCount]{of: resource.Ecosystem,
		page:  detail.EcosystemPage(),
		name:  func(ec *api.EcosystemCount) string { return ecosystemWords(ec.Ecosystem) },
		uid:   func(*api.EcosystemCount) string { return "" },
		title: func(ec *api.EcosystemCount) safe.Text { return safe.Of(ecosystemWords(ec.Ecosystem)) },
	}
}
