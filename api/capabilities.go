package api

import "strings"

// The capability catalogue: every capability a customer's role may hold,
// as the vendor's capability enum names it (capabilities.proto), grouped
// by what it is about. A role carries the enum value's name
// (CAP_IAM_IDENTITY_LIST); people know it by the short name the enum gives
// it (identity.list). Left out are the values the enum keeps reserved,
// marks deprecated or keeps for Chainguard's own staff (internal_only),
// and CAP_INTERNAL, which marks a role as one of Chainguard's own rather
// than granting anything. A test holds the catalogue to the enum.

// Capability is one capability a custom role may grant.
type Capability struct {
	// Name is the enum value's name: what a role's capabilities list.
	Name string
	// Short is the name people read ("identity.list").
	Short string
	// Domain is what it is about, for grouping ("identities").
	Domain string
	// Allows says what it lets its holder do, in a few words; "" where the
	// definitions give nothing to go on.
	Allows string
}

// Domains of the catalogue, in the order it lists them.
const (
	DomainGroups        = "groups"
	DomainInvites       = "invites"
	DomainRoles         = "roles"
	DomainBindings      = "role bindings"
	DomainIdentities    = "identities"
	DomainProviders     = "identity providers"
	DomainAssociations  = "account associations"
	DomainEvents        = "events"
	DomainRepos         = "registry: repos"
	DomainTags          = "registry: tags"
	DomainManifests     = "registry: manifests"
	DomainEntitlements  = "registry: entitlements"
	DomainRegistry      = "registry: settings"
	DomainRecords       = "image records"
	DomainAPK           = "APK"
	DomainVulns         = "vulnerabilities"
	DomainAdvisories    = "advisories"
	DomainLibraries     = "libraries"
	DomainLibraryPolicy = "libraries: policy"
	DomainPolicies      = "policies"
	DomainTerms         = "terms"
	DomainGuardener     = "guardener"
	DomainSkills        = "skills"
	DomainArgos         = "argos"
	DomainMCP           = "MCP"
	DomainActions       = "actions"
	DomainPlatform      = "platform"
)

// family is the capabilities of one kind of resource that differ only by
// verb: CAP_<enum>CREATE is <short>create, and so on.
type family struct {
	enum, short, domain, object string
	verbs                       []string
}

// verbWord says what a common verb allows of a family's object.
func verbWord(v string) string {
	switch v {
	case "CREATE":
		return "create "
	case "UPDATE":
		return "change "
	case "LIST":
		return "see "
	}
	return "delete "
}

func (f family) caps() []Capability {
	out := make([]Capability, len(f.verbs))
	for i, v := range f.verbs {
		out[i] = Capability{Name: f.enum + v, Short: f.short + strings.ToLower(v), Domain: f.domain, Allows: verbWord(v) + f.object}
	}
	return out
}

// crud are the four common verbs.
func crud() []string { return []string{"CREATE", "UPDATE", "LIST", "DELETE"} }

