package ui

// After a lost answer (api.MaybeMade), nothing is sent again before the
// server is asked what it has: the name under the parent for a create, the
// resource's current value for an edit, the resource itself for a delete.
// What it has is said on the screen that made the change and in :changes
// ("unknown, then found created").

import (
	"context"
	"fmt"

	"canopy/api"
	"canopy/keymap"
	"canopy/safe"
	"canopy/views/dialog"
	"canopy/views/form"
)

// foundAfterLoss is the answer to a change whose own answer was lost and
// that a lookup then found made: what the server has. The form gives it
// to Done, which says how it was learnt.
type foundAfterLoss struct{ res any }

// unlost is a form's answer, and whether it was found by a lookup after
// a lost answer.
func unlost(result any) (any, bool) {
	if f, ok := result.(foundAfterLoss); ok {
		return f.res, true
	}
	return result, false
}

// afterLoss begins the flash of a change found made after its answer was
// lost ("" for an answer that came).
func afterLoss(found bool) string {
	if found {
		return "no answer, but the server has it: "
	}
	return ""
}

// verdict is what a lookup after a lost answer found, for a change run by
// a dialog (a delete, a binding).
type verdict int

const (
	stillUnknown verdict = iota // the lookup failed
	wasMade
	notMade
)

// settled is the error of a dialog's change whose answer was lost, with
// what a lookup then found.
type settled struct {
	lost    error
	verdict verdict
	says    string // what the server has, safe to print
}

func (s *settled) Error() string { return s.lost.Error() }
func (s *settled) Unwrap() error { return s.lost }

// settledOutcome is what a dialog says of a settled change: made is done,
// not made failed (nothing changed), a failed lookup still unknown.
func (e *env) settledOutcome(s *settled, made string) ([]string, dialog.Result) {
	lost := "no answer (" + safe.String(api.LostCause(s.lost)) + ")"
	switch s.verdict {
	case wasMade:
		return []string{lost + ", but " + s.says}, dialog.Done
	case notMade:
		return []string{lost + "; " + s.says + ": not " + made}, dialog.Failed
	}
	return []string{unknownLine(s.lost, "it was "+made, s.says+"; "+e.common.Key(keymap.Refresh)+" to refresh to see")}, dialog.Unknown
}

// lookedUp settles a dialog's lost change with a lookup's answer (made:
// the change is so; err: the lookup failed), and says so in :changes as
// "found <what>" or "found not <what>".
func (e *env) lookedUp(n *api.Note, lost error, made bool, says, what string, err error) error {
	switch {
	case err != nil:
		e.changes.settle(n, "lookup failed")
		return &settled{lost: lost, verdict: stillUnknown, says: "could not look it up: " + safe.String(err.Error())}
	case made:
		e.changes.settle(n, "found "+what)
		return &settled{lost: lost, verdict: wasMade, says: says}
	}
	e.changes.settle(n, "found not "+what)
	return &settled{lost: lost, verdict: notMade, says: says}
}

// goneOrHere asks whether the server still has a resource: (false, nil)
// when it answers NOT_FOUND.
func goneOrHere(err error) (bool, error) {
	switch {
	case err == nil:
		return true, nil
	case api.IsNotFound(err):
		return false, nil
	}
	return false, err
}

// createdFound is what a create's lookup found, for its form: res is nil
// when the server does not have it.
func (e *env) createdFound(n *api.Note, res any, err error) (form.Found, error) {
	if err != nil {
		e.changes.settle(n, "lookup failed")
		return form.Found{}, err
	}
	if res == nil {
		e.changes.settle(n, "found not created")
		return form.Found{Verdict: form.Absent, Says: "the server does not have it"}, nil
	}
	e.changes.settle(n, "found created")
	return form.Found{Verdict: form.Made, Says: "the server has it: created", Result: foundAfterLoss{res}}, nil
}

// found makes a Find's answer an any that is nil when nothing was found
// (not a nil pointer in an interface).
func found[T any](p *T, err error) (any, error) {
	if p == nil || err != nil {
		return nil, err
	}
	return p, nil
}

// checkEdit learns what became of an edit whose answer was lost: the
// server has the values sent (made), still the values before (not made:
// only then is it offered again), or others (said, to edit from).
func (e *env) checkEdit(ctx context.Context, ed edit, from, to map[string]string, n *api.Note) (form.Found, error) {
	if ed.current == nil {
		return form.Found{}, fmt.Errorf("no way to read the %s back", ed.noun)
	}
	now, res, err := ed.current(ctx)
	switch {
	case api.IsNotFound(err) || err == nil && now == nil:
		e.changes.settle(n, "found it gone")
		return form.Found{Verdict: form.Other, Says: "the server no longer has this " + ed.noun}, nil
	case err != nil:
		e.changes.settle(n, "lookup failed")
		return form.Found{}, fmt.Errorf("read the %s back: %w", ed.noun, err)
	case sameValues(now, to):
		e.changes.settle(n, "found the new value")
		return form.Found{Verdict: form.Made, Says: "the server has the new value", Result: foundAfterLoss{res}}, nil
	case sameValues(now, from):
		e.changes.settle(n, "found the old value")
		return form.Found{Verdict: form.Absent, Says: "the server still has the old value"}, nil
	}
	e.changes.settle(n, "found another value")
	return form.Found{Verdict: form.Other, Says: "the server has another value: " + changeValues(now), Values: now}, nil
}

// sameValues reports whether the server's values of an edit's fields are
// want, as the server would store them (a list as its items).
func sameValues(server, want map[string]string) bool {
	if len(want) == 0 {
		return false
	}
	for k, w := range want {
		v, ok := server[k]
		if !ok {
			return false
		}
		if k == "bundles" || k == "aliases" || k == "oidc.additionalScopes" {
			v, w = joined(list(v)), joined(list(w))
		}
		if k == capsKey {
			v, w = capsCanon(v), capsCanon(w)
		}
		if v != w {
			return false
		}
	}
	return true
}

// deleteOne deletes one resource; when the answer is lost, it asks the
// server whether it still has it (NOT_FOUND: deleted).
func (e *env) deleteOne(ctx context.Context, n *api.Note, k *kind, uid string) error {
	err := k.del(ctx, e.client, uid)
	if !api.MaybeMade(err) {
		return err
	}
	here, lookErr := goneOrHere(k.exists(ctx, e.client, uid))
	if here {
		return e.lookedUp(n, err, false, "the server still has it", "deleted", lookErr)
	}
	return e.lookedUp(n, err, true, "the server no longer has it", "deleted", lookErr)
}
