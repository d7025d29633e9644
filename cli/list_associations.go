package cli

import (
	"context"
	"fmt"

	"canopy/api"
	"canopy/views"
	"canopy/views/columns"
)

// associations are listed as :associations shows them: the organization's
// own first (read by its uid: whether the service counts a folder among
// its own descendants it does not say), then its folders' by path (a
// folder's subfolders right after it), each with its FOLDER (the folder
// it belongs to, whose uid is its uid). An organization has one a folder
// at most: they are read whole, then sorted, in JSON too.
func (r listRequest) associations(ctx context.Context, common views.Common) error {
	// --max-items bounds the rows listed, not what their columns look up.
	names, err := folderNames(ctx, r.client, r.org.UID, defaultMaxItems)
	if err != nil {
		return err
	}
	paths := folderPaths(r.org, names)
	items, err := collect(ctx, r, r.nouns, r.client.AccountAssociationsUnder(), api.AccountAssociationKey,
		r.whole(first(columns.AssociationOrders())))
	if err != nil {
		return err
	}
	columns.ByFolder(items, r.org.UID, paths())
	var folders columns.Folders
	if r.namesShown() {
		folders = columns.Folders(paths)
	}
	return printItems(ctx, r, items, columns.AssociationsIn(common, folders))
}

// terms are the organization's acceptances, newest first as :terms starts,
// each by the name of who accepted it when that is one of its identities
// (read once first; JSON without --filter has what the service said
// only, so needs none).
func (r listRequest) terms(ctx context.Context, common views.Common) error {
	var who columns.Names
	if r.namesShown() {
		names := map[string]string{}
		// --max-items bounds the rows listed, not what their columns look up.
		opts := api.ListOptions{DescendantsOf: r.org.UID, PageSize: api.MaxPageSize}
		_, err := pages(ctx, "identities", r.client.ListIdentities, api.IdentityKey, opts, defaultMaxItems, func(ids []api.Identity) error {
			for i := range ids {
				names[ids[i].UID] = columns.AcceptedBy(&ids[i]) // as :terms names them
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("list identities: %w", err)
		}
		// Filled before the listing and never written after.
		who = func() func(string) string { return func(uid string) string { return names[uid] } }
	}
	return printCollection(ctx, r, r.nouns, r.client.TermsAcceptancesOf(r.org.UID), api.TermsAcceptanceKey,
		api.ListOptions{OrderBy: first(columns.TermsOrders())}, columns.Terms(common, who))
}
