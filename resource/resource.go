// Package resource is what canopy knows of each kind of resource whoever
// asks: its nouns, its `:` command, the collection `canopy list` prints,
// the name plugins know it by and the variables it gives them. The shell,
// canopy list and plugins read it here instead of keeping copies that
// drift. A kind a consumer cannot serve says why in its descriptor.
//
// It imports nothing of canopy: every package may read it.
package resource

import "slices"

// Kind is one kind of resource.
type Kind struct {
	// Noun and Nouns name one and many ("identity provider").
	Noun, Nouns string
	// Command is its `:` command, opening the table of the whole
	// organization (or feed), with Aliases; Says what that table is.
	// NoCommand says why there is none.
	Command   string
	Aliases   []string
	Says      string
	NoCommand string
	// Collection is its name for `canopy list` (most often Command), and
	// Needs the flag that collection cannot go without ("--artifact"):
	// Unlisted says why there is none.
	Collection string
	Needs      string
	Unlisted   string
	// Feed: it belongs to no organization (the advisory, library and
	// security advisory feeds), so any caller reads it; canopy list
	// resolves an organization for it only when one is named.
	Feed bool
	// InFolders: each one lives in a folder, so a table of many folders'
	// (a `:` table, canopy list) has a FOLDER column saying whose.
	InFolders bool
	// Flags are the flags canopy list takes for it beyond every
	// collection's ("repo"); Needs, when set, is one of them, and Ask
	// what canopy list says when it is missing.
	Flags []string
	Ask   string
	// Lists is what canopy list's usage says of it after Says: the
	// columns its table adds, what its flags do.
	Lists string
	// Plugin is its name in a plugin's kinds:, and Gives the variables it
	// gives beyond those every kind gives; NoPlugin says why none runs on
	// it. NoName says why it gives no {{.Name}}: what canopy shows as its
	// name is a label of its own making, not one word a program takes.
	Plugin   string
	Gives    []string
	NoPlugin string
	NoName   string
	// HeldBy is the noun of the kind one lives in beside its folder (a
	// tag's repo), "" for none.
	HeldBy string
	// OpenBy is what `canopy open` takes to show one ("uid"; an advisory's
	// "id"); NoOpen says why it shows none.
	OpenBy string
	NoOpen string
}

// The kinds, by noun.
const (
	Repo         = "repo"
	Tag          = "tag"
	Folder       = "folder"
	Identity     = "identity"
	Binding      = "role binding"
	Role         = "role"
	Advisory     = "advisory"
	Subscription = "subscription"
	Library      = "library"
	Version      = "version"
	Ecosystem    = "ecosystem"
	Provider     = "identity provider"
	Invite       = "invite"
	Mapping      = "role mapping"
	Association  = "account association"
	Terms        = "terms acceptance"
	// The security advisory service's documents and vulnerability metadata.
	Document      = "advisory document"
	Vulnerability = "vulnerability"
)

