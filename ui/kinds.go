package ui

import (
	"reflect"

	"canopy/api"
	"canopy/views/tree"
)

// kinds is the registry of every kind of resource the shell knows, in the
// order their `:` commands are listed; c reads what their pages load.
func kinds(c *api.Client) *registry {
	r := &registry{client: c, byType: map[reflect.Type]*kind{},
		byCollection: map[*tree.Kind]*kind{}, byCommand: map[string]*kind{}, byList: map[string]*kind{}}
	register(r, repoKind())
	register(r, tagKind())
	register(r, folderKind())
	register(r, identityKind())
	register(r, bindingKind())
	register(r, roleKind())
	register(r, advisoryKind())
	register(r, subscriptionKind())
	register(r, artifactKind())
	register(r, versionKind())
	register(r, ecosystemKind())
	register(r, providerKind())
	register(r, inviteKind())
	return r
}
