package ui

// Where canopy starts: a `:` command run once the organization opens
// (canopy -c ':tags python'), or a resource shown in the tree (canopy open
// <uid | pull reference | advisory id>), its folders opened and the
// cursor on it.

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/sync/errgroup"

	"canopy/api"
	"canopy/keymap"
	"canopy/lazyregexp"
	"canopy/plugin"
	"canopy/resource"
	"canopy/safe"
	"canopy/saved"
	"canopy/views"
	"canopy/views/cmdline"
	"canopy/views/columns"
	"canopy/views/detail"
)

// Start is where the explorer starts, beside the tree: a `:` command line,
// or a resource to show. Both empty: the tree.
type Start struct {
	Command string // ":tags python"
	Open    string // a uid, a pull reference, an advisory id, or a name
}

// CheckStart says what is wrong with a start before the screen changes: a
// command canopy (with these plugins) does not have.
func CheckStart(s Start, plugins []plugin.Plugin, views []saved.View) error {
	if s.Command != "" && s.Open != "" {
		return errors.New("give a command or a resource to open, not both")
	}
	if s.Command == "" {
		return nil
	}
	_, err := cmdline.Resolve(commands(keymap.Default(), kinds(nil), plugins, views), s.Command)
	return err
}

// begin is the command of the start, once the explorer is there (once).
func (m *Model) begin() tea.Cmd {
	s := m.opts.Start
	m.opts.Start = Start{}
	switch {
	case s.Command != "":
		msg, err := cmdline.Resolve(commands(m.common.Keys, m.env.kinds, m.plugins, m.views), s.Command)
		if err != nil {
			return m.setFlash(err.Error(), true)
		}
		return func() tea.Msg { return msg }
	case s.Open != "":
		return m.env.openTarget(m.ctx, s.Open)
	}
	return nil
}

var (
	// advisoryIDShape is an advisory's id: CGA-xxxx-xxxx-xxxx.
	advisoryIDShape = lazyregexp.New(`^(?i)CGA(-[0-9a-z]{4}){3}$`)
	// uidShape is a uid: 40 hex digits, then /16 hex digits per level.
	uidShape = lazyregexp.New(`^[0-9a-f]{40}(/[0-9a-f]{16})*$`)
)

// openTarget shows what target names in the tree: by uid (whatever kind
// has it), pull reference, advisory id, else by name (as ctrl+s in the
// tree's filter finds one).
func (e *env) openTarget(ctx context.Context, target string) tea.Cmd {
	target = strings.TrimSpace(target)
	if !uidShape.MatchString(target) && !advisoryIDShape.MatchString(target) && !isPullRef(target) {
		return e.findOnServer(ctx, target)
	}
	// In sequence: an answer that comes at once is not overwritten by
	// the line saying it is on its way.
	return tea.Sequence(views.Flash("looking up "+safe.String(target)+"…"), func() tea.Msg {
		item, err := e.lookUp(ctx, target)
		if err != nil {
			what := "canopy open " + safe.String(target)
			if len(target) > 40 {
				what = "canopy open" // a uid: the error names what matters
			}
			return views.FlashMsg{Text: what + ": " + safe.String(err.Error()), Error: true}
		}
		k := e.kinds.of(item)
		noun := k.noun
		if g, ok := item.(*api.Group); ok {
			noun = groupWord(g) // the organization is no folder
		}
		said := "opened the " + noun + " " + safe.String(k.name(item))
		if k.node == nil && k.top == nil {
			// Not in the tree (an identity provider, an invite): its page.
			page := openLater(func(ctx context.Context) views.Screen { return detail.NewPage(ctx, e.common, e.fetch(ctx), item) })
			return tea.BatchMsg{page, views.Flash(said + ", on its page: the tree does not show " + k.nouns)}
		}
		return gotoMsg{path: e.kinds.pathOf(item), say: said}
	})
}

// isPullRef reports whether s reads as an image reference: a repo with a
// tag or digest, or a registry path.
func isPullRef(s string) bool { return strings.ContainsAny(s, ":/@") }

// lookUp finds the resource target names.
func (e *env) lookUp(ctx context.Context, target string) (any, error) {
	switch {
	case uidShape.MatchString(target):
		item, err := e.lookUpUID(ctx, target)
		if t, ok := item.(*api.Tag); ok && err == nil {
			return item, e.shown(ctx, t)
		}
		return item, err
	case advisoryIDShape.MatchString(target):
		k := e.kinds.byNoun("advisory")
		items, err := k.find(ctx, e.client, e.org.UID, columns.AdvisoryIDOf(target))
		if err != nil {
			return nil, err
		}
		if len(items) == 0 {
			return nil, fmt.Errorf("no advisory has the id %s", columns.AdvisoryIDOf(target))
		}
		return items[0], nil
	}
	return e.lookUpRef(ctx, target)
}

