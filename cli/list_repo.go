package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"canopy/api"
)

// repoNamed is the repo --repo names in the organization: by uid, by path
// (its folder's path and its name, as canopy list repos shows FOLDER and
// NAME: platform/ci/python, acme.example/python at the organization), or
// by name. Repos in different folders may share a name: such a name picks
// none of them (which one was meant is the user's to say, exit 2), and the
// candidates are named by path and uid.
func (r listRequest) repoNamed(ctx context.Context) (*api.Repo, error) {
	if api.IsGroupUID(r.repo) && api.RootUID(r.repo) == r.org.UID && r.repo != r.org.UID {
		repo, err := r.client.GetRepo(ctx, r.repo)
		if api.IsNotFound(err) {
			return nil, fmt.Errorf("no repo with uid %q in %s: %w", r.repo, r.org.Name, err)
		}
		if err != nil {
			return nil, fmt.Errorf("get repo %s: %w", r.repo, err)
		}
		return repo, nil
	}
	name, folder, byPath := r.repo, "", false
	if i := strings.LastIndexByte(r.repo, '/'); i >= 0 {
		name, folder, byPath = r.repo[i+1:], strings.Trim(r.repo[:i], "/"), true
	}
	var found []api.Repo
	ropts := api.ListOptions{DescendantsOf: r.org.UID, Name: name}
	_, err := pages(ctx, "repos", r.client.ListRepos, api.RepoKey, ropts, defaultMaxItems, func(repos []api.Repo) error {
		for _, repo := range repos {
			// Only the name asked for, whatever the server's filter did.
			if repo.Name == name {
				found = append(found, repo)
			}
		}
		return nil
	})
	switch {
	case err != nil:
		return nil, fmt.Errorf("list repos: %w", err)
	case len(found) == 0:
		return nil, fmt.Errorf("no repo named %q in %s", name, r.org.Name)
	case len(found) == 1 && !byPath:
		return &found[0], nil
	}
	names, err := folderNames(ctx, r.client, r.org.UID, defaultMaxItems)
	if err != nil {
		return nil, err
	}
	folderOf := folderPaths(r.org, names)()
	pathOf := func(repo api.Repo) string { return folderOf(api.ParentUID(repo.UID)) + "/" + repo.Name }
	if byPath {
		if folder == "" {
			folder = r.org.Name // "/python": the organization's own
		}
		if i := slices.IndexFunc(found, func(repo api.Repo) bool { return pathOf(repo) == folder+"/"+name }); i >= 0 {
			return &found[i], nil
		}
	}
	paths := make([]string, len(found))
	for i, repo := range found {
		paths[i] = pathOf(repo) + " (uid " + repo.UID + ")"
	}
	slices.Sort(paths)
	if byPath {
		return nil, fmt.Errorf("no repo at %q in %s; the repos named %q are %s", r.repo, r.org.Name, name, strings.Join(paths, ", "))
	}
	return nil, usageError{fmt.Errorf("--repo %q names %d repos of %s: %s; choose one by path or uid", r.repo, len(found), r.org.Name, strings.Join(paths, ", "))}
}
