package columns

import (
	"slices"
	"strconv"
	"strings"

	"canopy/api"
	"canopy/safe"
	"canopy/text"
	"canopy/views"
	"canopy/views/table"
)

// Account associations: one per folder, whose uid is the folder's. A
// table of several names each one's folder (FOLDER: the folder itself,
// not its parent), the providers it ties and their accounts.

// AssociationsIn are the columns of an account association table; folders
// (nil for one folder's) names the folder of each.
func AssociationsIn(c views.Common, folders Folders) []table.Column[api.AccountAssociation] {
	cols := []table.Column[api.AccountAssociation]{
		{Title: "NAME", Flex: 2, Min: 12, Max: 32, Cell: func(a *api.AccountAssociation) safe.Text { return safe.Of(a.Name) }},
		{Title: "PROVIDERS", Flex: 2, Min: 10, Max: 36, Search: true, Cell: func(a *api.AccountAssociation) safe.Text {
			return safe.Of(strings.Join(AssociationParts(a), ", "))
		}},
		{Title: "ACCOUNTS", Flex: 4, Min: 16, Drop: 2, Search: true, Cell: func(a *api.AccountAssociation) safe.Text {
			return safe.Of(AssociationAccounts(a))
		}},
		{Title: "UPDATED", Width: 7, Right: true, Drop: 1, Cell: func(a *api.AccountAssociation) safe.Text { return age(c, a.UpdateTime) }},
	}
	if folders == nil {
		return cols
	}
	own := func(resolve func(string) string) func(*api.AccountAssociation) safe.Text {
		return func(a *api.AccountAssociation) safe.Text {
			if n := resolve(a.UID); n != "" {
				return safe.Of(n)
			}
			return safe.Of(text.Short(a.UID[strings.LastIndexByte(a.UID, '/')+1:], 8))
		}
	}
	folder := table.Column[api.AccountAssociation]{Title: "FOLDER", Flex: 2, Min: 12, Max: 30, Drop: 3, Search: true,
		Cell: func(a *api.AccountAssociation) safe.Text { return own(folders())(a) },
		Snap: func() func(*api.AccountAssociation) safe.Text { return own(folders()) }}
	return append(cols[:1:1], append([]table.Column[api.AccountAssociation]{folder}, cols[1:]...)...)
}

// AssociationOrders is the `s` cycle of associations: by folder (the
// folder's own first, then by the paths FOLDER shows, see ByFolder; the
// service's own order is by folder uid, which reads as no order), then by
// name, sorted here once every row is loaded.
func AssociationOrders() []table.Order {
	return []table.Order{{Label: "by folder"}, {Label: "name", Local: true}}
}

// SortAssociations are the positions of items by name (the Local order).
func SortAssociations(items []*api.AccountAssociation) []int {
	out := make([]int, len(items))
	for i := range out {
		out[i] = i
	}
	slices.SortStableFunc(out, func(a, b int) int { return strings.Compare(items[a].Name, items[b].Name) })
	return out
}

// ByFolder sorts the associations of scope and the folders below it as
// their folders read in a FOLDER column and in the tree: scope's own first,
// then by path (path gives a folder's, "platform/ci"; by segment, so that
// a folder's subfolders come right after it), those whose path is not
// known ("") last, by uid.
func ByFolder(items []api.AccountAssociation, scope string, path func(uid string) string) {
	type keyed struct {
		a    api.AccountAssociation
		rank int
		path []string
	}
	ks := make([]keyed, len(items))
	for i, a := range items {
		k := keyed{a: a, rank: 1}
		switch p := path(a.UID); {
		case a.UID == scope:
			k.rank = 0
		case p == "":
			k.rank = 2
		default:
			k.path = strings.Split(strings.ToLower(p), "/")
		}
		ks[i] = k
	}
	slices.SortStableFunc(ks, func(a, b keyed) int {
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		if c := slices.Compare(a.path, b.path); c != 0 {
			return c
		}
		return strings.Compare(a.a.UID, b.a.UID)
	})
	for i, k := range ks {
		items[i] = k.a
	}
}

// The providers of an association, as canopy names them.
const (
	PartAWS        = "aws"
	PartGoogle     = "gcp"
	PartAzure      = "azure"
	PartGitHub     = "github"
	PartChainguard = "chainguard"
)

// AssociationParts are the providers a has a part for, in one order.
func AssociationParts(a *api.AccountAssociation) []string {
	var out []string
	for _, p := range []struct {
		set  bool
		word string
	}{{a.Amazon != nil, PartAWS}, {a.Google != nil, PartGoogle}, {a.Azure != nil, PartAzure},
		{a.GitHub != nil, PartGitHub}, {a.Chainguard != nil, PartChainguard}} {
		if p.set {
			out = append(out, p.word)
		}
	}
	return out
}

// AssociationAccounts are the accounts a ties, one by provider: "aws
// 123456789012 · gcp acme-prod · github acme, acme-tools" (server text,
// to be made safe).
func AssociationAccounts(a *api.AccountAssociation) string {
	var out []string
	if a.Amazon != nil {
		out = append(out, PartAWS+" "+a.Amazon.Account)
	}
	if a.Google != nil {
		out = append(out, PartGoogle+" "+a.Google.ProjectID)
	}
	if a.Azure != nil {
		out = append(out, PartAzure+" "+a.Azure.TenantID)
	}
	if a.GitHub != nil {
		var names []string
		for _, app := range GitHubApps(a.GitHub) {
			for _, in := range a.GitHub.AppInstallations[app].Installations {
				names = append(names, installationName(in))
			}
		}
		out = append(out, PartGitHub+" "+strings.Join(names, ", "))
	}
	if a.Chainguard != nil {
		n := len(a.Chainguard.ServiceBindings)
		services := strconv.Itoa(n) + " services"
		if n == 1 {
			services = "1 service"
		}
		out = append(out, PartChainguard+" "+services)
	}
	return strings.Join(out, " · ")
}

// installationName is an installation by its account's name, else its
// id.
func installationName(in api.GitHubInstallation) string {
	if in.Name != "" {
		return in.Name
	}
	return strconv.FormatInt(int64(in.InstallationID), 10)
}

// GitHubApps are the ids of g's apps, in numeric order.
func GitHubApps(g *api.GitHubApps) []string {
	apps := make([]string, 0, len(g.AppInstallations))
	for app := range g.AppInstallations {
		apps = append(apps, app)
	}
	slices.SortFunc(apps, func(a, b string) int {
		if c := len(a) - len(b); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return apps
}
