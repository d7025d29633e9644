package cli

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
func pickOrg(ctx context.Context, c *api.Client, org string, maxItems int) (*api.Group, error) {
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
	_, err := pages(ctx, "organizations", c.ListGroups, api.GroupKey, api.ListOptions{InRoot: true}, maxItems, func(gs []api.Group) error {
		for _, g := range gs {
			if org == "" || g.Name == org {
				found = &g
			}
			names = append(names, fmt.Sprintf("%s (%s)", g.Name, g.UID))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list organizations: %w", err)
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

// checkOrgBeside runs pickOrg for an organization given by uid while the
// listing's first pages are read (a page of the organization's tags needs
// its uid only): the listing waits for the check before it prints a row,
// or its end (printWalk), so that an organization that is not there is the
// same failure, with nothing printed, as when it was checked first, and
// the first row comes a request sooner. wait returns the check's error as
// an orgError.
func checkOrgBeside(ctx context.Context, c *api.Client, uid string) (wait func(context.Context) error) {
	done := make(chan struct{})
	var err error // written before done is closed, read after
	go func() {
		defer close(done)
		if _, e := pickOrg(ctx, c, uid, defaultMaxItems); e != nil {
			err = orgError{e}
		}
	}()
	return func(ctx context.Context) error {
		select {
		case <-done:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// orgError is the organization's check failing: canopy list says it as
// "finding the organization", as when it checks before listing.
type orgError struct{ error }

func (e orgError) Unwrap() error { return e.error }

// folderPaths resolves the FOLDER column as the UI does (ui/names.go): a
// group's path below the organization ("platform/base-images"), the
// organization's own name for itself, "" for a group it was not told of
// (the column then shows a short uid). It reads only the names given,
// which are filled before any row is printed and never written after.
func folderPaths(org *api.Group, names map[string]string) func() func(string) string {
	resolve := func(uid string) string {
		if uid == org.UID {
			return org.Name
		}
		var parts []string
		for u := uid; u != "" && u != org.UID; u = api.ParentUID(u) {
			name, ok := names[u]
			if !ok {
				return ""
			}
			parts = append([]string{name}, parts...)
		}
		return strings.Join(parts, "/")
	}
	return func() func(string) string { return resolve }
}

// folderNames lists every folder below the organization once, for the
// FOLDER column of the tables that span folders.
func folderNames(ctx context.Context, c *api.Client, org string, maxItems int) (map[string]string, error) {
	names := map[string]string{}
	opts := api.ListOptions{DescendantsOf: org, PageSize: api.MaxPageSize}
	_, err := pages(ctx, "folders", c.ListGroups, api.GroupKey, opts, maxItems, func(gs []api.Group) error {
		for _, g := range gs {
			names[g.UID] = g.Name
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list folders for the FOLDER column: %w", err)
	}
	return names, nil
}
