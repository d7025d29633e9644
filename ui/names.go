package ui

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/sync/errgroup"

	"canopy/api"
	"canopy/keymap"
	"canopy/views/table"
)

// nameKind is what a namer names.
type nameKind int

const (
	repoNames nameKind = iota
	folderNames
)

func (k nameKind) String() string {
	if k == folderNames {
		return "folder names"
	}
	return "repo names"
}

// namer learns display names by uid (repos for a REPO column, folders for
// FOLDER paths) as the rows that need them arrive: first with one walk of
// the organization's list of that kind (a request per 200), then, for a
// uid that appears later (a repo created since), with a request for that
// uid, in batches. A failure is tried again after a pause that grows, and
// at once on r; nothing is lost meanwhile (the uid shows until its name
// comes). It is only touched on the UI loop; requests run in commands.
type namer struct {
	kind nameKind
	// names is never written once set, only replaced by a copy (see
	// learn): a resolver taken in Update (a filter's snapshot) keeps the
	// map it took, and reads it off the UI loop while new names arrive.
	names    map[string]string
	walked   bool            // a walk succeeded for this organization
	want     map[string]bool // uids asked for and not known yet
	missing  map[string]bool // uids the server does not know: not asked again
	inFlight bool
	waiting  bool // a retry is scheduled
	failures int  // consecutive failures, for the pause
	denied   bool // the last failure was a refusal: no retry but on r
	seq      int  // names the retry tick of the last failure
}

func newNamer(kind nameKind) *namer {
	return &namer{kind: kind, names: map[string]string{}, want: map[string]bool{}, missing: map[string]bool{}}
}

// namesMsg carries what a lookup learned.
type namesMsg struct {
	kind    nameKind
	org     string // the organization asked about: an answer for another is dropped
	names   map[string]string
	missing []string
	walked  bool
	err     error
}

// namesRetryMsg is the end of the pause after a failed lookup.
type namesRetryMsg struct {
	kind nameKind
	seq  int
}

// lookupBatch bounds the uids asked for one by one in one command, and
// lookupParallel the requests in flight for them.
const (
	lookupBatch    = 50
	lookupParallel = 4
)

// learnedMsg: a resource found by name (the repo of `:tags python`),
// whose name its rows' columns and pull references need.
type learnedMsg struct {
	kind      nameKind
	uid, name string
}

// learned keeps a found repo's or folder's name, as a lookup would.
func (e *env) learned(msg learnedMsg) { e.namer(msg.kind).learn(map[string]string{msg.uid: msg.name}) }

// namesOf is the names kind a resource kind's names are kept as (repos',
// folders'); ok false for a kind whose names no column needs.
func (e *env) namesOf(k *kind) (nameKind, bool) {
	switch k {
	case kindFor[api.Repo](e.kinds):
		return repoNames, true
	case kindFor[api.Group](e.kinds):
		return folderNames, true
	}
	return 0, false
}

// namer is the namer of a kind.
func (e *env) namer(k nameKind) *namer {
	if k == folderNames {
		return e.folderNamer
	}
	return e.repoNamer
}

// need asks for the names of uids not known yet; the command is nil when
// nothing is to be asked now.
func (e *env) need(k nameKind, uids ...string) tea.Cmd {
	n := e.namer(k)
	for _, uid := range uids {
		if _, ok := n.names[uid]; !ok && uid != "" && !n.missing[uid] {
			n.want[uid] = true
		}
	}
	return e.lookup(k)
}

