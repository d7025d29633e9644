package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/sync/errgroup"

	"canopy/api"
	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
	"canopy/views"
	"canopy/views/dialog"
	"canopy/views/tree"
)

// doomed is a resource to delete and the name the user knows it by (a
// tag's "repo:tag").
type doomed struct {
	item any
	name string
}

// goWith says what goes with one resource or several: "Its 3 tags go
// with it: …", "Its 1 tag goes with it: …", "It has no tags."; then
// follows, thenOne after exactly one.
func goWith(n api.Count, many bool, one, more, then, thenOne string) string {
	its, it, has := "Its ", "it", "It has"
	if many {
		its, it, has = "Their ", "them", "They have"
	}
	switch {
	case n.N == 0 && n.Exact:
		return has + " no " + more + ": nothing else goes with " + it + "."
	case n.N == 1 && n.Exact:
		return its + "1 " + one + " goes with " + it + thenOne
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
	// related are what changes when each uid goes (see relatedTo),
	// as the dialog was opened: they travel with its answer, so a dialog
	// cancelled leaves nothing behind.
	related map[string][]views.Change
	// items are what each uid was, for the counts it leaves (kind.gone).
	items map[string]any
	owner tea.Msg // the asking screen's message; nil: none
	// said is what the status line says of a single delete done (its
	// dialog closed by itself); "" for none.
	said string
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
	k := e.kinds.of(items[0].item)
	if k == nil || k.del == nil {
		return views.Flash("this cannot be deleted here")
	}
	related, byUID := map[string][]views.Change{}, map[string]any{}
	single := ""
	if len(items) == 1 {
		single = k.noun + " " + safe.String(items[0].name)
	}
	// One delete that went through closes its dialog by itself (as one
	// binding does) and says so on the status line.
	cfg := dialog.Config{Verb: "delete", Outcome: e.outcomeOf("deleted"), AutoClose: single != "", Done: func(s dialog.Settled) tea.Msg {
		msg := deletedMsg{settled: s, related: related, items: byUID}
		if done != nil {
			msg.owner = done(s)
		}
		if single != "" && len(s.Done) == 1 {
			msg.said = "deleted " + single
		}
		return msg
	}}
	batches := batchesOf(k, items)
	for _, it := range items {
		if e.kinds.of(it.item) != k {
			return views.FlashError("these rows cannot be deleted together")
		}
		uid := k.uid(it.item)
		byUID[uid] = it.item
		label := safe.Of(k.noun) + " " + safe.Of(it.name)
		if len(items) > 1 {
			label += "  " + safe.Of(uid)
		}
		if k.related != nil {
			related[uid] = k.related(e.kinds, it.item)
		}
		name, b := it.name, batches[uid]
		cfg.Items = append(cfg.Items, dialog.Item{Key: uid, Label: label, Run: func(ctx context.Context) (any, error) {
			if b != nil {
				return nil, b.run(ctx, e, k, uid)
			}
			n := &api.Note{What: k.noun + " " + strconv.Quote(name)}
			return nil, e.deleteOne(api.WithNote(ctx, n), n, k, uid)
		}})
	}
	if len(items) == 1 {
		cfg.Title = "Delete " + safe.Of(k.noun) + " " + safe.Of(items[0].name) + "?"
		cfg.Lines = []safe.Text{"uid " + safe.Of(k.uid(items[0].item))}
	} else {
		cfg.Title = "Delete " + safe.Of(counted(api.Count{N: int64(len(items)), Exact: true}, k.noun, k.nouns)) + "?"
	}
	if k.lost != nil {
		k.lost(e, &cfg, items)
	}
	return e.open(func(ctx context.Context) views.Screen { return dialog.New(ctx, e.common, cfg) })
}

// deleteBatch is the deletes of one dialog that go in one request (a
// kind's delBatch: the marked mappings of one identity provider). The
// first of its items to run sends it for every one still to be sent; the
// others wait for its answer and each reads its own outcome from it. A
// retry sends again only what the server refused: what went, or whose
// answer was lost and could not be looked up, is never sent again.
type deleteBatch struct {
	parent string
	uids   []string          // in the dialog's order
	names  map[string]string // as the user knows each
	mu     sync.Mutex
	out    map[string]error // outcomes not read yet, by uid
	final  map[string]bool  // uids never to be sent again
	busy   chan struct{}    // closed when the request on its way ends; nil: none is
}

// batchesOf groups the items of a kind that deletes in batches by parent:
// the batch of each uid whose parent has more than one among items.
func batchesOf(k *kind, items []doomed) map[string]*deleteBatch {
	if k.delBatch == nil || len(items) < 2 {
		return nil
	}
	byParent := map[string]*deleteBatch{}
	for _, it := range items {
		p := k.batchOf(it.item)
		b := byParent[p]
		if b == nil {
			b = &deleteBatch{parent: p, names: map[string]string{}, out: map[string]error{}, final: map[string]bool{}}
			byParent[p] = b
		}
		uid := k.uid(it.item)
		b.uids, b.names[uid] = append(b.uids, uid), it.name
	}
	out := map[string]*deleteBatch{}
	for _, b := range byParent {
		for _, uid := range b.uids {
			if len(b.uids) > 1 {
				out[uid] = b
			}
		}
	}
	return out
}

// run is the delete of one item of the batch: its outcome from the
// request that takes it, sent now when none is on its way.
func (b *deleteBatch) run(ctx context.Context, e *env, k *kind, uid string) error {
	b.mu.Lock()
	for {
		if err, ok := b.out[uid]; ok {
			delete(b.out, uid)
			b.mu.Unlock()
			return err
		}
		if b.busy == nil {
			break
		}
		busy := b.busy
		b.mu.Unlock()
		select {
		case <-busy:
		case <-ctx.Done():
			return ctx.Err()
		}
		b.mu.Lock()
	}
	var send []string
	for _, u := range b.uids {
		if _, unread := b.out[u]; !unread && !b.final[u] {
			send = append(send, u)
		}
	}
	busy := make(chan struct{})
	b.busy = busy
	b.mu.Unlock()
	outcomes := e.deleteMany(ctx, k, b.parent, send, b.names)
	b.mu.Lock()
	defer b.mu.Unlock()
	for u, err := range outcomes {
		b.out[u], b.final[u] = err, !refused(err)
	}
	b.busy = nil
	close(busy)
	err := b.out[uid]
	delete(b.out, uid)
	return err
}

// refused reports whether a delete's error says it certainly did not
// happen and may be sent again: the server refused it, or a lookup after
// a lost answer found the resource still there.
func refused(err error) bool {
	var s *settled
	switch {
	case err == nil, api.IsNotFound(err):
		return false
	case errors.As(err, &s):
		return s.verdict == notMade
	}
	return !api.MaybeMade(err)
}

// skipped is the outcome of a resource a batch delete did not delete:
// the server no longer had it (which the dialog says is already gone).
var skipped = &api.Error{Status: api.Status{Code: api.CodeNotFound, Message: "the batch delete found it gone already"}}

// deleteMany deletes uids of parent in one request (k.delBatch) and says
// what became of each: deleted, already gone, refused with the request,
// or, when the answer was lost, what the server has now (deleteOne's
// lookup, one each; :changes says what they found together).
func (e *env) deleteMany(ctx context.Context, k *kind, parent string, uids []string, names map[string]string) map[string]error {
	quoted := make([]string, len(uids))
	for i, u := range uids {
		quoted[i] = strconv.Quote(names[u])
	}
	n := &api.Note{What: counted(api.Count{N: int64(len(uids)), Exact: true}, k.noun, k.nouns) + " " + strings.Join(quoted, ", ")}
	ctx = api.WithNote(ctx, n)
	deleted, err := k.delBatch(ctx, e.client, parent, uids)
	out := make(map[string]error, len(uids))
	if err == nil || !api.MaybeMade(err) {
		for _, u := range uids {
			out[u] = err
			if err == nil && !slices.Contains(deleted, u) {
				out[u] = skipped
			}
		}
		return out
	}
	var gone, here, unknown int
	for _, u := range uids {
		there, lookErr := goneOrHere(k.exists(ctx, e.client, u))
		switch {
		case lookErr != nil:
			unknown++
			out[u] = &settled{lost: err, verdict: stillUnknown, says: "could not look it up: " + safe.String(lookErr.Error())}
		case there:
			here++
			out[u] = &settled{lost: err, verdict: notMade, says: "the server still has it"}
		default:
			gone++
			out[u] = &settled{lost: err, verdict: wasMade, says: "the server no longer has it"}
		}
	}
	switch {
	case unknown > 0:
		e.changes.settle(n, "lookup failed")
	case here == 0:
		e.changes.settle(n, "found deleted")
	case gone == 0:
		e.changes.settle(n, "found not deleted")
	default:
		e.changes.settle(n, fmt.Sprintf("found %d of %d deleted", gone, len(uids)))
	}
	return out
}

// nodeName is how the user knows a tree node's resource: its name, a
// tag's "repo:tag".
func (e *env) nodeName(n *tree.Node) string {
	k := e.kinds.of(n.Item)
	switch {
	case k == nil:
		return string(n.Label)
	case k.nodeName != nil:
		return k.nodeName(n)
	}
	return k.name(n.Item)
}

// texts are lines made safe.
func texts(lines []string) []safe.Text {
	out := make([]safe.Text, len(lines))
	for i, l := range lines {
		out[i] = safe.Of(l)
	}
	return out
}

// uidsOf are the uids of resources.
func uidsOf[T any](items []*T, key func(*T) string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = key(it)
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
	var g errgroup.Group
	g.SetLimit(countParallel)
	n := api.Count{Exact: true}
	var first error
	for _, uid := range uids {
		g.Go(func() error {
			c, err := count(ctx, uid)
			mu.Lock()
			defer mu.Unlock()
			n.N += c.N
			n.Exact = n.Exact && c.Exact
			if err != nil && first == nil {
				first = err
			}
			return nil // the first failure is kept above; the others still count
		})
	}
	_ = g.Wait()
	return n, first
}
