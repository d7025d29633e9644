package ui

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/views"
	"canopy/views/dialog"
	"canopy/views/safe"
	"canopy/views/text"
	"canopy/views/tree"
)

// doomed is a resource to delete and the name the user knows it by (a
// tag's "repo:tag").
type doomed struct {
	item any
	name string
}

// deletion is what deleting one kind of resource means: its nouns, the
// request, and how to ask whether the server still has one.
type deletion struct {
	one, many string // "repo", "repos"
	run       func(ctx context.Context, c *api.Client, uid string) error
	get       func(ctx context.Context, c *api.Client, uid string) error
}

// getting asks for one resource, keeping only whether that worked.
func getting[T any](get func(*api.Client, context.Context, string) (*T, error)) func(context.Context, *api.Client, string) error {
	return func(ctx context.Context, c *api.Client, uid string) error {
		_, err := get(c, ctx, uid)
		return err
	}
}

func deletionOf(item any) (deletion, string, bool) {
	switch it := item.(type) {
	case *api.Group:
		return deletion{"folder", "folders", func(ctx context.Context, c *api.Client, uid string) error {
			return c.DeleteGroup(ctx, uid)
		}, getting((*api.Client).GetGroup)}, it.UID, true
	case *api.Repo:
		return deletion{"repo", "repos", func(ctx context.Context, c *api.Client, uid string) error {
			return c.DeleteRepo(ctx, uid)
		}, getting((*api.Client).GetRepo)}, it.UID, true
	case *api.Identity:
		return deletion{"identity", "identities", func(ctx context.Context, c *api.Client, uid string) error {
			return c.DeleteIdentity(ctx, uid)
		}, getting((*api.Client).GetIdentity)}, it.UID, true
	case *api.Subscription:
		return deletion{"subscription", "subscriptions", func(ctx context.Context, c *api.Client, uid string) error {
			return c.DeleteSubscription(ctx, uid)
		}, getting((*api.Client).GetSubscription)}, it.UID, true
	case *api.Tag:
		return deletion{"tag", "tags", func(ctx context.Context, c *api.Client, uid string) error {
			return c.DeleteTag(ctx, uid)
		}, getting((*api.Client).GetTag)}, it.UID, true
	case *api.RoleBinding:
		return deletion{"role binding", "role bindings", func(ctx context.Context, c *api.Client, uid string) error {
			return c.DeleteRoleBinding(ctx, uid)
		}, getting((*api.Client).GetRoleBinding)}, it.UID, true
	}
	return deletion{}, "", false
}

// goWith says what goes with one resource or several: "Its 3 tags go
// with it: …", "Its 1 tag goes with it: …", "It has no tags."
func goWith(n api.Count, many bool, one, more, then string) string {
	its, it, has := "Its ", "it", "It has"
	if many {
		its, it, has = "Their ", "them", "They have"
	}
	switch {
	case n.N == 0 && n.Exact:
		return has + " no " + more + ": nothing else goes with " + it + "."
	case n.N == 1 && n.Exact:
		return its + "1 " + one + " goes with " + it + then
	case !n.Exact:
		return "At least " + text.Count(int(n.N)) + " " + more + " go with " + it + then
	}
	return its + countText(n) + " " + more + " go with " + it + then
}

// counted is "1 tag", "3 tags", "no tags", "400+ tags".
func counted(n api.Count, one, many string) string {
	switch {
	case n.N == 0 && n.Exact:
		return "no " + many
	case n.N == 1 && n.Exact:
		return "1 " + one
	}
	return countText(n) + " " + many
}

// countText is a count with its thousands marked, "+" when it is a lower
// bound (the server gave no total and not every page was read).
func countText(n api.Count) string {
	if n.Exact {
		return text.Count(int(n.N))
	}
	return text.Count(int(n.N)) + "+"
}

// deletedMsg is what a delete dialog did. The shell tells every screen
// (the rows and nodes go, what changed with them loads again); the screen
// that asked hears its own message first.
type deletedMsg struct {
	settled dialog.Settled
	// related are the ids that change when each uid goes (see relatedTo),
	// as the dialog was opened: they travel with its answer, so a dialog
	// cancelled leaves nothing behind.
	related map[string][]string
	owner   tea.Msg // the asking screen's message; nil: none
}

