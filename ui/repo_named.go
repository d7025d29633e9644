package ui

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"canopy/api"
	"canopy/safe"
)

// maxNamedRepos bounds the repos read to find those of one name: a server
// that ignores the name filter answers every repo, which are kept to the
// name here.
const maxNamedRepos = 20_000

// namesShown is how many repos a message names before "…and N more".
const namesShown = 3

// errNoneNamed: a plain name names no holder (repo), so :tags NAME may
// filter the whole table by it instead (a part of a repo's name).
var errNoneNamed = errors.New("none is named so")

// repoNamed is the repo arg names in org, read as canopy list --repo reads
// it (api.RepoRef, docs/cli.md): its uid; its path, the folder's path and
// its name as the FOLDER and NAME columns show them
// (platform/base-images/python; acme.example/python or /python at the
// organization); or its name. Repos in different folders may share a
// name: such a name picks none, and the error names them by path and says
// how to pick one (cmd: the command that takes a path, ":tags"). folders
// are the folder names known so far (the namer's map, never written after
// it is taken); the others on the candidates' paths are asked for.
func repoNamed(ctx context.Context, c *api.Client, org *api.Group, folders map[string]string, arg, cmd string) (*api.Repo, error) {
	ref := api.ParseRepoRef(org.UID, arg)
	if ref.UID != "" {
		repo, err := c.GetRepo(ctx, ref.UID)
		if api.IsNotFound(err) {
			return nil, fmt.Errorf("no repo has the uid %s", arg)
		}
		if err != nil {
			return nil, fmt.Errorf("look up the repo %s: %w", arg, err)
		}
		return repo, nil
	}
	found, err := c.ReposNamed(ctx, org.UID, ref.Name, maxNamedRepos)
	if err != nil {
		return nil, fmt.Errorf("looking up repos: %w", err)
	}
	switch {
	case len(found) == 1 && !ref.ByPath:
		return &found[0], nil
	case len(found) == 0 && !ref.ByPath:
		return nil, errNoneNamed
	}
	pathOfRepo, err := repoPaths(ctx, c, org, folders, found)
	if err != nil {
		return nil, err
	}
	repo, paths := ref.Pick(found, org.Name, pathOfRepo)
	if repo != nil {
		return repo, nil
	}
	if ref.ByPath {
		// Repo names may hold a "/" themselves: one named so is meant.
		if whole, err := c.ReposNamed(ctx, org.UID, arg, maxNamedRepos); err == nil && len(whole) == 1 {
			return &whole[0], nil
		}
	}
	for i := range paths {
		paths[i] = safe.String(paths[i])
	}
	// The how comes first: a narrow screen cuts the flash's end.
	switch {
	case ref.ByPath && len(found) == 0:
		return nil, fmt.Errorf("no repo at %s, and no repo is named %s", safe.String(arg), safe.String(ref.Name))
	case ref.ByPath:
		return nil, fmt.Errorf("no repo at %s; %s is at %s", safe.String(arg), safe.String(ref.Name), few(paths))
	}
	return nil, fmt.Errorf("%d repos are named %s (%s <path> or <uid> picks one): %s", len(found), safe.String(ref.Name), cmd, few(paths))
}

// repoPaths resolves the path of each of repos (folder path, "/", name),
// asking for the folder names on their way that folders lacks.
func repoPaths(ctx context.Context, c *api.Client, org *api.Group, folders map[string]string, repos []api.Repo) (func(*api.Repo) string, error) {
	var missing []string
	for _, r := range repos {
		for u := api.ParentUID(r.UID); u != "" && u != org.UID; u = api.ParentUID(u) {
			if _, ok := folders[u]; !ok && !slices.Contains(missing, u) {
				missing = append(missing, u)
			}
		}
	}
	names := folders
	if len(missing) > 0 {
		names = maps.Clone(folders)
		if names == nil {
			names = map[string]string{}
		}
		if _, err := getNames(ctx, c, folderNames, missing, names); err != nil {
			return nil, fmt.Errorf("looking up the repos' folders: %w", err)
		}
	}
	return func(r *api.Repo) string {
		return pathOf(names, org.UID, org.Name, api.ParentUID(r.UID)) + "/" + r.Name
	}, nil
}

// few lists the first namesShown of items, then how many more there are.
func few(items []string) string {
	if len(items) <= namesShown {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s …and %d more", strings.Join(items[:namesShown], ", "), len(items)-namesShown)
}
