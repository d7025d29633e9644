package ui

import (
	"context"
	"strconv"
	"strings"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/views"
	"canopy/views/bind"
	"canopy/views/form"
	"canopy/views/safe"
	"canopy/views/tree"
)

// gotoMsg asks the shell to show a uid in the tree.
type gotoMsg struct{ uid string }

// createForm opens the create form of a collection: kind is what the
// collection holds, parent the group (or repo, for tags) it goes in.
func (e *env) createForm(kind tree.Kind, parent, parentName string) tea.Cmd {
	if st := e.common.Change(keymap.New); !st.Enabled {
		return views.FlashError(st.Reason)
	}
	c := e.client
	var cfg form.Config
	var collection string
	var sends api.Request // what the form sends, for its preview
	switch kind {
	case tree.KindFolder:
		collection, sends = parent, api.Groups.Create(parent)
		cfg = form.Config{Fields: []form.Field{
			{Key: "name", Label: "name", Validate: groupName, Max: api.GroupNameMax},
			{Key: "description", Label: "description", Validate: description, Max: api.DescriptionMax},
		}, Submit: func(ctx context.Context, v map[string]string) (any, error) {
			return c.CreateGroup(ctx, parent, api.Group{Name: v["name"], Description: v["description"]})
		}}
	case tree.KindRepo:
		collection, sends = "repos:"+parent, api.Repos.Create(parent)
		cfg = form.Config{Fields: []form.Field{
			{Key: "name", Label: "name", Validate: matching(api.RepoName, "lower-case letters, digits, . _ - /, at most 128"), Max: api.RepoName.Max()},
			{Key: "description", Label: "description", Validate: description, Max: api.DescriptionMax},
			{Key: "catalogTier", Label: "tier", Choices: tiers(), ChoiceLabel: tierLabel},
		}, Submit: func(ctx context.Context, v map[string]string) (any, error) {
			return c.CreateRepo(ctx, parent, api.Repo{Name: v["name"], Description: v["description"], CatalogTier: v["catalogTier"]})
		}}
	case tree.KindIdentity:
		collection, sends = "identities:"+parent, api.Identities.Create(parent)
		cfg = form.Config{Fields: []form.Field{
			{Key: "name", Label: "name", Validate: matching(api.IdentityName, "3 to 63 of a-z 0-9 space . _ -"), Max: api.IdentityName.Max()},
			{Key: "description", Label: "description", Validate: description, Max: api.DescriptionMax},
			{Key: "claimMatch.issuer", Label: "issuer", Placeholder: "https://token.actions.githubusercontent.com", Validate: issuerURL},
			{Key: "claimMatch.subject", Label: "subject", Placeholder: "repo:org/app:ref:refs/heads/main", Validate: required},
		}, Submit: func(ctx context.Context, v map[string]string) (any, error) {
			return c.CreateIdentity(ctx, parent, api.Identity{Name: v["name"], Description: v["description"],
				ClaimMatch: &api.ClaimMatch{Issuer: v["claimMatch.issuer"], Subject: v["claimMatch.subject"]}})
		}}
	case tree.KindTag:
		return e.tagForm(parent, parentName)
	case tree.KindSubscription:
		collection, sends = "subscriptions:"+parent, api.Subscriptions.Create(parent)
		cfg = form.Config{Fields: []form.Field{
			{Key: "sink", Label: "sink", Placeholder: "https://hooks.example.com/canopy", Validate: sinkURL},
		}, Submit: func(ctx context.Context, v map[string]string) (any, error) {
			return c.CreateSubscription(ctx, parent, api.Subscription{Sink: v["sink"]})
		}}
	default:
		return views.Flash("nothing can be created here")
	}
	noun := tree.KindName(kind)
	cfg.Title = "New " + noun + " in " + parentName
	cfg.Page, cfg.Explain = true, e.explain
	cfg.Preview = func(map[string]string) string { return sends.Short() }
	submit := cfg.Submit
	// The note of the create last sent, for its lookup to settle.
	var sent atomic.Pointer[api.Note]
	cfg.Submit = func(ctx context.Context, v map[string]string) (any, error) {
		name := v["name"]
		if kind == tree.KindSubscription {
			name = v["sink"]
		}
		n := &api.Note{What: "new " + noun + " " + strconv.Quote(name) + " in " + parentName}
		sent.Store(n)
		res, err := submit(api.WithNote(ctx, n), v)
		if err == nil {
			e.changes.answered(n, res)
		}
		return res, err
	}
	cfg.Lost = api.MaybeMade
	cfg.Check = func(ctx context.Context, v map[string]string) (form.Found, error) {
		res, err := e.findCreated(ctx, kind, parent, v)
		return e.createdFound(sent.Load(), res, err)
	}
	cfg.Done = func(result any) tea.Cmd {
		result, lost := unlost(result)
		ids := []string{collection, parent}
		_, uid, _ := deletionOf(result)
		return tea.Batch(views.Flash(afterLoss(lost)+"created "+noun+" "+strconv.Quote(safe.String(createdName(result)))+" in "+parentName),
			func() tea.Msg { return views.ChangedMsg{IDs: ids, Focus: uid} })
	}
	return e.open(func(ctx context.Context) views.Screen {
		cfg.Ctx = ctx
		return form.New(e.common, cfg)
	})
}