// Kinds are every kind, in the order their `:` commands are listed.
func Kinds() []Kind {
	return []Kind{
		{OpenBy: "uid", Noun: Repo, Nouns: "repos", Command: "repos", Aliases: []string{"repo", "r"}, Says: "every repo of the organization",
			Collection: "repos", InFolders: true, Lists: " (FOLDER: the path of the folder each lives in)", Plugin: "repo", Gives: []string{"Image", "Repo"}},
		{OpenBy: "uid", Noun: Tag, Nouns: "tags", Command: "tags", Aliases: []string{"tag"}, Says: "every tag of the organization",
			Collection: "tags", Flags: []string{"repo", "deprecated"}, Lists: " (REPO; --repo: one repo's; --deprecated: only deprecated ones)", Plugin: "tag", Gives: []string{"Ref", "Image", "Repo", "Tag", "Digest"}, HeldBy: Repo},
		{OpenBy: "uid", Noun: Folder, Nouns: "folders", Command: "groups", Aliases: []string{"folders"}, Says: "every folder of the organization",
			Collection: "groups", InFolders: true, Lists: " (FOLDER: the folder each is in)", Plugin: "folder"},
		{OpenBy: "uid", Noun: Identity, Nouns: "identities", Command: "identities", Aliases: []string{"identity", "ids"}, Says: "every identity of the organization",
			Collection: "identities", InFolders: true, Lists: " (FOLDER)", Plugin: "identity", Gives: []string{"Email"}},
		{OpenBy: "uid", Noun: Binding, Nouns: "role bindings", Command: "bindings", Aliases: []string{"rolebindings", "rb"}, Says: "every role binding of the organization",
			Collection: "bindings", InFolders: true, Lists: " (FOLDER)", Plugin: "binding",
			NoName: "a role binding has no name: canopy labels it by its role, identity and folder"},
		{OpenBy: "uid", Noun: Role, Nouns: "roles", Command: "roles", Aliases: []string{"role"}, Says: "built-in and custom roles",
			Collection: "roles", InFolders: true, Lists: " (FOLDER: where a custom one was made)", Plugin: "role"},
		{OpenBy: "id", Noun: Advisory, Nouns: "advisories", Command: "advisories", Aliases: []string{"adv", "cves"}, Says: "the advisory feed",
			Collection: "advisories", Feed: true, Flags: []string{"repo"}, Lists: " (--repo: one artifact's)", Plugin: "advisory", Gives: []string{"Advisory", "Aliases", "Package"}},
		{OpenBy: "uid", Noun: Subscription, Nouns: "subscriptions", Command: "subscriptions", Aliases: []string{"subs"}, Says: "every event subscription of the organization",
			Collection: "subscriptions", InFolders: true, Lists: " (FOLDER)", Plugin: "subscription",
			NoName: "a subscription has no name: canopy shows its sink, a URL"},
		{NoOpen: "the service reads no single library by uid: :libraries finds one", Noun: Library, Nouns: "libraries", Command: "libraries", Aliases: []string{"libs", "artifacts"}, Says: "library artifacts",
			Collection: "libraries", Feed: true, Flags: []string{"ecosystem"}, Lists: " of every ecosystem (--ecosystem: one)", Plugin: "library"},
		{NoOpen: "the service reads no single version by uid: open its library", Noun: Version, Nouns: "library versions",
			NoCommand:  "a library's versions are its own: open a library of :libraries",
			Collection: "versions", Needs: "--artifact", Feed: true, Flags: []string{"artifact", "ecosystem"},
			Lists:    " of one artifact (--artifact NAME|UID)",
			Ask:      "versions of which artifact? say it with --artifact NAME|UID (canopy list libraries lists them)",
			NoPlugin: "a version is known by its library and number, which no variable gives"},
		{NoOpen: "an ecosystem has no uid", Noun: Ecosystem, Nouns: "ecosystems",
			NoCommand: "an ecosystem is a grouping of libraries: :libraries shows them by ecosystem",
			Unlisted:  "an ecosystem is a grouping of libraries: canopy list libraries --ecosystem NAME lists one",
			NoPlugin:  "an ecosystem has no uid and no name a program takes"},
		{OpenBy: "uid", Noun: Provider, Nouns: "identity providers", Command: "providers", Aliases: []string{"idps", "sso", "identityproviders"},
			Says: "identity providers: single sign-on into the organization", Collection: "providers", InFolders: true, Lists: " (FOLDER)", Plugin: "provider"},
		{OpenBy: "uid", Noun: Invite, Nouns: "invites", Command: "invites", Aliases: []string{"invite", "invitations"},
			Says: "invite codes that join people to the organization's folders", Collection: "invites", InFolders: true, Lists: " (FOLDER; never their codes: only a create's answer has one)", Plugin: "invite",
			NoName: "an invite has no name: canopy labels it by its role and who may redeem it"},
		{OpenBy: "uid", Noun: Mapping, Nouns: "role mappings", Command: "mappings", Aliases: []string{"mapping", "rolemappings", "groupmappings"},
			Says: "the roles an identity provider's groups give their members", Collection: "mappings", Lists: " (PROVIDER: the identity provider each lives under)", Plugin: "mapping",
			NoName: "a role mapping has no name: canopy labels it by its external group and role"},
		{NoOpen: "an association's uid is its folder's, which canopy open shows: the association is under it in the tree",
			Noun: Association, Nouns: "account associations", Command: "associations",
			Aliases:    []string{"association", "assoc", "accounts", "accountassociations"},
			Says:       "the cloud and source accounts each folder is tied to: AWS, Google Cloud, Azure, GitHub, Chainguard's services",
			Collection: "associations", InFolders: true, Lists: " (FOLDER: the folder each belongs to, the organization's own first)", Plugin: "association"},
		{NoOpen: "an acceptance has no uid: :terms lists them", Noun: Terms, Nouns: "terms acceptances", Command: "terms",
			Aliases: []string{"tos", "legal", "termsacceptances"},
			Says:    "the legal documents the organization accepted, by whom and when", Collection: "terms", Lists: " (newest first)",
			NoPlugin: "an acceptance has no uid, and no program acts on the record of a document accepted"},
		{NoOpen: "a document is known by its package: :documents finds it", Noun: Document, Nouns: "advisory documents",
			Command: "documents", Aliases: []string{"document", "docs"},
			Says: "the advisories of each package as its distribution publishes them", Collection: "documents", Feed: true, Flags: []string{"repo"}, Lists: " (--repo: one package's)",
			Plugin: "document", Gives: []string{"Package"}},
		{NoOpen: "a vulnerability is known by its id: :vulnerabilities finds it", Noun: Vulnerability, Nouns: "vulnerabilities",
			Command: "vulnerabilities", Aliases: []string{"vulns", "vuln"},
			Says: "what is known of each CVE and GHSA id: summary, scores, references", Collection: "vulnerabilities", Feed: true,
			Plugin: "vulnerability"},
	}
}

// Of is the kind of a noun (Repo, Tag, …); ok false for none.
func Of(noun string) (Kind, bool) {
	i := slices.IndexFunc(Kinds(), func(k Kind) bool { return k.Noun == noun })
	if i < 0 {
		return Kind{}, false
	}
	return Kinds()[i], true
}

// ByPlugin is the kind a plugin's kinds: names ("tag"); ok false for none.
func ByPlugin(name string) (Kind, bool) {
	for _, k := range Kinds() {
		if k.Plugin != "" && k.Plugin == name {
			return k, true
		}
	}
	return Kind{}, false
}

// ByCollection is the kind canopy list names so; ok false for none.
func ByCollection(name string) (Kind, bool) {
	for _, k := range Kinds() {
		if k.Collection != "" && k.Collection == name {
			return k, true
		}
	}
	return Kind{}, false
}

// Must is the kind of a noun that is one of the constants above.
func Must(noun string) Kind {
	k, ok := Of(noun)
	if !ok {
		panic("resource: no kind " + noun)
	}
	return k
}
