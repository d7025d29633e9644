package ui

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/safe"
	"canopy/views/bind"
)

// Binding marked identities in one request: the service's batch create
// makes every binding of a batch or none, at most api.MaxBatchBindings
// each. The dialog still says each identity's result: the first item to
// run sends the request for every identity still to be sent, the others
// wait for its answer and read their own outcome from it (as a batch
// delete's items do). A service without the call (NotOnServer) is asked
// one identity at a time, and the status line says so once; a batch it
// refused made nothing, so its identities are then asked one at a time
// too, to learn which of them it refuses. A lost answer is looked up (one
// listing of the folder's bindings of the role) before anything is sent
// again; a retry sends only what the server refused.

// bindMany is the bind flow's batch: asked in Update, as the confirmation
// opens, with what was chosen.
func (e *env) bindMany(role, group bind.Choice, ids []bind.Identity) bind.Batch {
	if e.noBatchBind {
		return bind.Batch{} // one request each, as said once already
	}
	b := &bindBatch{e: e, group: group, role: role, out: map[string]bound{}, final: map[string]bool{},
		labels: map[string]string{}}
	for _, id := range ids {
		b.ids = append(b.ids, id.UID)
		b.labels[id.UID] = safe.String(role.Name) + " → " + safe.String(id.Name) + " on " + safe.String(group.Name)
	}
	lines := []safe.Text{safe.Of(api.RoleBindings.BatchCreate().String()),
		safe.Of(`{"parent": ` + strconv.Quote(group.UID) + `, "requests": <one each: {"parent": …, "roleBinding": {"identityUid": …, "roleUid": ` +
			strconv.Quote(role.UID) + `}}>}`),
		safe.Of(fmt.Sprintf("All of a request are bound or none (a request binds at most %d).", api.MaxBatchBindings))}
	return bind.Batch{Lines: lines, Bind: b.run, Said: b.said}
}

// bound is what became of one identity of a batch: the binding (made,
// or found after a lost answer) and the error that says how, or why not.
type bound struct {
	b   *api.RoleBinding
	err error
}

// bindBatch is the bindings of one confirmation. Its items run in
// commands: it is guarded by mu, and env is only read (its client and
// change log are safe for that).
type bindBatch struct {
	e           *env
	group, role bind.Choice
	ids         []string          // in the dialog's order
	labels      map[string]string // "viewer → carol on platform", safe
	mu          sync.Mutex
	out         map[string]bound // outcomes not read yet, by identity
	final       map[string]bool  // identities never to be sent again
	busy        chan struct{}    // closed when the request on its way ends; nil: none is
	// how says how the last requests were sent, when not in one batch.
	how string
}

// run binds one identity: its outcome from the request that takes it,
// sent now when none is on its way.
func (b *bindBatch) run(ctx context.Context, _, identity, _, _ string) (*api.RoleBinding, error) {
	b.mu.Lock()
	for {
		if o, ok := b.out[identity]; ok {
			delete(b.out, identity)
			b.mu.Unlock()
			return o.b, o.err
		}
		if b.busy == nil {
			break
		}
		busy := b.busy
		b.mu.Unlock()
		select {
		case <-busy:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		b.mu.Lock()
	}
	var send []string
	for _, id := range b.ids {
		if _, unread := b.out[id]; !unread && !b.final[id] {
			send = append(send, id)
		}
	}
	busy := make(chan struct{})
	b.busy = busy
	b.mu.Unlock()
	outcomes, how := b.send(ctx, send)
	b.mu.Lock()
	defer b.mu.Unlock()
	for id, o := range outcomes {
		b.out[id], b.final[id] = o, !refused(o.err)
	}
	b.how = how
	b.busy = nil
	close(busy)
	o := b.out[identity]
	delete(b.out, identity)
	return o.b, o.err
}

// said is what the status line adds of how the bindings were sent, and,
// when the server has no batch, the message that has the session bind one
// by one from then on.
func (b *bindBatch) said() (string, tea.Msg) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.how == noBatch {
		return b.how, noBatchMsg{}
	}
	return b.how, nil
}

// noBatchMsg says the server has no batch create: the env remembers it.
type noBatchMsg struct{}

func (noBatchMsg) update(e *env) tea.Cmd {
	e.noBatchBind = true
	return nil
}

