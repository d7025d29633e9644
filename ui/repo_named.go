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
// it (cli/list_repo.go, docs/cli.md): its uid; its path, the folder's path
// and its name as the FOLDER and NAME columns show them
// (platform/base-images/python; acme.example/python or /python at the
// organization); or its name. Repos in different folders may share a
// name: such a name picks none, and the error names them by path and says
// how to pick one (cmd: the command that takes a path, ":tags"). folders
// are the folder names known so far (the namer's map, never written after
// it is taken); the others on the candidates' paths are asked for.
func repoNamed(ctx context.Context, c *api.Client, org *api.Group, folders map[string]string, arg, cmd string) (*api.Repo, error) {
	if api.IsGroupUID(arg) && api.RootUID(arg) == org.UID && arg != org.UID {
		repo, err := c.GetRepo(ctx, arg)
		if api.IsNotFound(err) {
			return nil, fmt.Errorf("no repo has the uid %s", arg)
		}
		if err != nil {
			return nil, fmt.Errorf("look up the repo %s: %w", arg, err)
		}
		return repo, nil
	}
	name, folder, byPath := arg, "", false
	if i := strings.LastIndexByte(arg, '/'); i >= 0 {
		name, folder, byPath = arg[i+1:], strings.Trim(arg[:i], "/"), true
	}
	found, err := reposNamed(ctx, c, org.UID, name)
	if err != nil {
		return nil, err
	}
	if len(found) == 1 && !byPath {
		return &found[0], nil
	}
	if len(found) == 0 && !byPath {
		return nil, errNoneNamed
	}
	pathOfRepo, err := repoPaths(ctx, c, org, folders, found)
	if err != nil {
		return nil, err
	}
	if byPath {
		if folder == "" {
			folder = org.Name // "/python": the organization's own
		}
		if i := slices.IndexFunc(found, func(r api.Repo) bool { return pathOfRepo(&r) == folder+"/"+name }); i >= 0 {
			return &found[i], nil
		}
		// Repo names may hold a "/" themselves: one named so is meant.
		if whole, err := reposNamed(ctx, c, org.UID, arg); err == nil && len(whole) == 1 {
			return &whole[0], nil
		}
	}
	paths := make([]string, len(found))
	for i := range found {
		paths[i] = safe.String(pathOfRepo(&found[i]))
	}
	slices.Sort(paths)
	// The how comes first: a narrow screen cuts the flash's end.
	switch {
	case byPath && len(found) == 0:
		return nil, fmt.Errorf("no repo at %s, and no repo is named %s", safe.String(arg), safe.String(name))
	case byPath:
		return nil, fmt.Errorf("no repo at %s; %s is at %s", safe.String(arg), safe.String(name), few(paths))
	}
	return nil, fmt.Errorf("%d repos are named %s (%s <path> or <uid> picks one): %s", len(found), safe.String(name), cmd, few(paths))
}

// reposNamed are the repos of org named name exactly, whatever the
// server's filter did.
func reposNamed(ctx context.Context, c *api.Client, org, name string) ([]api.Repo, error) {
	var found []api.Repo
	o := api.ListOptions{DescendantsOf: org, Name: name, PageSize: api.MaxPageSize}
	read := 0
	for r, err := range api.NewCursor(c.ListRepos, o, api.RepoKey).All(ctx) {
		if err != nil {
			return nil, fmt.Errorf("looking up repos: %w", err)
		}
		if read++; read > maxNamedRepos {
			break
		}
		if r.Name == name {
			found = append(found, r)
		}
	}
	return found, nil
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
