package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"canopy/api"
	"canopy/census"
	"canopy/cli/exit"
	"canopy/resource"
	"canopy/safe"
	"canopy/views"
	"canopy/views/columns"
	"canopy/views/table"
)

// accessCollection is canopy list's access review: who can do what,
// where, as package census counts it from the organization's folders,
// roles, identities and role bindings (read once, whole), in the columns
// of the UI's access matrix (columns.Matrix, with IDENTITY and FOLDER).
const accessCollection = "access"

// accessKind describes the access review as canopy list takes it. It is
// no kind of resource (package resource knows none of it: there is no
// resource to open, name or hand a plugin), but canopy list names, checks
// and explains it as it does its other collections (kinds).
func accessKind() resource.Kind {
	return resource.Kind{Noun: "access", Nouns: "access", Collection: accessCollection, InFolders: true,
		Says:  "who can do what, where: each identity's capability groups (all, some or ·) and flags",
		Flags: []string{"identity", "folder", "role"},
		Lists: ", at the organization (--folder PATH|UID: at a folder; --identity NAME|UID: one identity's at each folder;" +
			" --role NAME|UID: each binding of a role; -o json: each grant and why)"}
}

// kinds are the kinds canopy list knows: package resource's, with the
// access review after roles.
func kinds() []resource.Kind {
	ks := resource.Kinds()
	i := slices.IndexFunc(ks, func(k resource.Kind) bool { return k.Noun == resource.Role }) + 1
	return slices.Insert(ks, i, accessKind())
}

// byCollection is the kind canopy list names so; ok false for none.
func byCollection(name string) (resource.Kind, bool) {
	for _, k := range kinds() {
		if k.Collection != "" && k.Collection == name {
			return k, true
		}
	}
	return resource.Kind{}, false
}

// accessScope is what --identity, --folder and --role ask of the review,
// as given (a name, a path or a uid); all "" for the organization.
type accessScope struct {
	identity, folder, role string
}

// checkAccess refuses flags that ask two different questions at once.
func (f *listFlags) checkAccess() error {
	if *f.role != "" && (*f.identity != "" || *f.folder != "") {
		return errors.New("--role lists each binding of a role wherever it is: it takes neither --identity nor --folder")
	}
	return nil
}

// access lists the organization's access review: every identity holding
// something at the organization (or --folder), one identity's access at
// each folder (--identity; with --folder, at that folder only), or each
// binding of a role (--role), in the order census gives them. What the
// token may not read is said on stderr: the rows are those it could.
func (r listRequest) access(ctx context.Context, common views.Common) error {
	a, err := census.ReadAccess(ctx, r.client, *r.org, r.stale, r.now)
	if err != nil {
		return fmt.Errorf("read the access review: %w", err)
	}
	if p := a.Partial(); p != "" {
		exit.Sayf(r.notes, "canopy list: the access review is partial: %s", p)
	}
	rows, err := r.accessRows(a)
	if err != nil {
		return err
	}
	items := make([]accessRow, len(rows))
	for i := range rows {
		items[i] = accessRow(rows[i])
	}
	return printItems(ctx, r, items, accessColumns(columns.Matrix(common, true, true)))
}

// accessRows are the rows the flags ask for.
func (r listRequest) accessRows(a *census.Access) ([]census.Row, error) {
	s := r.scope
	if s.role != "" {
		role, err := findRole(a, s.role, r.org.Name)
		if err != nil {
			return nil, err
		}
		return a.ByRole(role), nil
	}
	folder := a.Layout.Org
	if s.folder != "" {
		var err error
		if folder, err = findFolder(a, s.folder, r.org.Name); err != nil {
			return nil, err
		}
	}
	if s.identity == "" {
		return a.At(folder), nil
	}
	id, err := findIdentity(a, s.identity, r.org.Name)
	if err != nil {
		return nil, err
	}
	if s.folder == "" {
		return a.Of(id), nil
	}
	return slices.DeleteFunc(a.At(folder), func(row census.Row) bool { return row.Who.UID != id }), nil
}

