package cli

import (
	"context"
	"fmt"

	"canopy/api"
	"canopy/views"
	"canopy/views/columns"
)

// documents are the advisory documents, one package's with --repo, as
// :documents shows them. The service answers every document at once:
// when it answered more than canopy reads of one answer (or more than
// --max-items), what was read is printed and the listing fails, saying so.
func (r listRequest) documents(ctx context.Context, common views.Common) error {
	docs, err := r.client.ListDocuments(ctx, api.DocumentFilter{Package: r.repo})
	if err != nil {
		return fmt.Errorf("list %s: %w", r.nouns, err)
	}
	items, cut := docs.Items, docs.Cut
	if len(items) > r.maxItems {
		items, cut = items[:r.maxItems], true
	}
	if err := printItems(ctx, r, items, columns.Documents(common)); err != nil {
		return err
	}
	if cut {
		return fmt.Errorf("stopped after %d %s, the most canopy list reads of one answer: --repo names one package", len(items), r.nouns)
	}
	return nil
}

// vulnerabilities are the metadata of every vulnerability id, by id, as
// :vulnerabilities starts.
func (r listRequest) vulnerabilities(ctx context.Context, common views.Common) error {
	return printCollection(ctx, r, r.nouns, r.client.ListVulnerabilityMetadata, api.VulnerabilityKey,
		api.ListOptions{OrderBy: first(columns.VulnerabilityOrders())}, columns.Vulnerabilities(common))
}
