package census

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"canopy/api"
)

// Access answers who can do what, where, from the organization's roles,
// role bindings and identities as the server lists them. A binding grants
// its role's capabilities on its folder and on everything below it, so
// what an identity holds at a folder is what the bindings on that folder
// and on each folder above it grant; a repo holds what its folder does.
// Nothing here asks the server: the shell lists, this counts.
type Access struct {
	Layout     *Layout
	Roles      map[string]api.Role     // by uid
	Identities map[string]api.Identity // by uid
	Bindings   []api.RoleBinding
	// Unread names the parts the token may not read (or that failed):
	// the answers are partial then, and say so.
	Unread []string
	// Truncated: a listing stopped at its bound.
	Truncated bool
	// Stale is how long unseen is too long for an identity that holds a
	// write capability; Now is when the answers are made.
	Stale time.Duration
	Now   time.Time
}

// Group is a column of the access matrix: capabilities that together
// allow one thing people ask about. Holding all of them is full, some of
// them partial.
type Group struct {
	Key   string // short, for scripts ("push")
	Title string // the column's title
	Says  string // what it allows, in a few words
	Caps  []string
}

// Groups are the matrix's columns, in order.
func Groups() []Group {
	return []Group{
		{"pull", "PULL", "pull images: see manifests, download layers", []string{"CAP_MANIFEST_LIST", "CAP_REPO_BLOBS_GET"}},
		{"push", "PUSH", "push images: write manifests, set tags", []string{"CAP_MANIFEST_CREATE", "CAP_TAG_CREATE", "CAP_TAG_UPDATE"}},
		{"delete", "DELETE", "delete repos, tags and manifests", []string{"CAP_REPO_DELETE", "CAP_TAG_DELETE", "CAP_MANIFEST_DELETE"}},
		{"repos", "REPOS", "create and change repos", []string{"CAP_REPO_CREATE", "CAP_REPO_UPDATE"}},
		{"bind", "BIND", "grant and take away roles (role bindings)", []string{"CAP_IAM_ROLE_BINDINGS_CREATE", "CAP_IAM_ROLE_BINDINGS_UPDATE", "CAP_IAM_ROLE_BINDINGS_DELETE"}},
		{"iam", "IAM", "manage who gets in: identities, roles, sign-in providers (and their provisioning) and invites", []string{
			"CAP_IAM_IDENTITY_CREATE", "CAP_IAM_IDENTITY_UPDATE", "CAP_IAM_IDENTITY_DELETE",
			"CAP_IAM_ROLES_CREATE", "CAP_IAM_ROLES_UPDATE", "CAP_IAM_ROLES_DELETE",
			"CAP_IAM_IDENTITY_PROVIDERS_CREATE", "CAP_IAM_IDENTITY_PROVIDERS_UPDATE", "CAP_IAM_IDENTITY_PROVIDERS_DELETE",
			"CAP_IAM_SCIM_MANAGE", "CAP_IAM_GROUP_INVITES_CREATE", "CAP_IAM_GROUP_INVITES_DELETE"}},
		{"events", "EVENTS", "create, change and delete event subscriptions (webhooks)", []string{
			"CAP_EVENTS_SUBSCRIPTION_CREATE", "CAP_EVENTS_SUBSCRIPTION_UPDATE", "CAP_EVENTS_SUBSCRIPTION_DELETE"}},
		{"advisories", "ADVISE", "write and approve security advisories", []string{
			"CAP_ADVISORIES_CREATE", "CAP_ADVISORIES_UPDATE", "CAP_ADVISORIES_DELETE", "CAP_ADVISORIES_APPROVE"}},
	}
}

// Level is how much of a group an identity holds.
type Level int

// Levels of a cell. Unknown: a role of its bindings could not be read,
// and what it holds of the group is not all of it without that role.
const (
	None Level = iota
	Partly
	Fully
	Unknown
)

// Word is the level as scripts read it.
func (l Level) Word() string {
	return [...]string{"none", "some", "all", "unknown"}[l]
}

// Grant is why an identity holds a capability at a folder: a binding of a
// role on that folder or on one above it (On).
type Grant struct {
	Capability string // the enum name
	Binding    string // its uid
	Role       string // the role's uid
	RoleName   string
	On         string // the folder the binding is on
	OnPath     string // its path, as Access.Path says it
}

// Who is the identity a row is about: as the server lists it, or, when
// it no longer does, as the binding names it (Gone).
type Who struct {
	UID, Name string
	// Workload says how a workload assumes it ("claim match", "static
	// keys", "aws", "service"); "" for a person who signs in.
	Workload string
	LastSeen time.Time
	Created  time.Time
	Gone     bool
}

// Flag is a reason to look at a row.
type Flag struct {
	Kind int
	Says string
}