// lookup starts a lookup unless one runs, a retry waits, or nothing is
// wanted.
func (e *env) lookup(k nameKind) tea.Cmd {
	n := e.namer(k)
	if n.inFlight || n.waiting || n.denied || len(n.want) == 0 || e.org == nil {
		return nil
	}
	n.inFlight = true
	batch := make([]string, 0, min(len(n.want), lookupBatch))
	for uid := range n.want {
		if len(batch) == lookupBatch {
			break
		}
		batch = append(batch, uid)
	}
	ctx, c, org, walked := e.ctx, e.client, e.org.UID, n.walked
	return func() tea.Msg {
		msg := namesMsg{kind: k, org: org, names: map[string]string{}}
		if !walked {
			if msg.err = walkNames(ctx, c, k, org, msg.names); msg.err != nil {
				return msg
			}
			msg.walked = true
		}
		var rest []string
		for _, uid := range batch {
			if _, ok := msg.names[uid]; !ok {
				rest = append(rest, uid)
			}
		}
		msg.missing, msg.err = getNames(ctx, c, k, rest, msg.names)
		return msg
	}
}

// walkNames lists every repo (or folder) of the organization.
func walkNames(ctx context.Context, c *api.Client, k nameKind, org string, into map[string]string) error {
	o := api.ListOptions{DescendantsOf: org, PageSize: api.MaxPageSize}
	if k == folderNames {
		for g, err := range api.NewCursor(c.ListGroups, o, api.GroupKey).All(ctx) {
			if err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
			into[g.UID] = g.Name
		}
		return nil
	}
	for r, err := range api.NewCursor(c.ListRepos, o, api.RepoKey).All(ctx) {
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		into[r.UID] = r.Name
	}
	return nil
}

// getNames asks for uids one by one, a few at a time; the ones the server
// does not know come back as missing.
func getNames(ctx context.Context, c *api.Client, k nameKind, uids []string, into map[string]string) (missing []string, err error) {
	var mu sync.Mutex
	var g errgroup.Group
	g.SetLimit(lookupParallel)
	for _, uid := range uids {
		g.Go(func() error {
			var name string
			var e error
			if k == folderNames {
				var g *api.Group
				if g, e = c.GetGroup(ctx, uid); e == nil {
					name = g.Name
				}
			} else {
				var r *api.Repo
				if r, e = c.GetRepo(ctx, uid); e == nil {
					name = r.Name
				}
			}
			mu.Lock()
			defer mu.Unlock()
			switch {
			case e == nil:
				into[uid] = name
			case api.IsNotFound(e):
				missing = append(missing, uid)
			case err == nil:
				err = fmt.Errorf("%s: %w", k, e)
			}
			return nil // every failure is counted above, none stops the rest
		})
	}
	_ = g.Wait()
	return missing, err
}

// gotNames takes a lookup's answer: the names, and after a failure a
// pause before trying again (none after a refusal: r tries again).
func (e *env) gotNames(msg namesMsg) (cmd tea.Cmd, flash string) {
	if e.org == nil || msg.org != e.org.UID {
		return nil, "" // asked before another organization opened
	}
	n := e.namer(msg.kind)
	n.inFlight = false
	n.learn(msg.names)
	for uid := range msg.names {
		delete(n.want, uid)
	}
	for _, uid := range msg.missing {
		n.missing[uid] = true
		delete(n.want, uid)
	}
	n.walked = n.walked || msg.walked
	var learned tea.Cmd
	if len(msg.names) > 0 {
		// Broadcast to the screens: a table filtering on these names
		// searches again.
		learned = func() tea.Msg { return table.NamesMsg{} }
	}
	if msg.err == nil {
		n.failures, n.denied = 0, false
		return tea.Batch(learned, e.lookup(msg.kind)), ""
	}
	n.failures++
	if api.IsPermissionDenied(msg.err) || api.IsUnauthenticated(msg.err) {
		n.denied = true
		return learned, msg.err.Error() + " (" + e.common.Key(keymap.Refresh) + " tries again)"
	}
	pause := min(time.Duration(1<<min(n.failures-1, 5))*2*time.Second, time.Minute)
	n.waiting = true
	n.seq++
	seq, kind := n.seq, msg.kind
	return tea.Batch(learned, tea.Tick(pause, func(time.Time) tea.Msg { return namesRetryMsg{kind: kind, seq: seq} })),
		fmt.Sprintf("%s (tried again in %s, or r)", msg.err.Error(), pause)
}

