package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"canopy/keymap"
	"canopy/theme"
	"canopy/views"
	"canopy/views/detail"
	"canopy/views/paging"
	"canopy/views/tree"
)

// A feed waiting for the organization's first page (the tree asks for it
// after) reads as loading in the detail pane, as its row does, not as
// "not loaded yet".
func TestAQueuedFeedsSummaryIsLoading(t *testing.T) {
	never := func(ctx context.Context, _ paging.Request) (paging.Result[*tree.Node], error) {
		<-ctx.Done()
		return paging.Result[*tree.Node]{}, ctx.Err()
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	org := &tree.Node{ID: "org", Kind: &tree.Kind{Name: "organization", Group: true}, Label: "acme"}
	org.Children = paging.New(ctx, never, tree.NodeKey)
	feed := &tree.Node{ID: "advisories:", Kind: &tree.Kind{Name: "advisories", Collection: true}, Label: "advisories"}
	feed.Children = paging.New(ctx, never, tree.NodeKey)
	common := views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}
	m := tree.New(common, tree.Config{Roots: []*tree.Node{org, feed}})
	m.Init() // the organization's first page never comes
	d := detail.New(ctx, common, detail.Fetch{})
	d.SetSize(60, 12)
	d.Show(detailItem(feed, common))
	if s := ansi.Strip(d.View()); !strings.Contains(s, "loading") || strings.Contains(s, "not loaded yet") {
		t.Errorf("the queued feed's summary:\n%s\nwant its total loading", s)
	}
}
