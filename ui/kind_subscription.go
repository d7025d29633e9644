package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/resource"
	"canopy/safe"
	"canopy/views"
	"canopy/views/columns"
	"canopy/views/detail"
	"canopy/views/dialog"
	"canopy/views/form"
	"canopy/views/paging"
	"canopy/views/table"
	"canopy/views/tree"
)

// subscriptionKind: where a folder's events are sent. It has no name: the
// user knows it by its sink.
type subscriptionKind struct{ is[api.Subscription] }

func (subscriptionKind) of() string { return resource.Subscription }
func (subscriptionKind) shape() shape {
	return shape{list: colSubscriptions, node: true, collection: true}
}
func (subscriptionKind) page(*env) detail.Page { return detail.SubscriptionPage() }
func (subscriptionKind) inFolder(b builder, parent *tree.Node, group string) *tree.Node {
	return subscriptionNodes(b, parent, group)
}
func (subscriptionKind) label(s *api.Subscription) string  { return s.Sink }
func (subscriptionKind) folder(s *api.Subscription) string { return api.ParentUID(s.UID) }
func (subscriptionKind) whole(e *env) (safe.Text, api.ListOptions) {
	return "subscriptions of " + safe.Of(e.org.Name), api.ListOptions{DescendantsOf: e.org.UID}
}
func (subscriptionKind) table(e *env, ctx context.Context, title safe.Text, o api.ListOptions) views.Screen {
	return subscriptionsTable(e, ctx, title, o)
}
func (subscriptionKind) create(e *env, parent, parentName string) tea.Cmd {
	return newSubscription(e, parent, parentName)
}
func (subscriptionKind) del(c *api.Client, ctx context.Context, uid string) error {
	return c.DeleteSubscription(ctx, uid)
}
func (subscriptionKind) get(c *api.Client, ctx context.Context, uid string) (*api.Subscription, error) {
	return c.GetSubscription(ctx, uid)
}
func (subscriptionKind) lost(_ *env, cfg *dialog.Config, subs []*api.Subscription) {
	if len(subs) > 1 {
		cfg.Lines = append(cfg.Lines, "Events stop going to these sinks.")
		return
	}
	cfg.Lines = append(cfg.Lines, "Events stop going to "+safe.Of(subs[0].Sink)+".")
}

// newSubscription is the form of a new subscription in a folder.
func newSubscription(e *env, parent, parentName string) tea.Cmd {
	c := e.client
	return e.createForm("subscription", parentName, creation{parent: parent, sends: api.Subscriptions.Create(parent), named: "sink",
		fields: []form.Field{
			{Key: "sink", Label: "sink", Placeholder: "https://hooks.example.com/canopy", Validate: sinkURL},
		},
		submit: func(ctx context.Context, v map[string]string) (any, error) {
			return c.CreateSubscription(ctx, parent, api.Subscription{Sink: v["sink"]})
		},
		find: func(ctx context.Context, v map[string]string) (any, error) {
			return found(c.FindSubscription(ctx, parent, v["sink"]))
		}})
}

func subscriptionsTable(e *env, ctx context.Context, title safe.Text, opts api.ListOptions) views.Screen {
	return table.New(e.common, table.Config[api.Subscription]{Title: title, Columns: columns.SubscriptionsIn(e.common, e.folderColumn(opts)), Refused: e.orders.of(colSubscriptions),
		Loaded: loadedIn(e, opts, api.SubscriptionKey),
		List:   paging.New(ctx, source(e.client.ListSubscriptions, opts), api.SubscriptionKey), Key: api.SubscriptionKey,
		Orders: columns.SubscriptionOrders(), Open: pageOf[api.Subscription](e), Copy: uidCopy(api.SubscriptionKey),
		New:    func() tea.Cmd { return newSubscription(e, scopeOf(opts), whereOf(string(title))) },
		Watch:  kindFor[api.Subscription](e.kinds).watched,
		Delete: rowDelete[api.Subscription](e)})
}

// subscriptionNodes is a folder's subscriptions, by sink.
func subscriptionNodes(b builder, parent *tree.Node, group string) *tree.Node {
	return folderNodes(b, parent, group, b.client.ListSubscriptions, func(s *api.Subscription) (safe.Text, safe.Text) {
		return safe.Of(s.Sink), ""
	})
}