// retryNames ends a pause (its tick, or r) and looks up what is wanted.
func (e *env) retryNames(k nameKind) tea.Cmd {
	n := e.namer(k)
	n.waiting, n.denied = false, false
	n.seq++ // a pending tick is now stale
	return e.lookup(k)
}

// renamed follows a resource renamed, when its name is known.
func (n *namer) renamed(uid, name string) {
	if _, ok := n.names[uid]; ok {
		n.learn(map[string]string{uid: name})
	}
}

// learn adds names to a copy of the map (see namer.names); the first
// answer's map, which nothing else writes, is taken as it is.
func (n *namer) learn(names map[string]string) {
	if len(names) == 0 {
		return
	}
	if len(n.names) == 0 {
		n.names = names
		return
	}
	next := make(map[string]string, len(n.names)+len(names))
	maps.Copy(next, n.names)
	maps.Copy(next, names)
	n.names = next
}

// repoName is a repo's name, "" while unknown.
func (e *env) repoName(uid string) string { return e.repoNamer.names[uid] }

// repoResolver resolves repo names as known now, reading only what it took
// (so a filter's snapshot may use it off the UI loop).
func (e *env) repoResolver() func(uid string) string {
	names := e.repoNamer.names
	return func(uid string) string { return names[uid] }
}

// folderPath is the path of a folder below the organization
// ("platform/base-images"), the organization's name for the organization
// itself, "" while a name on the way is unknown.
func (e *env) folderPath(uid string) string {
	if e.org == nil {
		return ""
	}
	return pathOf(e.folderNamer.names, e.org.UID, e.org.Name, uid)
}

// folderPaths resolves folder paths as known now, reading only what it
// took (so a filter's snapshot may use it off the UI loop).
func (e *env) folderPaths() func(uid string) string {
	if e.org == nil {
		return func(string) string { return "" }
	}
	orgUID, orgName, names := e.org.UID, e.org.Name, e.folderNamer.names
	return func(uid string) string { return pathOf(names, orgUID, orgName, uid) }
}

// pathOf is folderPath over the names given.
func pathOf(names map[string]string, orgUID, orgName, uid string) string {
	if uid == orgUID {
		return orgName
	}
	var parts []string
	for u := uid; u != "" && u != orgUID; u = api.ParentUID(u) {
		name, ok := names[u]
		if !ok {
			return ""
		}
		parts = append(parts, name)
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, "/")
}

// folders asks for the names on the path of each group uid.
func (e *env) folders(groups ...string) tea.Cmd {
	var uids []string
	for _, g := range groups {
		for u := g; u != "" && e.org != nil && u != e.org.UID; u = api.ParentUID(u) {
			uids = append(uids, u)
		}
	}
	return e.need(folderNames, uids...)
}

// renamed follows a resource renamed in this session in the names
// learned so far.
func (e *env) renamed(item any) {
	if p, ok := item.(*api.IdentityMetadata); ok {
		e.profile = p // the caller's profile, as a change (or its undo) answered
	}
	if k := e.kinds.of(item); k != nil && k.renamed != nil {
		k.renamed(e, item)
	}
}

// folderOf is the folder a resource lives in (a folder is its own), ""
// for what has none (advisories, roles, libraries).
func (e *env) folderOf(item any) string {
	if k := e.kinds.of(item); k != nil {
		return k.folder(item)
	}
	return ""
}

// retryFailedNames is r: lookups that failed are tried again at once.
func (e *env) retryFailedNames() tea.Cmd {
	var cmds []tea.Cmd
	for _, k := range []nameKind{repoNames, folderNames} {
		if n := e.namer(k); n.failures > 0 && !n.inFlight {
			cmds = append(cmds, e.retryNames(k))
		}
	}
	return tea.Batch(cmds...)
}
