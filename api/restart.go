package api

import "hash/maphash"

// RestartDetector remembers what a walk of a collection has read, to tell a
// page asked for with a page token that goes on from one where the server
// began the list again (the token expired, AIP-158 lets it): the list's
// first page, and the key of every item read. It is the one rule of both
// the client's Cursor and the screens' paged lists.
//
// Keys are kept as 64-bit hashes in a compact set (8.4–12.7 bytes a key at
// 10⁶ keys, a Go map of strings costs several times that): two keys share
// a hash with a chance of 2⁻⁶⁴ a pair. The first page is kept the same way,
// so what is kept grows with the items read, never with their keys'
// length. Not safe for concurrent use; make one with NewRestartDetector.
type RestartDetector[T any] struct {
	key       func(*T) string
	seed      maphash.Seed
	head      keySet // the first page's keys: one page, a few hundred at most
	headKnown bool
	seen      keySet
	// recent, when set (Window), holds the hashes in seen in the order
	// read, as a ring: past its length the oldest leaves seen, so what is
	// kept stays the same however many items are read.
	recent []uint64
	next   int
}

// Window keeps only the last n items read (0: every one), for a walk
// that keeps nothing else per item (canopy list prints and forgets): an
// item sent again after n others is taken as new, which a server that
// shifts its pages (an insert, a delete) never does; one that repeats old
// pages without end is still stopped by the walk's own bounds.
func (d *RestartDetector[T]) Window(n int) {
	d.seen.Reset()
	d.recent, d.next = nil, 0
	if n > 0 {
		d.recent = make([]uint64, 0, n)
	}
}

// NewRestartDetector makes a detector for items whose key (uid) key gives.
func NewRestartDetector[T any](key func(*T) string) RestartDetector[T] {
	return RestartDetector[T]{key: key, seed: maphash.MakeSeed()}
}

func (d *RestartDetector[T]) hash(key string) uint64 { return maphash.String(d.seed, key) }

// LearnHead takes items as the list's first page (as last read).
func (d *RestartDetector[T]) LearnHead(items []T) {
	d.head.Reset()
	for i := range items {
		d.head.Add(d.hash(d.key(&items[i])))
	}
	d.headKnown = true
}

// HeadKnown reports whether the list's first page is known: without it a
// restart that brings new items first cannot be recognised.
func (d *RestartDetector[T]) HeadKnown() bool { return d.headKnown }

// Add marks an item read and reports whether it was new.
func (d *RestartDetector[T]) Add(it *T) bool {
	h := d.hash(d.key(it))
	if !d.seen.Add(h) {
		return false
	}
	switch {
	case d.recent == nil:
	case len(d.recent) < cap(d.recent):
		d.recent = append(d.recent, h)
	default:
		d.seen.Delete(d.recent[d.next])
		d.recent[d.next] = h
		d.next = (d.next + 1) % len(d.recent)
	}
	return true
}

// Seen reports whether the item of this key was read before.
func (d *RestartDetector[T]) Seen(key string) bool { return d.seen.Has(d.hash(key)) }

// Forget drops the item of this key from those read (it was deleted).
func (d *RestartDetector[T]) Forget(key string) { d.seen.Delete(d.hash(key)) }

// ForgetRead drops every item read, keeping the first page: a new run of
// the same list.
func (d *RestartDetector[T]) ForgetRead() {
	d.seen.Reset()
	d.recent, d.next = d.recent[:0], 0
}

// Reset forgets everything: the list begins anew.
func (d *RestartDetector[T]) Reset() {
	d.ForgetRead()
	d.head.Reset()
	d.headKnown = false
}

// Restarted reports whether a page asked for with a page token is the
// server beginning the list again: it holds an item of the list's first
// page (a continuation cannot, the walk being past it, even when new items
// came first), or it holds only items read before (the walk lost its
// place). An empty page is no restart.
func (d *RestartDetector[T]) Restarted(items []T) bool {
	if len(items) == 0 {
		return false
	}
	allSeen := true
	for i := range items {
		h := d.hash(d.key(&items[i]))
		if d.head.Has(h) {
			return true
		}
		if allSeen && !d.seen.Has(h) {
			allSeen = false
		}
	}
	return allSeen
}