// askDelete asks before deleting resources of one kind (one or many): it
// names each with its uid and says what goes with them; folders need
// their name typed. done, when set, makes the message the screen that
// asked gets once the dialog closes.
func (e *env) askDelete(items []doomed, done func(dialog.Settled) tea.Msg) tea.Cmd {
	if st := e.common.Change(keymap.Delete); !st.Enabled {
		return views.FlashError(st.Reason)
	}
	if len(items) == 0 {
		return views.Flash("nothing to delete here")
	}
	d, _, ok := deletionOf(items[0].item)
	if !ok {
		return views.Flash("this cannot be deleted here")
	}
	related := map[string][]string{}
	cfg := dialog.Config{Verb: "delete", Outcome: e.outcomeOf("deleted"), Done: func(s dialog.Settled) tea.Msg {
		msg := deletedMsg{settled: s, related: related}
		if done != nil {
			msg.owner = done(s)
		}
		return msg
	}}
	for _, it := range items {
		kind, uid, ok := deletionOf(it.item)
		if !ok || kind.one != d.one {
			return views.FlashError("these rows cannot be deleted together")
		}
		label := d.one + " " + safe.String(it.name)
		if len(items) > 1 {
			label += "  " + safe.String(uid)
		}
		related[uid] = relatedTo(it.item)
		name := it.name
		cfg.Items = append(cfg.Items, dialog.Item{Key: uid, Label: label, Run: func(ctx context.Context) (any, error) {
			n := &api.Note{What: d.one + " " + strconv.Quote(name)}
			return nil, e.deleteOne(api.WithNote(ctx, n), n, kind, uid)
		}})
	}
	if len(items) == 1 {
		_, uid, _ := deletionOf(items[0].item)
		cfg.Title = "Delete " + d.one + " " + safe.String(items[0].name) + "?"
		cfg.Lines = []string{"uid " + safe.String(uid)}
	} else {
		cfg.Title = "Delete " + counted(api.Count{N: int64(len(items)), Exact: true}, d.one, d.many) + "?"
	}
	e.whatIsLost(&cfg, items)
	return e.open(func(ctx context.Context) views.Screen { return dialog.New(ctx, e.common, cfg) })
}

// whatIsLost says what goes with the resources, counting it with one
// small request each where the count is not known, and sets what must be
// typed for folders.
func (e *env) whatIsLost(cfg *dialog.Config, items []doomed) {
	many := len(items) > 1
	c := e.client
	switch it := items[0].item.(type) {
	case *api.Group:
		e.folderConfirm(cfg, items)
		names := map[string]string{}
		for _, d := range items {
			g := d.item.(*api.Group)
			names[g.UID] = safe.String(g.Name)
		}
		cfg.Next = e.blockedNext(names)
		if many {
			cfg.Lines = append(cfg.Lines, "Each goes for good, with its name, description and place in the hierarchy.",
				"The server deletes only empty folders: no subfolders, repos, identities, role bindings, subscriptions or custom roles.")
			break
		}
		cfg.Lines = append(cfg.Lines, "The folder goes for good, with its name, description and place in the hierarchy.")
		uid := it.UID
		cfg.Facts = func(ctx context.Context) ([]string, error) { return e.folderContents(ctx, uid) }
	case *api.Repo:
		uids := uidsOf(items)
		cfg.Facts = func(ctx context.Context) ([]string, error) {
			n, err := sum(ctx, uids, func(ctx context.Context, uid string) (api.Count, error) {
				return total(ctx, c.ListTags, api.ListOptions{ChildrenOf: uid,
					IncludeReferrers: true, IncludeEpochs: true, IncludeDates: true})
			})
			if err != nil {
				return nil, fmt.Errorf("count tags: %w", err)
			}
			return []string{goWith(n, many, "tag", "tags", ": pulls by any of their names stop working.")}, nil
		}
	case *api.Identity:
		uids := uidsOf(items)
		cfg.Facts = func(ctx context.Context) ([]string, error) {
			n, err := sum(ctx, uids, func(ctx context.Context, uid string) (api.Count, error) {
				return total(ctx, c.ListRoleBindings, api.ListOptions{Identity: uid})
			})
			if err != nil {
				return nil, fmt.Errorf("count role bindings: %w", err)
			}
			return []string{goWith(n, many, "role binding", "role bindings", ": what they grant ends.")}, nil
		}
		cfg.Lines = append(cfg.Lines, "Workloads whose tokens match their claims can no longer act as them.")
		if !many {
			cfg.Lines[len(cfg.Lines)-1] = "Workloads whose tokens match its claims can no longer act as it."
		}
	case *api.Subscription:
		if many {
			cfg.Lines = append(cfg.Lines, "Events stop going to these sinks.")
		} else {
			cfg.Lines = append(cfg.Lines, "Events stop going to "+safe.String(it.Sink)+".")
		}
	case *api.Tag:
		if many {
			cfg.Lines = append(cfg.Lines, "Pulls by these tag names stop working; the images stay, reachable by digest or by other tags.")
		} else {
			cfg.Lines = append(cfg.Lines, "Pulls by the name "+safe.String(it.Name)+" stop working; the image "+
				safe.String(text.Short(it.Digest, 19))+" stays, reachable by digest or by other tags.")
		}
	case *api.RoleBinding:
		if many {
			cfg.Lines = append(cfg.Lines, "Each identity loses that role on that folder (and below it), unless another binding grants it.")
		} else {
			cfg.Lines = append(cfg.Lines, bindingLoss(it))
		}
	}
}

