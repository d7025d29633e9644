package ui

import (
	"context"
	"fmt"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/views/detail"
	"canopy/views/paging"
)

// tagSets remembers, per repo, the tags that any list of that repo brought
// (the tree, a table, an earlier tag detail), so that a tag's detail finds
// the other tags on its digest without listing the whole repo each time:
// what is known shows at once, and one search per repo completes it. A
// change to the repo (a tag created or deleted, r in the pane) forgets it.
// It is the shell's and only Update touches it: lists tell it the pages
// they take (watchTags), and a search comes back as a searchedMsg.
type tagSets struct {
	repos map[string]*repoTags
	order []string // repo uids, the least recently added first
}

// Bounds of what tagSets keeps: the tags of a few repos, and of each at
// most maxIndexed (a detail of a huge repo searches that many, and says
// so), so that memory does not grow with a million-tag repo scrolled in a
// table.
const (
	maxIndexed = 50_000
	maxRepos   = 8
)

type repoTags struct {
	gen      int // counts forgets: a search of an older generation is not kept
	tags     map[string]seenTag
	total    int  // the repo's visible tag count, -1 unknown
	complete bool // a search saw every tag (or maxIndexed) since the last forget
	// searching says a search is on its way; waiting are the details
	// that asked since, all answered when it comes.
	searching bool
	waiting   []relatedAsk

	name       string // the repo's name, "" until known
	advised    bool   // advisories holds the answer for name
	advisories []api.Advisory
}

type seenTag struct {
	name, digest string
	deprecated   bool
}

// relatedAsk is a detail's question: the relations of tag, answered with
// reply's message; ctx is the detail's.
type relatedAsk struct {
	ctx   context.Context
	tag   *api.Tag
	reply func(detail.Related, error) tea.Msg
}

// searchedMsg carries what a search of a repo found: its tags (when not
// all were known) and the advisories of its name (when not known).
type searchedMsg struct {
	sets   *tagSets
	client *api.Client
	uid    string
	repo   *repoTags // the entry searched, kept in sets or evicted since
	gen    int
	// listed: the search listed the tags, all of them (or maxIndexed).
	listed bool
	tags   []api.Tag
	total  int
	// advised: the search found the advisories of name.
	advised    bool
	name       string
	advisories []api.Advisory
	err        error
}

func newTagSets() *tagSets { return &tagSets{repos: map[string]*repoTags{}} }

// repo is the entry of a repo, made on first use.
func (ts *tagSets) repo(uid string) *repoTags {
	r := ts.repos[uid]
	if r == nil {
		r = &repoTags{tags: map[string]seenTag{}, total: -1}
		ts.repos[uid] = r
		ts.order = append(ts.order, uid)
		if len(ts.order) > maxRepos {
			// A search of the evicted repo finishes on its own entry, unseen.
			delete(ts.repos, ts.order[0])
			ts.order = ts.order[1:]
		}
	}
	return r
}

// add records tags of a repo seen in a page (total: the repo's count, -1
// when the server gave none).
func (ts *tagSets) add(repo string, tags []api.Tag, total int) { ts.repo(repo).add(tags, total) }

func (r *repoTags) add(tags []api.Tag, total int) {
	for _, t := range tags {
		if len(r.tags) >= maxIndexed {
			break
		}
		r.tags[t.UID] = seenTag{name: t.Name, digest: t.Digest, deprecated: t.Deprecated}
	}
	r.total = total
}

// forget drops what is known of a repo's tags (a change, or a refresh).
func (ts *tagSets) forget(repo string) {
	if r := ts.repos[repo]; r != nil {
		r.gen++
		clear(r.tags)
		r.total, r.complete, r.advised, r.advisories = -1, false, false, nil
	}
}

// plainTags reports whether a list with options o brings one repo's tags
// as they are (no name filter, no hidden kinds): what its set learns from.
func plainTags(o api.ListOptions) bool {
	return o.ChildrenOf != "" && o.Name == "" && !o.IncludeDates && !o.IncludeEpochs && !o.IncludeReferrers
}

// watchTags has every page a plain list of one repo's tags takes (in the
// Update of its screen) told to ts; tag is the tag of a list's item.
func watchTags[T any](ts *tagSets, l *paging.List[T], o api.ListOptions, tag func(*T) *api.Tag) *paging.List[T] {
	if !plainTags(o) {
		return l
	}
	repo := o.ChildrenOf
	l.Watch(func(items []T, total int) {
		tags := make([]api.Tag, 0, len(items))
		for i := range items {
			if t := tag(&items[i]); t != nil {
				tags = append(tags, *t)
			}
		}
		ts.add(repo, tags, total)
	})
	return l
}

// known is what is known of a tag's relations now, without a request; nil
// when nothing is.
func (ts *tagSets) known(t *api.Tag, repoName string) *detail.Related {
	r := ts.repos[api.ParentUID(t.UID)]
	if r == nil || len(r.tags) == 0 {
		return nil
	}
	rel := r.related(t)
	if rel.Repo == "" {
		rel.Repo = repoName
	}
	rel.Partial = !r.complete || !r.advised
	return &rel
}