// lookUpUID asks every kind that reads one by uid at once; the first in
// the registry's order that has it wins (a uid names one resource).
func (e *env) lookUpUID(ctx context.Context, uid string) (any, error) {
	found := make([]any, len(e.kinds.all))
	var g errgroup.Group
	g.SetLimit(len(e.kinds.all)) // each kind asked at once: one request each
	for i, k := range e.kinds.all {
		if k.get == nil {
			continue
		}
		g.Go(func() error {
			if it, err := k.get(ctx, e.client, uid); err == nil {
				found[i] = it
			}
			return nil // a kind that does not have it is no failure
		})
	}
	_ = g.Wait()
	for _, it := range found {
		if it != nil {
			return it, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// One status line: which kinds canopy open shows by uid is its
	// usage's and the README's to say.
	return nil, fmt.Errorf("nothing this token can see has the uid …%s", uid[max(len(uid)-16, 0):])
}

// lookUpRef finds a repo, or its tag, by a pull reference:
// [cgr.dev/<org>/]<repo>[:<tag>][@<digest>].
func (e *env) lookUpRef(ctx context.Context, ref string) (any, error) {
	rest := ref
	if host, path, ok := strings.Cut(rest, "/"); ok && strings.ContainsAny(host, ".:") {
		org, repo, ok := strings.Cut(path, "/")
		if !ok {
			return nil, fmt.Errorf("%s names no repo (want %s/<org>/<repo>:<tag>)", ref, host)
		}
		if org != e.org.Name {
			return nil, fmt.Errorf("it is in the organization %s; canopy has %s open (--org picks one)", org, e.org.Name)
		}
		rest = repo
	}
	digest := ""
	if i := strings.IndexByte(rest, '@'); i >= 0 {
		rest, digest = rest[:i], rest[i+1:]
	}
	tag := ""
	if i := strings.LastIndexByte(rest, ':'); i >= 0 {
		rest, tag = rest[:i], rest[i+1:]
	}
	if rest == "" {
		return nil, fmt.Errorf("%s names no repo (want <repo>:<tag>, <repo>@<digest> or cgr.dev/<org>/<repo>:<tag>)", ref)
	}
	repos, err := e.kinds.byNoun("repo").find(ctx, e.client, e.org.UID, rest)
	switch {
	case err != nil:
		return nil, err
	case len(repos) == 0 && strings.Contains(rest, "/"):
		// A library's or version's uid reads like a path too (pypi/…,
		// maven/…:…): say what canopy open does with those.
		return nil, fmt.Errorf("no repo is named %s (a library's uid? %s)", rest, resource.Must(resource.Library).NoOpen)
	case len(repos) == 0:
		return nil, fmt.Errorf("no repo is named %s", rest)
	}
	repo := repos[0].(*api.Repo)
	if tag == "" && digest == "" {
		return repo, nil
	}
	return e.findTag(ctx, repo, tag, digest)
}

// maxTagScan bounds the tags read to find one by digest alone.
const maxTagScan = 20_000

// findTag finds a repo's tag by name (the server's exact filter), or by
// digest alone (the repo's tags read, bounded): among the tags the tree
// shows first; one found only among the hidden ones is said to be hidden.
func (e *env) findTag(ctx context.Context, repo *api.Repo, tag, digest string) (any, error) {
	t, err := e.scanTags(ctx, repo, tag, digest, false)
	if t != nil || err != nil {
		return t, err
	}
	if t, _ := e.scanTags(ctx, repo, tag, digest, true); t != nil {
		return nil, hiddenTag(repo.Name, t)
	}
	if tag != "" {
		if digest != "" {
			return nil, fmt.Errorf("%s:%s is not at %s", repo.Name, tag, digest)
		}
		return nil, fmt.Errorf("%s has no tag %s", repo.Name, tag)
	}
	return nil, fmt.Errorf("no tag of %s is at %s", repo.Name, digest)
}

// hiddenTag says a tag is one the tree does not list.
func hiddenTag(repo string, t *api.Tag) error {
	return fmt.Errorf("%s:%s is a hidden tag (an epoch, dated or signature tag): the tree does not list those; :tags %s then H shows them",
		repo, t.Name, repo)
}

// shown checks that a tag found by uid is one the tree lists.
func (e *env) shown(ctx context.Context, t *api.Tag) error {
	repoUID := api.ParentUID(t.UID)
	p, err := e.client.ListTags(ctx, api.ListOptions{ChildrenOf: repoUID, Name: t.Name, PageSize: 1})
	if err != nil || len(p.Items) > 0 {
		return nil // the tree will say, if it cannot show it
	}
	repo := e.repoName(repoUID)
	if r, err := e.client.GetRepo(ctx, repoUID); err == nil {
		repo = r.Name
	}
	return hiddenTag(repo, t)
}

// scanTags reads a repo's tags (the hidden ones too, or not) for one by
// name and digest.
func (e *env) scanTags(ctx context.Context, repo *api.Repo, tag, digest string, hidden bool) (*api.Tag, error) {
	o := api.ListOptions{ChildrenOf: repo.UID, Name: tag, PageSize: api.MaxPageSize, IncludeDates: hidden, IncludeEpochs: hidden,
		IncludeReferrers: hidden}
	cur := api.NewCursor(e.client.ListTags, o, api.TagKey)
	seen := 0
	for t, err := range cur.All(ctx) {
		if err != nil {
			return nil, fmt.Errorf("list the tags of %s: %w", repo.Name, err)
		}
		if (tag == "" || t.Name == tag) && (digest == "" || t.Digest == digest) {
			return &t, nil
		}
		if seen++; seen >= maxTagScan {
			break
		}
	}
	return nil, nil
}