// Capabilities is the catalogue, grouped by domain, a new slice each call.
func Capabilities() []Capability {
	var out []Capability
	add := func(fs ...family) {
		for _, f := range fs {
			out = append(out, f.caps()...)
		}
	}
	one := func(name, short, domain, allows string) {
		out = append(out, Capability{Name: name, Short: short, Domain: domain, Allows: allows})
	}
	add(family{"CAP_IAM_GROUPS_", "groups.", DomainGroups, "folders (groups)", crud()},
		family{"CAP_IAM_GROUP_INVITES_", "group_invites.", DomainInvites, "invites to join a folder", []string{"CREATE", "LIST", "DELETE"}},
		family{"CAP_IAM_ROLES_", "roles.", DomainRoles, "custom roles", crud()},
		family{"CAP_IAM_ROLE_BINDINGS_", "role_bindings.", DomainBindings, "role bindings (who holds a role where)", crud()},
		family{"CAP_IAM_IDENTITY_", "identity.", DomainIdentities, "identities", crud()},
		family{"CAP_IAM_IDENTITY_PROVIDERS_", "identity_providers.", DomainProviders, "single sign-on providers", crud()})
	one("CAP_IAM_SCIM_MANAGE", "identity_providers.scim.manage", DomainProviders, "manage a provider's SCIM provisioning")
	add(family{"CAP_IAM_ACCOUNT_ASSOCIATIONS_", "account_associations.", DomainAssociations, "links to cloud and source accounts", crud()},
		family{"CAP_EVENTS_SUBSCRIPTION_", "subscriptions.", DomainEvents, "event subscriptions (webhooks)", crud()},
		family{"CAP_REPO_", "repo.", DomainRepos, "registry repos", crud()})
	one("CAP_REPO_BLOBS_GET", "repo.blobs.get", DomainRepos, "download image layers: needed to pull")
	one("CAP_REPO_CHECK_POLICIES", "repo.check_policies", DomainRepos, "check a repo's images against policies")
	add(family{"CAP_TAG_", "tag.", DomainTags, "tags", crud()},
		family{"CAP_MANIFEST_", "manifest.", DomainManifests, "image manifests", crud()})
	one("CAP_MANIFEST_METADATA_LIST", "manifest.metadata.list", DomainManifests, "see what is known of an image (metadata)")
	one("CAP_REFERRERS_LIST", "referrers.list", DomainManifests, "see what refers to an image (signatures, attestations)")
	add(family{"CAP_REGISTRY_ENTITLEMENTS_", "registry.entitlements.", DomainEntitlements, "which images the organization is entitled to",
		[]string{"LIST", "CREATE", "DELETE"}})
	one("CAP_REGISTRY_ENTITLEMENTS_IMAGES_ADD", "registry.entitlements.images.add", DomainEntitlements, "add images to an entitlement")
	one("CAP_REGISTRY_ENTITLEMENTS_IMAGES_REMOVE", "registry.entitlements.images.remove", DomainEntitlements, "remove images from an entitlement")
	one("CAP_REGISTRY_ENTITLEMENTS_IMAGES_SWAP", "registry.entitlements.images.swap", DomainEntitlements, "swap one entitled image for another")
	add(family{"CAP_REGISTRY_SETTINGS_", "registry.settings.", DomainRegistry, "the registry's settings", []string{"LIST", "UPDATE"}},
		family{"CAP_REGISTRY_OVERLAYS_", "registry.overlays.", DomainRegistry, "overlays (tag-scoped custom assembly)", []string{"LIST"}})
	one("CAP_REGISTRY_OVERLAYS_EDIT", "registry.overlays.edit", DomainRegistry, "change overlays (tag-scoped custom assembly)")
	add(family{"CAP_REGISTRY_DEPLOYMENTS_", "registry.deployments.", DomainRegistry, "registry deployments", []string{"CREATE", "LIST"}})
	one("CAP_TENANT_RECORD_SIGNATURES_LIST", "record_signatures.list", DomainRecords, "see the signatures recorded of images")
	one("CAP_TENANT_SBOMS_LIST", "sboms.list", DomainRecords, "see images' SBOMs")
	one("CAP_TENANT_ATTESTATIONS_LIST", "attestations.list", DomainRecords, "see images' attestations")
	one("CAP_BUILD_REPORT_LIST", "build_report.list", DomainRecords, "see custom image build reports")
	add(family{"CAP_APK_", "apk.", DomainAPK, "APK packages", crud()})
	one("CAP_APK_BLOBS_GET", "apk.blobs.get", DomainAPK, "download APK files: needed to pull")
	one("CAP_VERSION_LIST", "version.list", DomainAPK, "see package versions")
	one("CAP_PACKAGES_ENTITLEMENTS_LIST", "packages.entitlements.list", DomainAPK, "see which packages the organization is entitled to")
	one("CAP_TENANT_VULN_REPORTS_LIST", "vuln_reports.list", DomainVulns, "see vulnerability reports (older endpoint)")
	one("CAP_VULN_REPORT_CREATE", "vuln_report.create", DomainVulns, "create vulnerability reports")
	one("CAP_VULN_REPORT_LIST", "vuln_report.list", DomainVulns, "see vulnerability reports")
	one("CAP_VULN_CREATE", "vuln.create", DomainVulns, "record vulnerabilities")
	add(family{"CAP_ADVISORIES_", "advisories.", DomainAdvisories, "security advisories", crud()})
	one("CAP_ADVISORIES_APPROVE", "advisories.approve", DomainAdvisories, "approve security advisories")
	out = append(out, libraryCaps()...)
	add(family{"CAP_POLICIES_POLICY_", "policies.policy.", DomainPolicies, "image policies", crud()},
		family{"CAP_POLICIES_BINDING_", "policies.binding.", DomainPolicies, "where image policies apply", crud()})
	one("CAP_POLICIES_DECISION_LIST", "policies.decision.list", DomainPolicies, "see policy decisions")
	add(family{"CAP_POLICIES_OVERRIDE_", "policies.override.", DomainPolicies, "waivers of a policy for one artifact", []string{"CREATE", "LIST", "DELETE"}})
	one("CAP_TERMS_ACCEPT", "terms.accept", DomainTerms, "accept terms of service for the organization")
	one("CAP_TERMS_LIST", "terms.list", DomainTerms, "see which terms were accepted")
	return append(out, otherCaps()...)
}

