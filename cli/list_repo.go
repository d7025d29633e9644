package cli

import (
	"context"
	"fmt"
	"strings"

	"canopy/api"
)

// repoNamed is the repo --repo names in the organization (api.RepoRef:
// its uid, its path as canopy list repos shows FOLDER and NAME, or its
// name). Repos in different folders may share a name: such a name picks
// none of them (which one was meant is the user's to say, exit 2), and the
// candidates are named by path and uid.
func (r listRequest) repoNamed(ctx context.Context) (*api.Repo, error) {
	ref := api.ParseRepoRef(r.org.UID, r.repo)
	if ref.UID != "" {
		repo, err := r.client.GetRepo(ctx, ref.UID)
		if api.IsNotFound(err) {
			return nil, fmt.Errorf("no repo with uid %q in %s: %w", r.repo, r.org.Name, err)
		}
		if err != nil {
			return nil, fmt.Errorf("get repo %s: %w", r.repo, err)
		}
		return repo, nil
	}
	found, err := r.client.ReposNamed(ctx, r.org.UID, ref.Name, defaultMaxItems)
	switch {
	case err != nil:
		return nil, err
	case len(found) == 0:
		return nil, fmt.Errorf("no repo named %q in %s", ref.Name, r.org.Name)
	case len(found) == 1 && !ref.ByPath:
		return &found[0], nil
	}
	names, err := folderNames(ctx, r.client, r.org.UID, defaultMaxItems)
	if err != nil {
		return nil, err
	}
	folderOf := folderPaths(r.org, names)()
	pathOf := func(repo *api.Repo) string { return folderOf(api.ParentUID(repo.UID)) + "/" + repo.Name }
	repo, paths := ref.Pick(found, r.org.Name, pathOf)
	if repo != nil {
		return repo, nil
	}
	uidOf := make(map[string]string, len(found))
	for _, f := range found {
		uidOf[pathOf(&f)] = f.UID
	}
	for i, p := range paths {
		paths[i] = p + " (uid " + uidOf[p] + ")"
	}
	if ref.ByPath {
		return nil, fmt.Errorf("no repo at %q in %s; the repos named %q are %s", r.repo, r.org.Name, ref.Name, strings.Join(paths, ", "))
	}
	return nil, usageError{fmt.Errorf("--repo %q names %d repos of %s: %s; choose one by path or uid", r.repo, len(found), r.org.Name, strings.Join(paths, ", "))}
}
