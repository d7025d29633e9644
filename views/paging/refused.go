package paging

import "errors"

// OrderRefused is the error of a page whose order the server does not
// sort by (it refused order_by). A List that gets it falls back to the
// server's default order and reports it once (TakeRefusal); the Source
// makes it from whatever the API said.
type OrderRefused struct {
	Collection string // what was listed, for the owner's message ("subscriptions")
	Order      string // the order refused ("name desc")
	Err        error  // the server's answer
}

// Error says which order was refused.
func (e *OrderRefused) Error() string {
	return "the server does not sort " + e.Collection + " by " + e.Order + ": " + e.Err.Error()
}

// Unwrap gives the server's answer.
func (e *OrderRefused) Unwrap() error { return e.Err }

func asRefused(err error) (*OrderRefused, bool) {
	var r *OrderRefused
	ok := errors.As(err, &r)
	return r, ok
}

// ErrStuck is the error of a list whose server sends page after page with
// nothing in them and a token to go on: following it would never end.
var ErrStuck = errors.New("the server's pages bring nothing new; stopped loading (r tries again)")

// TakeRefusal returns the order refusal the list fell back from since the
// last call, once, for its owner to say.
func (l *List[T]) TakeRefusal() (*OrderRefused, bool) {
	r := l.refusal
	l.refusal = nil
	return r, r != nil
}

// Refused reports whether the server refused order for this list.
func (l *List[T]) Refused(order string) bool { return l.refused[order] }

// Refuse marks orders as known to be refused (the owner remembers them for
// the collection): Reset asks for the default order instead.
func (l *List[T]) Refuse(orders ...string) {
	for _, o := range orders {
		if o == "" {
			continue
		}
		if l.refused == nil {
			l.refused = map[string]bool{}
		}
		l.refused[o] = true
	}
	if l.refused[l.order] {
		l.order = ""
	}
}
