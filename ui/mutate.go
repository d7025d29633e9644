package ui

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/views"
	"canopy/views/bind"
	"canopy/views/dialog"
	"canopy/views/form"
	"canopy/views/safe"
	"canopy/views/tree"
)

// Patterns of API.md for create forms, checked as the user types.
var (
	identityNameRE = regexp.MustCompile(`^[a-z0-9 ._-]{1,63}$`)
	repoNameRE     = regexp.MustCompile(`^[a-z0-9][a-z0-9._/-]{0,127}$`)
	tagNameRE      = regexp.MustCompile(`^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$`)
	digestRE       = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
)

func matching(re *regexp.Regexp, what string) func(string) error {
	return func(s string) error {
		if !re.MatchString(s) {
			return fmt.Errorf("%s (%s)", what, re.String())
		}
		return nil
	}
}

func httpsSink(s string) error {
	if !httpsURL.MatchString(s) {
		return fmt.Errorf("an https:// URL")
	}
	return nil
}

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
	switch kind {
	case tree.KindFolder:
		collection = "folders"
		cfg = form.Config{Title: "New folder in " + parentName, Fields: []form.Field{
			{Key: "name", Label: "name", Validate: nonEmpty},
			{Key: "description", Label: "description", Validate: description},
		}, Submit: func(ctx context.Context, v map[string]string) (any, error) {
			return c.CreateGroup(ctx, parent, api.Group{Name: v["name"], Description: v["description"]})
		}}
	case tree.KindRepo:
		collection = "repos:" + parent
		cfg = form.Config{Title: "New repo in " + parentName, Fields: []form.Field{
			{Key: "name", Label: "name", Validate: matching(repoNameRE, "lower-case letters, digits, . _ - /")},
			{Key: "description", Label: "description", Validate: description},
			{Key: "catalogTier", Label: "tier", Choices: tiers()},
		}, Submit: func(ctx context.Context, v map[string]string) (any, error) {
			return c.CreateRepo(ctx, parent, api.Repo{Name: v["name"], Description: v["description"], CatalogTier: v["catalogTier"]})
		}}
	case tree.KindIdentity:
		collection = "identities:" + parent
		cfg = form.Config{Title: "New identity in " + parentName, Fields: []form.Field{
			{Key: "name", Label: "name", Validate: matching(identityNameRE, "1 to 63 of a-z 0-9 space . _ -")},
			{Key: "description", Label: "description", Validate: description},
			{Key: "claimMatch.issuer", Label: "issuer", Placeholder: "https://token.actions.githubusercontent.com", Validate: nonEmpty},
			{Key: "claimMatch.subject", Label: "subject", Placeholder: "repo:org/app:ref:refs/heads/main", Validate: nonEmpty},
		}, Submit: func(ctx context.Context, v map[string]string) (any, error) {
			return c.CreateIdentity(ctx, parent, api.Identity{Name: v["name"], Description: v["description"],
				ClaimMatch: &api.ClaimMatch{Issuer: v["claimMatch.issuer"], Subject: v["claimMatch.subject"]}})
		}}
	case tree.KindTag:
		collection = parent
		cfg = form.Config{Title: "New tag in " + parentName, Fields: []form.Field{
			{Key: "name", Label: "name", Validate: matching(tagNameRE, "letters, digits, . _ -")},
			{Key: "digest", Label: "digest", Placeholder: "sha256:…", Validate: matching(digestRE, "sha256: and 64 hex digits")},
		}, Submit: func(ctx context.Context, v map[string]string) (any, error) {
			return c.CreateTag(ctx, parent, v["name"], v["digest"])
		}}
	case tree.KindSubscription:
		collection = "subscriptions:" + parent
		cfg = form.Config{Title: "New subscription in " + parentName, Fields: []form.Field{
			{Key: "sink", Label: "sink", Placeholder: "https://hooks.example.com/canopy", Validate: httpsSink},
		}, Submit: func(ctx context.Context, v map[string]string) (any, error) {
			return c.CreateSubscription(ctx, parent, api.Subscription{Sink: v["sink"]})
		}}
	default:
		return views.Flash("nothing can be created here")
	}
	noun := tree.KindName(kind)
	cfg.Page, cfg.Explain = true, explain
	cfg.Preview = func(map[string]string) string { return "POST " + createPath(kind) + "/" + shortPath(parent) }
	cfg.Done = func(any) tea.Cmd {
		ids := []string{collection, parent}
		return tea.Batch(views.Flash("created a "+noun+" in "+parentName),
			func() tea.Msg { return views.ChangedMsg{IDs: ids} })
	}
	return open(func(ctx context.Context) views.Screen {
		cfg.Ctx = ctx
		return form.New(e.common, cfg)
	})
}

func createPath(kind tree.Kind) string {
	switch kind {
	case tree.KindFolder:
		return "/iam/v2/groups"
	case tree.KindRepo:
		return "/registry/v2/repos"
	case tree.KindIdentity:
		return "/iam/v2/identities"
	case tree.KindTag:
		return "/registry/v2/tags"
	}
	return "/events/v2/subscriptions"
}

