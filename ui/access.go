package ui

// The access review (:access, A on an identity, folder, repo or role):
// who can do what, where, counted by census from the organization's
// roles, role bindings and identities, read once per organization and
// kept; the changes made here change it at once.

import (
	"context"
	"sync"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/census"
	"canopy/views"
)

// accessNouns is the collection a ChangedMsg names when the review
// changed: the screens showing it read it again.
const accessNouns = "access"

// accessReview is one organization's review. The screens read it in
// their commands (get), so it is guarded; Update changes it (change).
type accessReview struct {
	mu      sync.Mutex
	cur     *census.Access
	reading chan struct{} // closed when the reading under way ends; nil: none is
	// gen counts the changes to cur: a screen that loads again at the
	// gen it last showed was asked to by its user (r), not by a change.
	gen int
}

// again drops the review for a screen that showed it at gen and loads
// again with nothing changed since: its user asked for a new reading.
func (r *accessReview) again(gen int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.gen == gen && r.cur != nil {
		r.cur = nil
		r.gen++
	}
}

// get is the review, read once: a second asker waits for the first
// reading rather than starting another.
func (r *accessReview) get(ctx context.Context, read func(context.Context) (*census.Access, error)) (*census.Access, int, error) {
	for {
		r.mu.Lock()
		if r.cur != nil {
			a, gen := r.cur, r.gen
			r.mu.Unlock()
			return a, gen, nil
		}
		if r.reading == nil {
			done := make(chan struct{})
			r.reading = done
			r.mu.Unlock()
			a, err := read(ctx)
			r.mu.Lock()
			if err == nil {
				r.cur = a
				r.gen++
			}
			gen := r.gen
			r.reading = nil
			r.mu.Unlock()
			close(done)
			return a, gen, err
		}
		wait := r.reading
		r.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, 0, ctx.Err()
		}
	}
}

// change applies a change made here to the review read, if any; it
// reports whether the answers changed.
func (r *accessReview) change(f func(*census.Access) (*census.Access, bool)) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cur == nil {
		return false
	}
	next, changed := f(r.cur)
	if changed {
		r.cur = next
		r.gen++
	}
	return changed
}

// forget drops the review: the next screen reads it again (r, or a
// change whose whole effect only the server knows).
func (r *accessReview) forget() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cur = nil
	r.gen++
}

// review is the organization's review (made empty on first use; in
// Update).
func (e *env) review() *accessReview {
	r := e.reviews[e.org.UID]
	if r == nil {
		r = &accessReview{}
		e.reviews[e.org.UID] = r
	}
	return r
}

// readAccess is how a review is read, for the organization of now.
func (e *env) readAccess() func(context.Context) (*census.Access, error) {
	c, org, stale, clock := e.client, *e.org, e.stale, e.common.Clock
	return func(ctx context.Context) (*census.Access, error) {
		return census.ReadAccess(ctx, c, org, stale, clock())
	}
}

// accessMade, accessUpdated and accessGone change the review by what was
// made, changed or deleted here (in Update, before the screens hear of
// it); the command tells the screens showing it.
func (e *env) accessMade(items ...any) tea.Cmd {
	if e.org == nil || e.reviews[e.org.UID] == nil {
		return nil
	}
	if !e.review().change(func(a *census.Access) (*census.Access, bool) { return a.Made(items...) }) {
		return nil
	}
	return accessChanged
}

func (e *env) accessGone(uids []string) tea.Cmd {
	if e.org == nil || e.reviews[e.org.UID] == nil {
		return nil
	}
	r := e.review()
	again := false
	changed := r.change(func(a *census.Access) (*census.Access, bool) {
		b, changed, more := a.Deleted(uids...)
		again = more
		return b, changed
	})
	if again {
		r.forget() // what went with it only a new reading tells
	}
	if !changed {
		return nil
	}
	return accessChanged
}

func accessChanged() tea.Msg {
	return views.ChangedMsg{Changes: []views.Change{views.ChangedIn(accessNouns, "")}}
}

// whoseAccess names the rows a review screen shows: the identities at a
// folder (a repo's: its folder's), one identity at every folder, or
// where a role is held.
type whoseAccess struct {
	folder, identity, role string
	// repo, when the folder is a repo's, names it (for the title).
	repo string
}

func (w whoseAccess) rows(a *census.Access) []census.Row {
	switch {
	case w.identity != "":
		return a.Of(w.identity)
	case w.role != "":
		return a.ByRole(w.role)
	}
	return a.At(w.folder)
}

// accessOfFolder is the scope of a folder's or repo's uid.
func accessOfFolder(uid string, repo string) whoseAccess {
	if repo != "" {
		return whoseAccess{folder: api.ParentUID(uid), repo: repo}
	}
	return whoseAccess{folder: uid}
}
