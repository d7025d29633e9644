package ui

// Tables opened in the tree (enter on a folder's collection, t on a folder
// or a repo) as views: :save keeps where they list, by the folder's path
// or the repo's name, and a saved view finds that place again by it.

import (
	"context"
	"fmt"
	"strings"

	"canopy/api"
	"canopy/safe"
	"canopy/saved"
	"canopy/views/tree"
)

// collectionView is the view of a folder's collection node: the kind's
// table of that folder's own members (nil for a collection of another
// scope, such as a feed's).
func (e *env) collectionView(k *kind, n *tree.Node) *saved.View {
	if k.command == nil || k.scoped != nil || !keptInFolders(k) || n.Parent == nil || n.Parent.Kind == nil || !n.Parent.Kind.Group {
		return nil
	}
	return &saved.View{Of: k.command.Name, Folder: e.folderPathOf(n.Parent)}
}

// folderPathOf is a folder node's path for a view ("apps/web"), "/" for
// the organization.
func (e *env) folderPathOf(n *tree.Node) string {
	if n.Parent == nil || n.ID == e.org.UID {
		return "/"
	}
	return placeOf(n)
}

// keptInFolders reports whether a kind's resources live in folders and its
// `:` table lists the organization's (so a folder's are a part of it).
func keptInFolders(k *kind) bool { return k.folder != nil && k.inFolder != nil && k.table != nil }

// checkFolderView says what is wrong with a view's folder: a kind that is
// not kept in folders, or a place named twice.
func checkFolderView(k *kind, v saved.View) error {
	switch {
	case v.Folder == "":
		return nil
	case !keptInFolders(k):
		return fmt.Errorf("folder: %s are not kept in folders", k.nouns)
	case v.In != "":
		return fmt.Errorf("folder: and in: both say where: keep one")
	}
	return nil
}

// folderScope is what a view's folder lists: its title and options, the
// folder found by its path, one listing per part of it.
func (e *env) folderScope(ctx context.Context, k *kind, v saved.View) (safe.Text, api.ListOptions, error) {
	uid, err := folderAt(ctx, e.client, e.org.UID, saved.FolderParts(v.Folder))
	if err != nil {
		return "", api.ListOptions{}, err
	}
	where := strings.Trim(v.Folder, "/")
	if where == "" {
		where = e.org.Name
	}
	if v.Below {
		return safe.Of(k.nouns + " under " + where), api.ListOptions{DescendantsOf: uid}, nil
	}
	return safe.Of(k.nouns + " of " + where), api.ListOptions{ChildrenOf: uid}, nil
}

// folderAt is the uid of the folder at a path below the organization
// (parts, top first; none: the organization itself).
func folderAt(ctx context.Context, c *api.Client, org string, parts []string) (string, error) {
	uid, path := org, ""
	for _, name := range parts {
		path = strings.TrimPrefix(path+"/"+name, "/")
		// Every page: a server that ignores the name filter answers all
		// the folders, which the client keeps to the name.
		groups, _, err := listUpTo(ctx, c.ListGroups, api.ListOptions{ChildrenOf: uid, Name: name}, api.GroupKey, maxOverviewFolders)
		if err != nil {
			return "", fmt.Errorf("look up the folder %s: %w", safe.String(path), err)
		}
		var found []string
		for _, g := range groups {
			if g.Name == name {
				found = append(found, g.UID)
			}
		}
		switch {
		case len(found) == 0:
			return "", fmt.Errorf("no folder %s in the organization", safe.String(path))
		case len(found) > 1:
			return "", fmt.Errorf("%d folders are at %s", len(found), safe.String(path))
		}
		uid = found[0]
	}
	return uid, nil
}