// findIdentity is the uid --identity names: a uid as is (one the review
// knows of, when it could read every identity), else the one identity of
// that name, or one a binding names so that no longer exists.
func findIdentity(a *census.Access, v, org string) (string, error) {
	listed, bound := map[string]string{}, map[string]string{} // names by uid
	for uid, id := range a.Identities {
		listed[uid] = id.Name
	}
	for _, b := range a.Bindings {
		if b.Identity != nil {
			bound[b.Identity.UID] = b.Identity.Name
		}
	}
	if strings.Contains(v, "/") {
		_, known := listed[v]
		_, named := bound[v]
		if !known && !named && a.Read("identities") {
			return "", fmt.Errorf("--identity %s: no identity of %s has this uid", v, org)
		}
		return v, nil
	}
	return one(a, "--identity", "identity", "identities", v, org, uidsNamed(listed, bound, v))
}

// findRole is the uid --role names: a role's uid, else the one role of
// that name (built-in or custom), or one a binding names so.
func findRole(a *census.Access, v, org string) (string, error) {
	listed, bound := map[string]string{}, map[string]string{}
	for uid, r := range a.Roles {
		listed[uid] = r.Name
	}
	for _, b := range a.Bindings {
		if b.Role != nil {
			bound[b.Role.UID] = b.Role.Name
		}
	}
	_, known := listed[v]
	_, named := bound[v]
	switch {
	case known || named:
		return v, nil
	case api.IsGroupUID(v) && a.Read("roles"):
		return "", fmt.Errorf("--role %s: no role of %s has this uid", v, org)
	case api.IsGroupUID(v):
		return v, nil
	}
	return one(a, "--role", "role", "roles", v, org, uidsNamed(listed, bound, v))
}

// uidsNamed are the uids of the name v: those the review listed, and
// those only a binding names (gone, or in a part not read).
func uidsNamed(listed, bound map[string]string, v string) []string {
	var found []string
	for uid, name := range listed {
		if name == v {
			found = append(found, uid)
		}
	}
	for uid, name := range bound {
		if _, known := listed[uid]; !known && name == v {
			found = append(found, uid)
		}
	}
	return found
}

// findFolder is the folder --folder names: "/" or the organization's name
// for the organization, a path below it as the FOLDER column says it
// ("apps/web"), or a folder's uid.
func findFolder(a *census.Access, v, org string) (string, error) {
	l := a.Layout
	if api.IsGroupUID(v) {
		_, known := l.Folders[v]
		switch {
		case v != l.Org && !api.IsDescendant(v, l.Org):
			return "", fmt.Errorf("--folder %s: not a folder of %s", v, org)
		case !known && a.Read("folders"):
			return "", fmt.Errorf("--folder %s: no folder of %s has this uid (a repo's access is its folder's: give the folder)", v, org)
		}
		return v, nil
	}
	path := strings.Trim(v, "/")
	if path == "" {
		return l.Org, nil
	}
	var found []string
	for uid := range l.Folders {
		if uid != l.Org && l.Path(uid) == path {
			found = append(found, uid)
		}
	}
	if len(found) == 0 && v == l.Folders[l.Org] {
		return l.Org, nil
	}
	return one(a, "--folder", "folder", "folders", v, org, found)
}

// one is the single uid a name (or a folder's path) found, or an error:
// none is a failure (exit 1, as a repo that does not exist is), several
// a mistake the user settles by giving a uid (exit 2, as an artifact's
// name in two ecosystems is).
func one(a *census.Access, flag, noun, nouns, v, org string, found []string) (string, error) {
	switch len(found) {
	case 0:
		what, lists := "name", nouns
		if noun == "folder" {
			what, lists = "path", "groups"
		}
		return "", fmt.Errorf("%s %q: no %s of %s has this %s (canopy list %s lists them)%s", flag, v, noun, org, what, lists, unreadNote(a, nouns))
	case 1:
		return found[0], nil
	}
	slices.Sort(found)
	named := make([]string, len(found))
	for i, uid := range found {
		switch in := api.ParentUID(uid); {
		case noun == "folder":
			named[i] = "uid " + uid
		case in == "":
			named[i] = "uid " + uid + " (built-in)"
		default:
			named[i] = fmt.Sprintf("uid %s (in %s)", uid, a.Path(in))
		}
	}
	return "", usageError{fmt.Errorf("%s %q names %d %s of %s: %s; choose one by uid", flag, v, len(found), nouns, org, strings.Join(named, ", "))}
}

