package paging

// What a List's owner reads and changes of the loaded items as a whole:
// the runs for a filter, removals and replacements, a full scan.

import (
	tea "charm.land/bubbletea/v2"
)

// Run is a run of loaded items: its first position and its items.
type Run[T any] struct {
	Start int
	Items []T
}

// Runs returns the items held as runs in position order (a page each, not
// overlapping; each item of a thinned page a run of its own). The slices
// are shared, not copied: items already loaded are never written again (a
// removal or replacement copies its page), so a command may read them
// while the list takes more pages.
func (l *List[T]) Runs() []Run[T] {
	n := 0
	for i := range l.windows {
		for _, c := range l.windows[i].chunks {
			if c.span > 0 {
				n += len(c.items)
			} else {
				n++
			}
		}
	}
	out := make([]Run[T], 0, n)
	for i := range l.windows {
		out = l.windows[i].runs(out)
	}
	return out
}

// runs appends the window's items as runs (see Runs) to out.
func (w *window[T]) runs(out []Run[T]) []Run[T] {
	for _, c := range w.chunks {
		if c.span == 0 {
			out = append(out, Run[T]{Start: w.start + c.at, Items: c.items[:len(c.items):len(c.items)]})
			continue
		}
		for i := range c.items {
			out = append(out, Run[T]{Start: w.start + c.at + int(c.offs[i]), Items: c.items[i : i+1 : i+1]})
		}
	}
	return out
}

// Added is the range of positions the last accepted page filled (empty
// when it brought nothing new), so an owner can look at new items only.
func (l *List[T]) Added() (start, end int) { return l.added.start, l.added.end }

// AddedRuns are the items the last accepted page holds, as runs (see
// Runs), when adding it changed nothing else (it overlapped no loaded
// row): an owner that keeps something per row (a filter's names) adds
// these rows to it rather than take everything again. ok is false when it
// must take everything again (or the page brought nothing).
func (l *List[T]) AddedRuns() ([]Run[T], bool) { return l.addedRuns, l.addedClean }

// Remove drops the item with this key (it was deleted): the positions after
// it move up by one and the total shrinks. It reports whether it was held.
func (l *List[T]) Remove(key string) bool {
	wi, i := l.find(key)
	if wi < 0 {
		return false
	}
	w := &l.windows[wi]
	w.removeAt(i)
	for k := wi + 1; k < len(l.windows); k++ {
		l.windows[k].start--
	}
	if w.n == 0 {
		l.windows = append(l.windows[:wi], l.windows[wi+1:]...)
	}
	if l.total > 0 {
		l.total--
	}
	l.read.Forget(key)
	return true
}

// Position is the list position of the loaded item with this key, -1 for
// none.
func (l *List[T]) Position(key string) int {
	wi, i := l.find(key)
	if wi < 0 {
		return -1
	}
	return l.windows[wi].start + i
}

// find is the window and offset of the item with this key, or -1, -1.
func (l *List[T]) find(key string) (wi, i int) {
	wi, i = -1, -1
	for k := range l.windows {
		l.windows[k].each(func(pos int, it *T) bool {
			if l.key(it) == key {
				wi, i = k, pos-l.windows[k].start
				return false
			}
			return true
		})
		if wi >= 0 {
			break
		}
	}
	return wi, i
}

// Scan asks for up to n missing pages at once, anywhere in the list, so a
// whole collection loads with bounded parallelism (for a client-side filter
// that must see every item). It returns nil once everything is loaded or
// asked for.
func (l *List[T]) Scan(n int) tea.Cmd {
	if l.total < 0 || l.err != nil || l.refreshing {
		return nil
	}
	var cmds []tea.Cmd
	p := 0
	for len(l.pending) < n && p < l.total {
		switch w := l.windowAt(p); {
		case w != nil:
			p = w.end()
		case l.Loading(p):
			p++
			for p < l.total && l.Loading(p) {
				p++
			}
		default:
			cmds = append(cmds, l.ensureAt(p))
			p++
		}
	}
	return tea.Batch(cmds...)
}

// Replace puts a new version of an item (same key) where the old one is,
// and reports whether it was loaded. Its page is copied before the write:
// a snapshot being read in a command keeps the old version.
func (l *List[T]) Replace(key string, it T) bool {
	wi, i := l.find(key)
	if wi < 0 {
		return false
	}
	l.windows[wi].replaceAt(i, it)
	return true
}