// Kinds of flag.
const (
	FlagWorkloadAtOrg = iota // a workload holds write or IAM capabilities at the organization
	FlagStaleWriter          // not seen for the stale span, and holds a write capability
	FlagIAMBelowOrg          // a role granting IAM management is bound below the organization
	FlagGone                 // a binding names an identity or role that no longer exists
	FlagUnjudged             // a part the token may not read leaves a question open
)

// Row is one identity's access at one folder.
type Row struct {
	Who    Who
	Folder string // the folder's uid
	Path   string // its path, as Access.Path says it
	// Unread names the roles of its bindings that could not be read: what
	// they grant is not known.
	Unread []string
	Levels []Level
	// Grants are what applies at Folder, by capability then binding.
	Grants []Grant
	Flags  []Flag
}

// Holds is the grants of one group's capabilities.
func (r *Row) Holds(g Group) []Grant {
	var out []Grant
	for _, gr := range r.Grants {
		if slices.Contains(g.Caps, gr.Capability) {
			out = append(out, gr)
		}
	}
	return out
}

// applies reports whether a binding on folder on applies at folder at.
func applies(on, at string) bool { return on == at || strings.HasPrefix(at, on+"/") }

// Path is a folder's path for people: below the organization, the
// organization's name for itself.
func (a *Access) Path(folder string) string {
	if a.Layout == nil {
		return folder
	}
	if p := a.Layout.Path(folder); p != "" {
		return p
	}
	return a.Layout.Folders[a.Layout.Org]
}

// At is every identity that holds a capability at folder, each with what
// it holds and why, by name.
func (a *Access) At(folder string) []Row {
	by := map[string][]api.RoleBinding{}
	var order []string
	for _, b := range a.Bindings {
		if b.Group == nil || b.Identity == nil || !applies(b.Group.UID, folder) {
			continue
		}
		if _, ok := by[b.Identity.UID]; !ok {
			order = append(order, b.Identity.UID)
		}
		by[b.Identity.UID] = append(by[b.Identity.UID], b)
	}
	rows := make([]Row, 0, len(order))
	for _, id := range order {
		rows = append(rows, a.row(by[id], folder))
	}
	sortRows(rows)
	return rows
}

// Of is one identity's access at each folder where it holds something
// (the folders of its bindings and every one below them), by path.
func (a *Access) Of(identity string) []Row {
	var mine []api.RoleBinding
	for _, b := range a.Bindings {
		if b.Identity != nil && b.Identity.UID == identity && b.Group != nil {
			mine = append(mine, b)
		}
	}
	if len(mine) == 0 || a.Layout == nil {
		return nil
	}
	var rows []Row
	for _, f := range a.folders() {
		var here []api.RoleBinding
		for _, b := range mine {
			if applies(b.Group.UID, f) {
				here = append(here, b)
			}
		}
		if len(here) > 0 {
			rows = append(rows, a.row(here, f))
		}
	}
	return rows
}

// ByRole is where a role is held: one row per binding of it, at its
// folder, with what that binding alone grants.
func (a *Access) ByRole(role string) []Row {
	var rows []Row
	for _, b := range a.Bindings {
		if b.Role != nil && b.Role.UID == role && b.Identity != nil && b.Group != nil {
			rows = append(rows, a.row([]api.RoleBinding{b}, b.Group.UID))
		}
	}
	sortRows(rows)
	return rows
}