// deleteDialog asks before deleting one resource: its name, uid and what
// goes with it; a folder's name must be typed. A refusal shows its
// preconditions and offers to show what is in the way.
func (e *env) deleteDialog(item any, collection string) tea.Cmd {
	if st := e.common.Change(keymap.Delete); !st.Enabled {
		return views.FlashError(st.Reason)
	}
	c := e.client
	var cfg dialog.Config
	var run func(context.Context) error
	var uid, name, noun string
	switch it := item.(type) {
	case *api.Group:
		uid, name, noun = it.UID, it.Name, "folder"
		cfg.Confirm = it.Name
		cfg.Lines = []string{"Only an empty folder can be deleted: no subfolders, repos, identities, role bindings or subscriptions."}
		cfg.Next = func(err error) (string, tea.Cmd) {
			vs := api.PreconditionViolations(err)
			if len(vs) == 0 {
				return "", nil
			}
			var what []string
			for _, v := range vs {
				what = append(what, strings.TrimPrefix(safe.String(v.Description), "group has "))
			}
			return "delete its " + strings.Join(what, ", ") + " first", func() tea.Msg { return gotoMsg{uid: uid} }
		}
		run = func(ctx context.Context) error { return c.DeleteGroup(ctx, uid) }
	case *api.Repo:
		uid, name, noun = it.UID, it.Name, "repo"
		cfg.Lines = []string{"Its tags go with it."}
		run = func(ctx context.Context) error { return c.DeleteRepo(ctx, uid) }
	case *api.Identity:
		uid, name, noun = it.UID, it.Name, "identity"
		cfg.Lines = []string{"Workloads whose tokens match its claims can no longer act as it."}
		run = func(ctx context.Context) error { return c.DeleteIdentity(ctx, uid) }
	case *api.Subscription:
		uid, name, noun = it.UID, it.Sink, "subscription"
		cfg.Lines = []string{"Events stop going to this sink."}
		run = func(ctx context.Context) error { return c.DeleteSubscription(ctx, uid) }
	case *api.Tag:
		uid, name, noun = it.UID, it.Name, "tag"
		run = func(ctx context.Context) error { return c.DeleteTag(ctx, uid) }
	case *api.RoleBinding:
		uid, name, noun = it.UID, bindingLabel(it), "role binding"
		run = func(ctx context.Context) error { return c.DeleteRoleBinding(ctx, uid) }
	default:
		return views.Flash("this cannot be deleted here")
	}
	cfg.ID = "delete:" + uid
	cfg.Title = "Delete " + noun + " " + safe.String(name) + "?"
	cfg.Lines = append([]string{"uid " + safe.String(uid)}, cfg.Lines...)
	cfg.Verb, cfg.Outcome = "delete", outcome
	cfg.Items = []dialog.Item{{Key: uid, Label: noun + " " + safe.String(name), Run: run}}
	return open(func(ctx context.Context) views.Screen { return dialog.New(ctx, e.common, cfg) })
}

// afterDelete tells the screens a delete went through: the rows go, and
// the collections of the parent group load again.
func afterDelete(msg dialog.DoneMsg) tea.Cmd {
	if len(msg.Done) == 0 {
		return nil
	}
	var ids []string
	for _, uid := range msg.Done {
		p := api.ParentUID(uid)
		ids = append(ids, uid, p)
		for _, k := range []tree.Kind{tree.KindRepos, tree.KindIdentities, tree.KindSubscriptions, tree.KindBindings} {
			ids = append(ids, tree.KindName(k)+":"+p)
		}
	}
	done := msg.Done
	return tea.Batch(func() tea.Msg { return views.DeletedMsg{UIDs: done} },
		func() tea.Msg { return views.ChangedMsg{IDs: ids} })
}

// createIn is `n` on a tree node: what it holds gets a new member.
func (e *env) createIn(n *tree.Node) tea.Cmd {
	group, groupName := "", ""
	if n.Parent != nil {
		group, groupName = n.Parent.ID, n.Parent.Label
	}
	switch n.Kind {
	case tree.KindFolder, tree.KindOrg:
		return e.createForm(tree.KindFolder, n.ID, n.Label)
	case tree.KindRepos:
		return e.createForm(tree.KindRepo, group, groupName)
	case tree.KindRepo:
		return e.createForm(tree.KindTag, n.ID, n.Label)
	case tree.KindIdentities:
		return e.createForm(tree.KindIdentity, group, groupName)
	case tree.KindSubscriptions:
		return e.createForm(tree.KindSubscription, group, groupName)
	case tree.KindBindings:
		return e.bindFlow(nil, nil, &bind.Choice{UID: group, Name: groupName})
	}
	return nil
}

// deleteOne deletes a resource (for rows deleted together).
func (e *env) deleteOne(ctx context.Context, item any) error {
	c := e.client
	switch it := item.(type) {
	case *api.Repo:
		return c.DeleteRepo(ctx, it.UID)
	case *api.Identity:
		return c.DeleteIdentity(ctx, it.UID)
	case *api.Subscription:
		return c.DeleteSubscription(ctx, it.UID)
	case *api.Tag:
		return c.DeleteTag(ctx, it.UID)
	case *api.Group:
		return c.DeleteGroup(ctx, it.UID)
	}
	return fmt.Errorf("cannot delete a %T", item)
}