// nodeName is how the user knows a tree node's resource: its name, a
// tag's "repo:tag".
func nodeName(n *tree.Node) string {
	switch it := n.Item.(type) {
	case *api.Group:
		return it.Name
	case *api.Repo:
		return it.Name
	case *api.Identity:
		return it.Name
	case *api.Subscription:
		return it.Sink
	case *api.RoleBinding:
		return bindingLabel(it)
	case *api.Tag:
		if n.Parent != nil {
			if r, ok := n.Parent.Item.(*api.Repo); ok {
				return r.Name + ":" + it.Name
			}
		}
		return it.Name
	}
	return n.Label
}

// relatedTo are the ids that change when item is deleted, beside its own
// row: an identity's bindings go with it; a binding shows in its
// identity's detail.
func relatedTo(item any) []string {
	switch it := item.(type) {
	case *api.Identity:
		return []string{"role bindings:" + api.ParentUID(it.UID)}
	case *api.RoleBinding:
		if it.Identity != nil {
			return []string{it.Identity.UID}
		}
	}
	return nil
}

// bindingLoss is "carol loses viewer on platform (and below it)".
func bindingLoss(b *api.RoleBinding) string {
	role, who, group := bindingNames(b)
	return who + " loses " + role + " on " + group + " (and below it), unless another binding grants it."
}

// folderConfirm sets what must be typed to delete folders: the name of
// one (or, when a name cannot be typed, the last part of its uid), or the
// number of folders.
func (e *env) folderConfirm(cfg *dialog.Config, items []doomed) {
	if len(items) > 1 {
		cfg.Confirm = strconv.Itoa(len(items)) + " folders"
		cfg.ConfirmWhat = "how many folders go"
		return
	}
	g := items[0].item.(*api.Group)
	if g.Name != "" && safe.String(g.Name) == g.Name && strings.TrimSpace(g.Name) == g.Name {
		cfg.Confirm = g.Name
		return
	}
	uid := g.UID
	if i := strings.LastIndex(uid, "/"); i >= 0 {
		uid = uid[i+1:]
	}
	cfg.Confirm = uid
	cfg.ConfirmWhat = "the last part of its uid (its name cannot be typed)"
}

func uidsOf(items []doomed) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		_, uid, _ := deletionOf(it.item)
		out = append(out, uid)
	}
	return out
}

// countPages bounds the pages read to count a collection whose server
// gives no totals: past it the count says "at least".
const countPages = 5

// total counts a collection (see api.CountItems).
func total[T any](ctx context.Context, list api.Lister[T], o api.ListOptions) (api.Count, error) {
	return api.CountItems(ctx, list, o, countPages)
}

// countParallel bounds the small requests that count what goes with
// several resources.
const countParallel = 4

// countMax is how many resources' contents are counted: beyond, the
// dialog says what goes in words only.
const countMax = 50

// sum adds count over uids, a few requests at a time.
func sum(ctx context.Context, uids []string, count func(context.Context, string) (api.Count, error)) (api.Count, error) {
	if len(uids) > countMax {
		return api.Count{}, fmt.Errorf("more than %d to count", countMax)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	n, sem := api.Count{Exact: true}, make(chan struct{}, countParallel)
	var first error
	for _, uid := range uids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			c, err := count(ctx, uid)
			mu.Lock()
			defer mu.Unlock()
			n.N += c.N
			n.Exact = n.Exact && c.Exact
			if err != nil && first == nil {
				first = err
			}
		}()
	}
	wg.Wait()
	return n, first
}
