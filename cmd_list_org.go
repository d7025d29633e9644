package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"canopy/api"
)

// pickOrg is the organization to list: the one given (by uid, or by name,
// as people remember it), else the only one the token sees. As in the UI,
// an organization that does not exist or that the token cannot see is a
// failure (exit 1): listing "everything below" a uid nobody has would print
// an empty table and exit 0, which a script cannot tell from an empty
// organization.
func pickOrg(ctx context.Context, c *api.Client, org string) (*api.Group, error) {
	if api.IsGroupUID(org) {
		g, err := c.GetGroup(ctx, org)
		switch {
		case err == nil:
			return g, nil
		case api.IsNotFound(err) || api.IsPermissionDenied(err):
			return nil, fmt.Errorf("no organization %s is visible to this token (it does not exist, or the token has no role on it): %w", org, err)
		}
		return nil, fmt.Errorf("organization %s: %w", org, err)
	}
	var names []string
	var found *api.Group
	for g, err := range api.NewCursor(c.ListGroups, api.ListOptions{InRoot: true}, api.GroupKey).All(ctx) {
		if err != nil {
			return nil, fmt.Errorf("list organizations: %w", err)
		}
		if org == "" || g.Name == org {
			found = &g
		}
		names = append(names, fmt.Sprintf("%s (%s)", g.Name, g.UID))
	}
	switch {
	case len(names) == 0 && org != "":
		return nil, fmt.Errorf("no organization %q: this token sees no organization", org)
	case len(names) == 0:
		return nil, errors.New("this token sees no organization")
	case org != "" && found == nil:
		return nil, fmt.Errorf("no organization %q is visible to this token; it sees %s", org, strings.Join(names, ", "))
	case org != "" || len(names) == 1:
		return found, nil
	}
	return nil, usageError{fmt.Errorf("the token sees %d organizations; choose one with --org or CANOPY_ORG: %s", len(names), strings.Join(names, ", "))}
}
