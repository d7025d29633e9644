package paging

import (
	"errors"

	tea "charm.land/bubbletea/v2"
)

// Refresh (r) loads the list again from its first page in the same order,
// keeping what is loaded on screen until that page comes: when it fails,
// the rows stay, stale, with the error (a StaleError), and r tries again.
// Unlike Reset, nothing is lost to a server that is down for a moment.
func (l *List[T]) Refresh() tea.Cmd {
	if len(l.windows) == 0 {
		return l.Reset(l.order)
	}
	l.gen++
	l.pending, l.err = nil, nil
	l.refreshing = true
	return l.fetch(Request{Size: l.size, OrderBy: l.order}, 0)
}

// Stale reports whether the rows shown are from before a refresh that
// failed (Err says why).
func (l *List[T]) Stale() bool {
	var s *StaleError
	return errors.As(l.err, &s)
}

// StaleError is the error of a refresh that failed while older rows are
// shown: they are kept, and said to be from before.
type StaleError struct{ Err error }

// Error says the rows are old, and why.
func (e *StaleError) Error() string {
	return "refresh failed, the rows shown are from before: " + e.Err.Error()
}

// Unwrap gives the refresh's error.
func (e *StaleError) Unwrap() error { return e.Err }

// refreshed takes the answer to a refresh's first page: on success the old
// rows go (the page starts the list anew); on failure they stay, stale.
// It reports whether the message was one.
func (l *List[T]) refreshed(msg PageMsg) bool {
	if !l.refreshing {
		return false
	}
	l.refreshing = false
	if msg.err != nil {
		l.err, l.errAt, l.errEnd = &StaleError{Err: msg.err}, 0, 0
		return true
	}
	// Start anew under the new generation, as Reset would have.
	l.windows = nil
	l.total, l.exact, l.stale, l.fruitless = -1, false, 0, nil
	l.forgetRead()
	return false
}