// libraryCaps are the capabilities of libraries (language packages).
func libraryCaps() []Capability {
	var out []Capability
	add := func(f family) { out = append(out, f.caps()...) }
	one := func(name, short, domain, allows string) {
		out = append(out, Capability{Name: name, Short: short, Domain: domain, Allows: allows})
	}
	add(family{"CAP_LIBRARIES_ENTITLEMENTS_", "libraries.entitlements.", DomainLibraries, "library entitlements", []string{"CREATE", "LIST", "DELETE"}})
	one("CAP_LIBRARIES_ARTIFACTS_LIST", "libraries.artifacts.list", DomainLibraries, "see libraries and their versions")
	for _, eco := range []struct{ enum, short, word string }{{"PYTHON", "python", "Python"}, {"JAVA", "java", "Java"},
		{"JAVASCRIPT", "javascript", "JavaScript"}, {"DOTNET", "dotnet", ".NET"}, {"GO", "go", "Go"}} {
		one("CAP_LIBRARIES_"+eco.enum+"_LIST", "libraries."+eco.short+".list", DomainLibraries, "fetch "+eco.word+" libraries")
		one("CAP_LIBRARIES_"+eco.enum+"_CREATE", "libraries."+eco.short+".create", DomainLibraries, "publish "+eco.word+" libraries")
	}
	one("CAP_LIBRARIES_CACHE_INVALIDATE", "libraries.cache.invalidate", DomainLibraries, "clear the libraries cache")
	one("CAP_LIBRARIES_CACHE_LIST", "libraries.cache.list", DomainLibraries, "see the libraries cache: what the organization fetched")
	add(family{"CAP_LIBRARIES_AWS_MARKETPLACE_SUBSCRIPTIONS_", "libraries.aws_marketplace.subscriptions.", DomainLibraries,
		"AWS Marketplace subscriptions", []string{"CREATE", "UPDATE", "LIST"}})
	add(family{"CAP_LIBRARIES_REQUEST_GROUPS_", "libraries.request_groups.", DomainLibraries, "requests for library builds",
		[]string{"CREATE", "LIST", "UPDATE", "DELETE"}})
	one("CAP_LIBRARIES_REQUEST_GROUPS_SUBMIT", "libraries.request_groups.submit", DomainLibraries, "submit a draft request for library builds")
	one("CAP_LIBRARIES_REQUEST_GROUPS_ITEMS_UPDATE", "libraries.request_groups.items.update", DomainLibraries,
		"change the items of a draft build request")
	add(family{"CAP_LIBRARIES_REMOTE_REGISTRIES_", "libraries.remote_registries.", DomainLibraries, "upstream registries builds pull from",
		[]string{"CREATE", "LIST", "DELETE"}})
	add(family{"CAP_LIBRARIES_POLICY_", "libraries.policy.", DomainLibraryPolicy, "cooldown and malware gate policies", crud()})
	add(family{"CAP_LIBRARIES_POLICY_BINDING_", "libraries.policy.binding.", DomainLibraryPolicy, "where gate policies apply", crud()})
	one("CAP_LIBRARIES_POLICY_BLOCK_EVENT_LIST", "libraries.policy.block_event.list", DomainLibraryPolicy, "see the pulls a gate withheld")
	return out
}