// folders are the layout's folders, the organization first, then by path.
func (a *Access) folders() []string {
	out := make([]string, 0, len(a.Layout.Folders))
	for uid := range a.Layout.Folders {
		out = append(out, uid)
	}
	slices.SortFunc(out, func(x, y string) int {
		return cmp.Or(cmp.Compare(boolInt(x != a.Layout.Org), boolInt(y != a.Layout.Org)), comparePath(a.Layout.Path(x), a.Layout.Path(y)), cmp.Compare(x, y))
	})
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// comparePath orders paths by their parts ("data" before "data/ml"
// before "data-x").
func comparePath(a, b string) int {
	return slices.Compare(strings.Split(a, "/"), strings.Split(b, "/"))
}

// row is what bindings (of one identity, each applying at folder) grant.
func (a *Access) row(bs []api.RoleBinding, folder string) Row {
	r := Row{Who: a.who(bs[0].Identity), Folder: folder, Path: a.Path(folder)}
	var goneRoles []string
	for _, b := range bs {
		if b.Role == nil {
			continue
		}
		role, ok := a.Roles[b.Role.UID]
		if !ok {
			if a.readAll() {
				goneRoles = append(goneRoles, roleName(b))
			} else if !slices.Contains(r.Unread, roleName(b)) {
				r.Unread = append(r.Unread, roleName(b))
			}
			continue
		}
		for _, c := range role.Capabilities {
			r.Grants = append(r.Grants, Grant{Capability: c, Binding: b.UID, Role: role.UID, RoleName: role.Name, On: b.Group.UID, OnPath: a.Path(b.Group.UID)})
		}
	}
	slices.SortFunc(r.Grants, func(x, y Grant) int {
		return cmp.Or(cmp.Compare(x.Capability, y.Capability), cmp.Compare(len(y.On), len(x.On)), cmp.Compare(x.Binding, y.Binding))
	})
	for _, g := range Groups() {
		l := level(r.Grants, g)
		if len(r.Unread) > 0 && l != Fully {
			l = Unknown // the role not read may hold the rest
		}
		r.Levels = append(r.Levels, l)
	}
	r.Flags = a.flags(&r, goneRoles)
	return r
}

// readAll reports whether every part was read: only then is a name the
// lists lack one that no longer exists.
func (a *Access) readAll() bool { return len(a.Unread) == 0 && !a.Truncated }

// unread reports whether a part (ReadAccess's word: "identities") was
// not read.
func (a *Access) unread(part string) bool {
	return slices.ContainsFunc(a.Unread, func(u string) bool { return strings.HasPrefix(u, part+":") })
}

// Read reports whether every item of a part ("identities", "roles",
// "folders", "role bindings") was read: only then is a uid it lacks one
// that does not exist.
func (a *Access) Read(part string) bool { return !a.Truncated && !a.unread(part) }

func roleName(b api.RoleBinding) string {
	if b.Role.Name != "" {
		return b.Role.Name
	}
	return b.Role.UID
}

// who is a binding's identity as the server lists it.
func (a *Access) who(bi *api.BindingIdentity) Who {
	id, ok := a.Identities[bi.UID]
	if !ok {
		return Who{UID: bi.UID, Name: bi.Name, Gone: a.readAll()}
	}
	return Who{UID: id.UID, Name: id.Name, LastSeen: id.LastSeenTime.Time(), Created: id.CreateTime.Time(), Workload: WorkloadOf(&id)}
}

// WorkloadOf says how a workload assumes an identity ("static keys",
// "aws", "service", "claim match of <issuer>"), "" for a person: one
// matched exactly to a sign-in of the issuers people sign in with
// (Google, Microsoft; GitHub and GitLab by a user's number, where their
// CI tokens name a repository or project).
func WorkloadOf(id *api.Identity) string {
	if by := id.AssumedBy(); by != "claim match" {
		return by
	}
	cm := id.ClaimMatch
	if cm.IssuerPattern == "" && cm.SubjectPattern == "" && cm.Subject != "" && signsIn(cm.Issuer, cm.Subject) {
		return ""
	}
	issuer := cm.Issuer
	if issuer == "" {
		issuer = cm.IssuerPattern
	}
	issuer = strings.TrimPrefix(issuer, "https://")
	if issuer == "" {
		return "claim match"
	}
	return "claim match of " + issuer
}

// signsIn reports whether an issuer and subject are a person's sign-in.
func signsIn(issuer, subject string) bool {
	switch {
	case issuer == "https://accounts.google.com", strings.HasPrefix(issuer, "https://login.microsoftonline.com/"):
		return true
	case issuer == "https://github.com", issuer == "https://gitlab.com":
		return strings.Trim(subject, "0123456789") == ""
	}
	return false
}

// level is how much of g the grants hold.
func level(grants []Grant, g Group) Level {
	n := 0
	for _, c := range g.Caps {
		if slices.ContainsFunc(grants, func(gr Grant) bool { return gr.Capability == c }) {
			n++
		}
	}
	switch {
	case n == 0:
		return None
	case n == len(g.Caps):
		return Fully
	}
	return Partly
}

// Writes reports whether a capability changes something (its short name
// does not end in list, get or read).
func Writes(capability string) bool {
	c, ok := api.CapabilityOf(capability)
	if !ok {
		return false
	}
	verb := c.Short[strings.LastIndexByte(c.Short, '.')+1:]
	return verb != "list" && verb != "get" && verb != "read"
}

// ManagesIAM reports whether a capability changes who may do what: one
// of the matrix's BIND or IAM columns.
func ManagesIAM(capability string) bool {
	for _, g := range Groups() {
		if (g.Key == "bind" || g.Key == "iam") && slices.Contains(g.Caps, capability) {
			return true
		}
	}
	return false
}

// sortRows orders rows by identity name, then uid, then folder.
func sortRows(rows []Row) {
	slices.SortFunc(rows, func(x, y Row) int {
		return cmp.Or(cmp.Compare(strings.ToLower(x.Who.Name), strings.ToLower(y.Who.Name)), cmp.Compare(x.Who.UID, y.Who.UID),
			cmp.Compare(x.Folder, y.Folder))
	})
}
