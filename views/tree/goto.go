package tree

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/views"
)

// Goto puts the cursor on the folder (or organization) with this uid,
// expanding the path to it. Folder uids are hierarchical (a folder's uid
// extends its parent's), so the path is known before its nodes are.
func (m *Model) Goto(uid string) tea.Cmd {
	var path []string
	for i := range len(uid) {
		if uid[i] == '/' {
			path = append(path, uid[:i])
		}
	}
	return m.Reveal(append(path, uid))
}

// Reveal puts the cursor on the node at the end of path (the ids from a
// root down to it: folders, a folder's collection, the resource), opening
// every node on the way. Levels not loaded yet are loaded page by page,
// and the walk goes on as they arrive; it stops when a level, loaded to
// its end, does not hold the next id.
func (m *Model) Reveal(path []string) tea.Cmd {
	if m.search != nil && m.search.Active() {
		m.search.Clear()
		m.rebuild()
	}
	m.path, m.openEnd, m.quiet, m.restoring = path, false, false, nil
	return m.seek()
}

// restorePath is a path Restore walks: to a branch to open, or to the
// cursor.
type restorePath struct {
	ids  []string
	open bool
}

// Restore reopens the branch at the end of each path of open, then puts
// the cursor on the node at the end of cursor: each path walked as Reveal
// walks one (levels loaded as they are needed), one after another. A path
// that no longer leads anywhere is dropped quietly; a key stops it all.
func (m *Model) Restore(open [][]string, cursor []string) tea.Cmd {
	m.restoring = nil
	for _, p := range open {
		m.restoring = append(m.restoring, restorePath{ids: p, open: true})
	}
	if len(cursor) > 0 {
		m.restoring = append(m.restoring, restorePath{ids: cursor})
	}
	m.path = nil
	return m.nextRestore()
}

// nextRestore starts the next path Restore has, when none is walked.
func (m *Model) nextRestore() tea.Cmd {
	if len(m.restoring) == 0 || m.path != nil {
		return nil
	}
	r := m.restoring[0]
	m.restoring = m.restoring[1:]
	m.path, m.openEnd, m.quiet = r.ids, r.open, true
	return m.seek()
}

// Opened are the paths (ids from a root down) of the open nodes none of
// whose children is open, in tree order, at most max: what Restore takes
// to open them all again.
func (m *Model) Opened(max int) [][]string {
	var out [][]string
	var walk func(n *Node) bool
	walk = func(n *Node) bool {
		if !n.expanded || len(out) >= max {
			return false
		}
		deeper := false
		each := func(c *Node) {
			if walk(c) {
				deeper = true
			}
		}
		if n.Children != nil {
			n.Children.Each(func(_ int, c **Node) bool {
				each(*c)
				return len(out) < max
			})
		}
		for _, c := range n.Static {
			each(c)
		}
		if !deeper && len(out) < max {
			out = append(out, pathTo(n))
		}
		return true
	}
	for _, r := range m.cfg.Roots {
		walk(r)
	}
	return out
}

// CursorPath is the path (ids from a root down) of the node under the
// cursor, nil when there is none.
func (m *Model) CursorPath() []string {
	if n := m.Selected(); n != nil {
		return pathTo(n)
	}
	return nil
}

// pathTo is the ids from a root down to n.
func pathTo(n *Node) []string {
	var out []string
	for ; n != nil; n = n.Parent {
		out = append([]string{n.ID}, out...)
	}
	return out
}

// seek walks from the roots along m.path as far as loaded nodes go.
func (m *Model) seek() tea.Cmd {
	if len(m.path) == 0 {
		return nil
	}
	var cmds []tea.Cmd
	level, from := m.cfg.Roots, (*Node)(nil)
	for i, id := range m.path {
		next := childWithID(level, from, id)
		if next == nil {
			m.path = nil // not among the roots, or the parent changed
			return tea.Batch(append(cmds, m.nextRestore())...)
		}
		last := i == len(m.path)-1
		// A folder at the end is opened (one goes to a folder to see what
		// is in it), but not the cursor a session left on a closed one;
		// a session's branch is opened whatever it is.
		opens := next.Kind != nil && next.Kind.Group && !m.quiet || m.openEnd && (next.Children != nil || len(next.Static) > 0)
		if !last && !next.expanded || last && opens && !next.expanded {
			// Opened on the way; a folder at the end too: one goes to a
			// folder to see what is in it (a repo found stays closed).
			cmds = append(cmds, m.expand(next))
			m.rebuild()
		}
		if last {
			m.path = nil
			m.reveal(next)
			return tea.Batch(append(cmds, m.prefetch(), m.selectCmd(), m.nextRestore())...)
		}
		if found, wait := m.within(next, m.path[i+1]); !found {
			m.reveal(next)
			if !wait {
				m.path = nil // loaded to the end and not there
				if m.quiet {
					return tea.Batch(append(cmds, m.selectCmd(), m.nextRestore())...)
				}
				return tea.Batch(append(cmds, m.selectCmd(), views.Flash(string(next.Label)+" does not hold it (any more?): "+
					m.common.Key(keymap.Refresh)+" reloads it"))...)
			}
			return tea.Batch(append(cmds, m.walkOn(next), m.selectCmd())...)
		}
		level, from = next.Static, next
	}
	return tea.Batch(cmds...)
}

// childWithID is the node with this id among level and the loaded
// children of from.
func childWithID(level []*Node, from *Node, id string) *Node {
	for _, n := range level {
		if n.ID == id {
			return n
		}
	}
	var found *Node
	if from != nil && from.Children != nil {
		from.Children.Each(func(_ int, c **Node) bool {
			if (*c).ID == id {
				found = *c
			}
			return found == nil
		})
	}
	return found
}

// within reports whether n holds a node with this id as loaded now, and
// when not, whether more of n's children may still bring it.
func (m *Model) within(n *Node, id string) (found, wait bool) {
	if childWithID(n.Static, n, id) != nil {
		return true, false
	}
	return false, n.Children != nil && !n.Children.Done()
}

// walkOn asks for the next page of n's children that is not loaded, in
// order (where the id sits is not known).
func (m *Model) walkOn(n *Node) tea.Cmd {
	l := n.Children
	if l == nil || l.Total() < 0 {
		return nil // the first page is on its way
	}
	return l.Ensure(l.Contiguous(), 0)
}

// Find is the loaded node with this uid, or nil.
func (m *Model) Find(uid string) *Node {
	level := m.cfg.Roots
	for len(level) > 0 {
		var next []*Node
		for _, n := range level {
			if n.ID == uid {
				return n
			}
			if !strings.HasPrefix(uid, n.ID+"/") && !strings.Contains(n.ID, ":") {
				continue // uids are hierarchical: uid is not below n (collections have none of their own)
			}
			if l := n.Children; l != nil {
				l.Each(func(_ int, c **Node) bool {
					next = append(next, *c)
					return true
				})
			}
			next = append(next, n.Static...)
		}
		level = next
	}
	return nil
}