// otherCaps are the capabilities of Chainguard's other products.
func otherCaps() []Capability {
	var out []Capability
	one := func(name, short, domain, allows string) {
		out = append(out, Capability{Name: name, Short: short, Domain: domain, Allows: allows})
	}
	one("CAP_GUARDENER_DFC_CONVERT", "guardener.dfc.convert", DomainGuardener, "convert Dockerfiles to Chainguard images")
	one("CAP_GUARDENER_ASSOCIATION_MANAGE", "guardener.association.manage", DomainGuardener, "link and unlink GitHub organizations")
	one("CAP_GUARDENER_ASSOCIATION_LIST", "guardener.association.list", DomainGuardener, "see the linked GitHub organizations")
	one("CAP_GUARDENER_ENTITLEMENT_LIST", "guardener.entitlement.list", DomainGuardener, "see the guardener settings")
	one("CAP_GUARDENER_ACTIONS_MIGRATE", "guardener.actions.migrate", DomainGuardener, "open pull requests migrating GitHub Actions")
	one("CAP_GUARDENER_SCAN_LIST", "guardener.scan.list", DomainGuardener, "see the dependency scans of linked repositories")
	one("CAP_GUARDENER_SCAN_GET", "guardener.scan.get", DomainGuardener, "read one dependency scan")
	one("CAP_SKILLS_PUBLISH", "skills.publish", DomainSkills, "publish skills")
	out = append(out, family{"CAP_SKILLS_ENTITLEMENTS_", "skills.entitlements.", DomainSkills, "skills entitlements",
		[]string{"CREATE", "LIST", "DELETE"}}.caps()...)
	one("CAP_SKILLS_LIST", "skills.list", DomainSkills, "see the skills catalog")
	one("CAP_SKILLS_HARDEN_READ", "skills.harden.read", DomainSkills, "follow a skill's hardening")
	one("CAP_SKILLS_HARDEN_WRITE", "skills.harden.write", DomainSkills, "start hardening a skill")
	one("CAP_SKILLS_HARDEN_CANCEL", "skills.harden.cancel", DomainSkills, "cancel a skill's hardening")
	out = append(out, family{"CAP_ARGOS_DOCUMENTS_", "argos.documents.", DomainArgos, "encrypted documents",
		[]string{"CREATE", "LIST", "DELETE"}}.caps()...)
	one("CAP_ARGOS_OSV_READ", "argos.osv.read", DomainArgos, "query the private OSV API")
	one("CAP_ARGOS_OSV_DUMP", "argos.osv.dump", DomainArgos, "download the private OSV data whole")
	one("CAP_MCP_TOOL_CALL", "mcp.tool.call", DomainMCP, "call the MCP server's tools")
	one("CAP_ACTIONS_LIST", "actions.list", DomainActions, "see the catalog of GitHub Actions")
	one("CAP_GULFSTREAM", "gulfstream", DomainPlatform, "")
	return out
}

// CapabilityOf is the capability of the catalogue named name (the enum
// name or the short one); ok is false for one it does not have (unknown,
// reserved, deprecated, or Chainguard's own).
func CapabilityOf(name string) (c Capability, ok bool) {
	for _, c := range Capabilities() {
		if c.Name == name || c.Short == name {
			return c, true
		}
	}
	return Capability{}, false
}