// unreadNote says, after "no such name", that the part was not read.
func unreadNote(a *census.Access, part string) string {
	if a.Read(part) {
		return ""
	}
	return "; the " + part + " were not all read: give a uid"
}

// accessColumns are the matrix's columns for canopy list's items.
func accessColumns(cols []table.Column[census.Row]) []table.Column[accessRow] {
	out := make([]table.Column[accessRow], len(cols))
	for i, c := range cols {
		cell := c.Cell
		out[i] = table.Column[accessRow]{Title: c.Title, Middle: c.Middle, Search: c.Search,
			Cell: func(r *accessRow) safe.Text { return cell((*census.Row)(r)) }}
	}
	return out
}

// accessRow is a row of the review as canopy list prints it: the matrix's
// cells in a table, and in JSON who, where, each group's level, each
// grant and why, and the flags.
type accessRow census.Row

// The JSON of an access row.
type (
	accessJSON struct {
		Identity accessWho     `json:"identity"`
		Folder   accessPlace   `json:"folder"`
		Groups   accessLevels  `json:"groups"`
		Grants   []accessGrant `json:"grants"`
		Flags    []accessFlag  `json:"flags"`
	}
	accessWho struct {
		UID      string `json:"uid"`
		Name     string `json:"name"`
		Workload string `json:"workload"` // "" for a person who signs in
		Gone     bool   `json:"gone"`
	}
	accessPlace struct {
		UID  string `json:"uid"`
		Path string `json:"path"`
	}
	accessRef struct {
		UID  string `json:"uid"`
		Name string `json:"name"`
	}
	accessGrant struct {
		Capability string      `json:"capability"`
		Short      string      `json:"short"`
		Role       accessRef   `json:"role"`
		Binding    string      `json:"binding"`
		On         accessPlace `json:"on"`
		Inherited  bool        `json:"inherited"` // bound on a folder above the row's
	}
	accessFlag struct {
		Kind string `json:"kind"`
		Says string `json:"says"`
	}
	// accessLevels are the groups' levels by key, in census's order.
	accessLevels []accessLevel
	accessLevel  struct{ key, level string }
)

func (r accessRow) MarshalJSON() ([]byte, error) {
	j := accessJSON{Identity: accessWho{UID: r.Who.UID, Name: r.Who.Name, Workload: r.Who.Workload, Gone: r.Who.Gone},
		Folder: accessPlace{UID: r.Folder, Path: r.Path}, Grants: []accessGrant{}, Flags: []accessFlag{}}
	for i, g := range census.Groups() {
		level := census.None
		if i < len(r.Levels) {
			level = r.Levels[i]
		}
		j.Groups = append(j.Groups, accessLevel{g.Key, level.Word()})
	}
	for _, g := range r.Grants {
		c, _ := api.CapabilityOf(g.Capability)
		j.Grants = append(j.Grants, accessGrant{Capability: g.Capability, Short: c.Short, Role: accessRef{UID: g.Role, Name: g.RoleName},
			Binding: g.Binding, On: accessPlace{UID: g.On, Path: g.OnPath}, Inherited: g.On != r.Folder})
	}
	for _, f := range r.Flags {
		j.Flags = append(j.Flags, accessFlag{Kind: census.FlagWord(f.Kind), Says: f.Says})
	}
	return json.Marshal(j)
}

// MarshalJSON writes the levels as an object whose keys keep their order.
func (ls accessLevels) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, l := range ls {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(l.key)
		v, _ := json.Marshal(l.level)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