// findCreated looks up what a create of kind under parent with values v
// left: nil when the server does not have it.
func (e *env) findCreated(ctx context.Context, kind tree.Kind, parent string, v map[string]string) (any, error) {
	c := e.client
	switch kind {
	case tree.KindFolder:
		return found(c.FindGroup(ctx, parent, v["name"]))
	case tree.KindRepo:
		return found(c.FindRepo(ctx, parent, v["name"]))
	case tree.KindIdentity:
		return found(c.FindIdentity(ctx, parent, v["name"]))
	}
	return found(c.FindSubscription(ctx, parent, v["sink"]))
}

// createdName is the name of what the server created.
func createdName(result any) string {
	switch it := result.(type) {
	case *api.Group:
		return it.Name
	case *api.Repo:
		return it.Name
	case *api.Identity:
		return it.Name
	case *api.Tag:
		return it.Name
	case *api.Subscription:
		return it.Sink
	}
	return "?"
}

// afterDelete tells the screens a delete went through: the rows and
// nodes go (the collections that held them count one less), and what
// else changed with them loads again (an identity's bindings, the
// bindings shown in an identity's detail).
func afterDelete(msg deletedMsg) tea.Cmd {
	ids := []string{changesID}
	for _, uid := range msg.settled.Done {
		ids = append(ids, msg.related[uid]...)
	}
	done := msg.settled.Done
	return tea.Batch(func() tea.Msg { return views.DeletedMsg{UIDs: done} },
		func() tea.Msg { return views.ChangedMsg{IDs: ids} })
}

// createIn is `n` on a tree node: what it holds gets a new member.
func (e *env) createIn(n *tree.Node) tea.Cmd {
	group, groupName := "", ""
	if n.Parent != nil {
		group, groupName = n.Parent.ID, placeOf(n.Parent)
	}
	switch n.Kind {
	case tree.KindFolder, tree.KindOrg:
		return e.createForm(tree.KindFolder, n.ID, placeOf(n))
	case tree.KindRepos:
		return e.createForm(tree.KindRepo, group, groupName)
	case tree.KindRepo:
		return e.createForm(tree.KindTag, n.ID, n.Label)
	case tree.KindIdentities:
		return e.createForm(tree.KindIdentity, group, groupName)
	case tree.KindSubscriptions:
		return e.createForm(tree.KindSubscription, group, groupName)
	case tree.KindBindings:
		return e.bindFlow(nil, nil, &bind.Choice{UID: group, Name: n.Parent.Label})
	}
	return nil
}

// placeOf names a folder node by its path under the organization
// ("apps/web"); the organization by its name.
func placeOf(n *tree.Node) string {
	var parts []string
	for p := n; p != nil; p = p.Parent {
		if p.Kind == tree.KindFolder {
			parts = append([]string{p.Label}, parts...)
		}
	}
	if len(parts) == 0 {
		return n.Label
	}
	return strings.Join(parts, "/")
}