// send binds ids, a batch request per api.MaxBatchBindings of them, and
// says how when it was not in batches.
func (b *bindBatch) send(ctx context.Context, ids []string) (map[string]bound, string) {
	out := map[string]bound{}
	how := ""
	if len(ids) == 1 {
		return b.oneByOne(ctx, ids, out), ""
	}
	for start := 0; start < len(ids); start += api.MaxBatchBindings {
		chunk := ids[start:min(start+api.MaxBatchBindings, len(ids))]
		if how == noBatch {
			b.oneByOne(ctx, chunk, out)
			continue
		}
		err := b.batch(ctx, chunk, out)
		switch {
		case err == nil:
		case api.NotOnServer(err):
			how = noBatch
			b.oneByOne(ctx, chunk, out)
		case len(chunk) > 1 && itemRefusal(err):
			// Refused whole, so nothing was made: one at a time says
			// which the server refuses.
			how = "the server refused the batch whole: bound one by one to see which"
			b.oneByOne(ctx, chunk, out)
		default:
			for _, id := range chunk {
				out[id] = bound{err: err}
			}
		}
	}
	return out, how
}

// noBatch is what the status line says when the service has no batch.
const noBatch = "the server has no batch create: bound one by one"

// itemRefusal reports whether a batch's refusal may be about some of its
// bindings only (one exists already, one names what is gone), not about
// the whole request (a right lacking, a server busy).
func itemRefusal(err error) bool {
	switch api.CodeOf(err) {
	case api.CodeAlreadyExists, api.CodeInvalidArgument, api.CodeNotFound, api.CodeFailedPrecondition:
		return true
	}
	return false
}

// oneByOne binds each of ids with a request of its own.
func (b *bindBatch) oneByOne(ctx context.Context, ids []string, out map[string]bound) map[string]bound {
	for _, id := range ids {
		rb, err := b.e.bindOne(ctx, b.group.UID, id, b.role.UID, b.labels[id])
		out[id] = bound{b: rb, err: err}
	}
	return out
}

// batch binds ids in one request and puts each one's outcome in out; it
// returns the request's error when the server refused it (nothing made)
// or the call is not there, for send to decide.
func (b *bindBatch) batch(ctx context.Context, ids []string, out map[string]bound) error {
	n := &api.Note{What: fmt.Sprintf("bind %s → %d identities on %s", safe.String(b.role.Name), len(ids), safe.String(b.group.Name))}
	res, err := b.e.client.BatchCreateRoleBindings(api.WithNote(ctx, n), b.group.UID, b.role.UID, ids)
	switch {
	case err == nil:
		b.e.changes.answered(n, res)
		byIdentity := map[string]*api.RoleBinding{}
		for i := range res.RoleBindings {
			if rb := &res.RoleBindings[i]; rb.Identity != nil {
				byIdentity[rb.Identity.UID] = rb
			} else if i < len(ids) {
				byIdentity[ids[i]] = rb // the answer is in the order asked
			}
		}
		for _, id := range ids {
			// The batch went through whole: one its answer leaves out was
			// made all the same.
			out[id] = bound{b: byIdentity[id]}
		}
		return nil
	case !api.MaybeMade(err):
		return err
	}
	// The answer was lost: what does the server have?
	found, lookErr := b.e.client.FindRoleBindings(ctx, b.group.UID, b.role.UID, ids)
	made := 0
	for _, id := range ids {
		switch rb := found[id]; {
		case lookErr != nil:
			out[id] = bound{err: &settled{lost: err, verdict: stillUnknown, says: "could not look it up: " + safe.String(lookErr.Error())}}
		case rb != nil:
			made++
			out[id] = bound{b: rb, err: &settled{lost: err, verdict: wasMade, says: "the server has it: bound"}}
		default:
			out[id] = bound{err: &settled{lost: err, verdict: notMade, says: "the server does not have it"}}
		}
	}
	switch {
	case lookErr != nil:
		b.e.changes.settle(n, "lookup failed")
	case made == len(ids):
		b.e.changes.settle(n, "found bound")
	case made == 0:
		b.e.changes.settle(n, "found not bound")
	default:
		b.e.changes.settle(n, fmt.Sprintf("found %d of %d bound", made, len(ids)))
	}
	return nil
}
