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
	register[api.Repo](r, repoKind{})
	register[api.Tag](r, tagKind{})
	register[api.Group](r, folderKind{})
	register[api.Identity](r, identityKind{})
	register[api.RoleBinding](r, bindingKind{})
	register[api.Role](r, roleKind{})
	register[api.Advisory](r, advisoryKind{})
	register[api.Subscription](r, subscriptionKind{})
	register[api.Artifact](r, artifactKind{})
	register[api.ArtifactVersion](r, versionKind{})
	register[api.EcosystemCount](r, ecosystemKind{})
	register[api.IdentityProvider](r, providerKind{})
	register[api.GroupInvite](r, inviteKind{})
	register[api.ExternalGroupRoleMapping](r, mappingKind{names: newMappingNames()})
	register[api.AccountAssociation](r, associationKind{})
	register[api.TermsAcceptance](r, termsKind{who: newWhoNames()})
	register[api.Document](r, documentKind{})
	register[api.VulnerabilityMetadata](r, vulnerabilityKind{})
	return r
}
