package api

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
)

// A RepoRef is how a user names a repo of an organization (canopy list
// --repo, the explorer's :tags): its uid; its path, the folder's path and
// its name as canopy shows FOLDER and NAME (platform/ci/python;
// acme.example/python or /python for one at the organization's top); or
// its name alone, which repos in different folders may share.
type RepoRef struct {
	Raw    string // as given
	UID    string // set when Raw is a repo's uid in the organization
	Name   string // the repo's name: Raw, or its last part after a "/"
	Folder string // the folder's path, with ByPath ("" for the organization)
	ByPath bool
}

// ParseRepoRef reads s as a reference to a repo of the organization org.
func ParseRepoRef(org, s string) RepoRef {
	ref := RepoRef{Raw: s, Name: s}
	if IsGroupUID(s) && RootUID(s) == org && s != org {
		ref.UID = s
		return ref
	}
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		ref.Name, ref.Folder, ref.ByPath = s[i+1:], strings.Trim(s[:i], "/"), true
	}
	return ref
}

// ReposNamed are the repos of the organization org named name exactly,
// whatever the server's name filter did (one that ignores it answers
// every repo: at most max are read).
func (c *Client) ReposNamed(ctx context.Context, org, name string, max int) ([]Repo, error) {
	var found []Repo
	o := ListOptions{DescendantsOf: org, Name: name, PageSize: MaxPageSize}
	read := 0
	for r, err := range NewCursor(c.ListRepos, o, RepoKey).All(ctx) {
		if err != nil {
			return nil, fmt.Errorf("list repos named %q: %w", name, err)
		}
		if read++; read > max {
			break
		}
		if r.Name == name {
			found = append(found, r)
		}
	}
	return found, nil
}

// Pick is the repo of found (the repos named ref.Name) that ref names:
// the only one, for a name; the one at its path, for a path (orgName
// standing for the organization's top, as for an empty folder). It
// returns nil when none or several are meant, with the paths of found,
// sorted, to say so.
func (ref RepoRef) Pick(found []Repo, orgName string, pathOf func(*Repo) string) (*Repo, []string) {
	if len(found) == 1 && !ref.ByPath {
		return &found[0], nil
	}
	want := cmp.Or(ref.Folder, orgName) + "/" + ref.Name
	if i := slices.IndexFunc(found, func(r Repo) bool { return pathOf(&r) == want }); ref.ByPath && i >= 0 {
		return &found[i], nil
	}
	paths := make([]string, len(found))
	for i := range found {
		paths[i] = pathOf(&found[i])
	}
	slices.Sort(paths)
	return nil, paths
}
