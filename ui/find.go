package ui

// What the tree's filter names, found on the server (ctrl+s while
// filtering the tree): the filter sees the nodes loaded, the server sees
// everything. Each kind that can be looked up by an exact name (folders,
// repos, identities) or id (advisories) is asked at once; what comes back
// is revealed in the tree, its folders opened and the cursor on it: one at
// once, several through a picker.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/sync/errgroup"

	"canopy/api"
	"canopy/safe"
	"canopy/views"
	"canopy/views/picker"
)

// foundMsg is what a find brought: the resources, the kinds it could not
// look up and why, and the names of the folders they live in.
type foundMsg struct {
	pattern string
	found   []hit
	failed  []string
	names   map[string]string
}

// hit is one resource a find brought, with its kind.
type hit struct {
	k    *kind
	item any
}

// findOnServer asks every kind that can be found for what pattern names.
func (e *env) findOnServer(ctx context.Context, pattern string) tea.Cmd {
	pattern = strings.TrimSpace(pattern)
	if pattern == "" || e.org == nil {
		return nil
	}
	var finders []*kind
	for _, k := range e.kinds.all {
		if k.find != nil {
			finders = append(finders, k)
		}
	}
	c, org, paths := e.client, *e.org, e.folderPaths()
	return tea.Batch(views.Flash("asking the server for "+safe.String(pattern)+"…"), func() tea.Msg {
		msg := foundMsg{pattern: pattern, names: map[string]string{}}
		var mu sync.Mutex
		var g errgroup.Group
		g.SetLimit(len(finders)) // each kind asked at once: a handful, one request each
		for _, k := range finders {
			g.Go(func() error {
				items, err := k.find(ctx, c, org.UID, pattern)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					msg.failed = append(msg.failed, err.Error())
				}
				for _, it := range items {
					msg.found = append(msg.found, hit{k: k, item: it})
				}
				return nil // a kind that failed is named above; the others are shown
			})
		}
		_ = g.Wait()
		slices.Sort(msg.failed) // what is found is put in order where it is shown
		// The folders they live in, by name: those not known yet are read.
		var need []string
		for _, f := range msg.found {
			if folder := f.k.folder(f.item); folder != "" && paths(folder) == "" {
				for u := folder; u != "" && u != org.UID; u = api.ParentUID(u) {
					if !slices.Contains(need, u) {
						need = append(need, u)
					}
				}
			}
		}
		if _, err := getNames(ctx, c, folderNames, need, msg.names); err != nil {
			msg.failed = append(msg.failed, err.Error())
		}
		return msg
	})
}

// foundOnServer reveals what a find brought, or says why there is
// nothing to reveal.
func (e *env) foundOnServer(msg foundMsg) tea.Cmd {
	e.folderNamer.learn(msg.names)
	var asked []string
	for _, k := range e.kinds.all {
		if k.find != nil {
			asked = append(asked, k.nouns)
		}
	}
	failed := ""
	if len(msg.failed) > 0 {
		failed = " (not all could be asked: " + strings.Join(msg.failed, "; ") + ")"
	}
	if len(msg.found) == 0 {
		say := fmt.Sprintf("nothing on the server is named %q exactly (%s by name, advisories by id or CVE)%s",
			safe.String(msg.pattern), strings.Join(asked[:max(len(asked)-1, 0)], ", "), failed)
		if failed != "" {
			return views.FlashError(say)
		}
		return views.Flash(say)
	}
	// Typing a folder's name narrows the picker to what lives there (it
	// searches where each lives too). In the registry's order of kinds,
	// then by name and where they live.
	options := make([]picker.Option, 0, len(msg.found))
	rank := make([]int, 0, len(msg.found)) // each option's kind, in the registry's order
	for _, f := range msg.found {
		rank = append(rank, slices.Index(e.kinds.all, f.k))
		said := strings.TrimSpace(f.k.noun + " " + safe.String(f.k.name(f.item)) + " " + string(e.foundWhere(f)))
		options = append(options, picker.Option{Label: safe.Of(f.k.noun + "  " + f.k.name(f.item)), Detail: e.foundWhere(f),
			Value: gotoMsg{path: e.kinds.pathOf(f.item), say: "found " + said}})
	}
	order := make([]int, len(options))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if rank[a] != rank[b] {
			return rank[a] - rank[b]
		}
		oa, ob := options[a], options[b]
		return strings.Compare(string(oa.Label+" "+oa.Detail), string(ob.Label+" "+ob.Detail))
	})
	sorted := make([]picker.Option, len(options))
	for i, o := range order {
		sorted[i] = options[o]
	}
	options = sorted
	if len(options) == 1 {
		to := options[0].Value.(gotoMsg)
		to.say += failed
		return func() tea.Msg { return to }
	}
	return e.open(func(context.Context) views.Screen {
		p := picker.New(e.common, safe.Of(fmt.Sprintf("Found on the server for %q: show which in the tree?", msg.pattern)), options, true,
			func(o picker.Option) tea.Msg { return o.Value.(gotoMsg) }).SearchDetails()
		return p
	})
}

// foundWhere says where a resource found lives: "in platform/ml" (a
// folder: where its parent is).
func (e *env) foundWhere(f hit) safe.Text {
	folder := f.k.folder(f.item)
	if f.k.holdsFolders() {
		folder = api.ParentUID(folder)
		if folder == "" {
			return "" // the organization
		}
	}
	if folder == "" {
		return "in the " + safe.Of(f.k.nouns) + " feed"
	}
	if p := e.folderPath(folder); p != "" {
		return "in " + safe.Of(p)
	}
	return ""
}

// pathOf is the ids of the tree's nodes from a root down to a resource's
// node: its folders (the organization first), its folder's collection of
// the kind, itself; a feed's root then the resource.
func (r *registry) pathOf(item any) []string {
	k := r.of(item)
	if k == nil {
		return nil
	}
	uid := k.uid(item)
	switch {
	case k.holdsFolders():
		return uidPath(uid)
	case k.root != nil:
		return []string{k.in(""), uid}
	case k.heldBy != "" && r.byNoun(k.heldBy) != nil:
		// A tag: under its repo, which is under its folder's repos.
		holder := api.ParentUID(uid)
		folder := api.ParentUID(holder)
		return append(uidPath(folder), r.byNoun(k.heldBy).in(folder), holder, uid)
	}
	folder := k.folder(item)
	return append(uidPath(folder), k.in(folder), uid)
}

// uidPath is a folder's uid and its ancestors', the organization first:
// folder uids extend their parent's.
func uidPath(uid string) []string {
	var path []string
	for u := uid; u != ""; u = api.ParentUID(u) {
		path = append([]string{u}, path...)
	}
	return path
}