// related is what r knows of t's relations.
func (r *repoTags) related(t *api.Tag) detail.Related {
	// Of is 0 (unknown) while the server gives no total and the walk is not
	// over: nothing may assume a total it did not send.
	of := r.total
	if of >= 0 || r.complete {
		of = max(of, len(r.tags))
	}
	rel := detail.Related{Repo: r.name, Searched: len(r.tags), Of: max(of, 0)}
	for uid, o := range r.tags {
		if o.digest == t.Digest && uid != t.UID {
			rel.Siblings = append(rel.Siblings, detail.Sibling{Name: o.name, Deprecated: o.deprecated})
		}
	}
	sort.Slice(rel.Siblings, func(i, j int) bool { return rel.Siblings[i].Name < rel.Siblings[j].Name })
	if r.advised {
		rel.Advisories = r.advisories
		rel.Artifacts = artifactNames(r.name)
	}
	return rel
}

// ask is a detail's question about a tag's relations (in its Update):
// what the repo's entry knows in full answers at once; else one search of
// the repo runs, and every detail that asks meanwhile waits for it.
func (ts *tagSets) ask(c *api.Client, a relatedAsk) tea.Cmd {
	uid := api.ParentUID(a.tag.UID)
	r := ts.repo(uid)
	if r.complete && r.advised {
		msg := a.reply(r.related(a.tag), nil)
		return func() tea.Msg { return msg }
	}
	r.waiting = append(r.waiting, a)
	if r.searching {
		return nil
	}
	return ts.search(c, uid, r)
}

// search lists what the entry does not know, in a command under the first
// waiting detail's context; the answer is a searchedMsg.
func (ts *tagSets) search(c *api.Client, uid string, r *repoTags) tea.Cmd {
	r.searching = true
	ctx := r.waiting[0].ctx
	asked := searchedMsg{sets: ts, client: c, uid: uid, repo: r, gen: r.gen, listed: !r.complete,
		advised: r.advised, name: r.name}
	return func() tea.Msg {
		msg := asked
		if msg.listed {
			msg.tags, msg.total, msg.err = listAllTags(ctx, c, uid)
			if msg.err != nil {
				msg.listed, msg.err = false, fmt.Errorf("tags of the repo: %w", msg.err)
				return msg
			}
		}
		if !msg.advised {
			msg.name, msg.advisories, msg.err = adviseRepo(ctx, c, uid, msg.name)
			msg.advised = msg.err == nil
		}
		return msg
	}
}

// searched takes a search's answer (in Update): what it found is kept,
// unless the repo was forgotten since (then it searches again), and the
// details waiting are answered. After a failure, the detail whose search
// it was gets the error and the others' search runs again.
func (ts *tagSets) searched(msg searchedMsg) (answers []tea.Msg, again tea.Cmd) {
	r := msg.repo
	r.searching = false
	if len(r.waiting) == 0 {
		return nil, nil
	}
	if msg.gen != r.gen {
		return nil, ts.search(msg.client, msg.uid, r)
	}
	if msg.listed {
		r.add(msg.tags, msg.total)
		r.complete = true
	}
	if msg.advised {
		r.name, r.advised, r.advisories = msg.name, true, msg.advisories
	}
	waiting := r.waiting
	if msg.err != nil {
		first := waiting[0]
		r.waiting = waiting[1:]
		if len(r.waiting) > 0 {
			again = ts.search(msg.client, msg.uid, r)
		}
		return []tea.Msg{first.reply(r.related(first.tag), msg.err)}, again
	}
	r.waiting = nil
	for _, a := range waiting {
		answers = append(answers, a.reply(r.related(a.tag), nil))
	}
	return answers, nil
}

// listAllTags lists every tag of a repo (at most maxIndexed).
func listAllTags(ctx context.Context, c *api.Client, repo string) ([]api.Tag, int, error) {
	o := api.ListOptions{ChildrenOf: repo, PageSize: api.MaxPageSize}
	var out []api.Tag
	for {
		p, err := c.ListTags(ctx, o)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, p.Items...)
		if p.Last() || len(out) >= maxIndexed {
			return out, int(p.TotalOr(-1)), nil
		}
		o.PageToken = p.NextPageToken
	}
}

// adviseRepo finds the advisories of a repo's artifact names (see
// artifactOf), getting its name first when it is not known.
func adviseRepo(ctx context.Context, c *api.Client, repo, name string) (string, []api.Advisory, error) {
	if name == "" {
		got, err := c.GetRepo(ctx, repo)
		if err != nil {
			return "", nil, fmt.Errorf("repo: %w", err)
		}
		name = got.Name
	}
	var out []api.Advisory
	// `query` is a substring match; only whole artifact names are kept.
	cur := api.NewCursor(c.ListAdvisories, api.ListOptions{Query: name, PageSize: api.MaxPageSize}, api.AdvisoryKey)
	for a, err := range cur.All(ctx) {
		if err != nil {
			return "", nil, fmt.Errorf("advisories of %s: %w", name, err)
		}
		if artifactOf(name, a.ArtifactName) {
			out = append(out, a)
		}
	}
	return name, out, nil
}

// artifactOf reports whether an advisory's artifact is a repo's: its name,
// or its name and a version ("python-3.13" for python), not another image
// whose name merely starts the same ("node-exporter" for node).
func artifactOf(repo, artifact string) bool {
	if artifact == repo {
		return true
	}
	rest, ok := strings.CutPrefix(artifact, repo+"-")
	return ok && rest != "" && rest[0] >= '0' && rest[0] <= '9'
}

// artifactNames are the artifact names searched for a repo, as the heading
// shows them.
func artifactNames(repo string) []string {
	if repo == "" {
		return nil
	}
	return []string{repo, repo + "-<version>"}
}
