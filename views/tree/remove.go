package tree

// Deleted resources leave the tree in place: their node goes from the
// collection that held it (which counts one less), every other node keeps
// its expansion, and a cursor on what went moves to the next sibling, else
// the previous one, else the parent — never to an unrelated node.

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"canopy/views"
)

// deleted removes the nodes of deleted resources.
func (m *Model) deleted(msg views.DeletedMsg) tea.Cmd {
	sel := m.Selected()
	var target *Node
	removed := false
	for _, uid := range msg.UIDs {
		for _, owner := range slices.Clone(m.lists) {
			gone, pos := childOf(owner, uid)
			if gone == nil {
				continue
			}
			if sel != nil && within(sel, gone) {
				target = neighbour(owner, pos)
				if m.editing() {
					m.editor = nil
				}
			}
			owner.Children.Remove(uid)
			owner.depGen = -1 // count the deprecated children again
			owner.countDeprecated()
			m.lists = slices.DeleteFunc(m.lists, func(n *Node) bool { return within(n, gone) })
			removed = true
		}
	}
	if !removed {
		return nil
	}
	if m.filtering() {
		if target != nil {
			m.clearFilter()
		} else {
			return m.search.Refresh(-1)
		}
	}
	m.rebuild()
	if target != nil {
		if i := m.lineOf(target); i >= 0 {
			m.cursor = i
		}
		m.clamp()
	}
	return tea.Batch(m.prefetch(), m.selectCmd())
}

// childOf is owner's loaded child with this id and its position, or nil.
func childOf(owner *Node, id string) (*Node, int) {
	var found *Node
	at := -1
	owner.Children.Each(func(pos int, c **Node) bool {
		if (*c).ID == id {
			found, at = *c, pos
			return false
		}
		return true
	})
	return found, at
}

// neighbour is where the cursor goes when owner's child at pos goes: the
// next sibling, else the previous one, else owner itself.
func neighbour(owner *Node, pos int) *Node {
	for _, p := range []int{pos + 1, pos - 1} {
		if p < 0 {
			continue
		}
		if c, ok := owner.Children.At(p); ok {
			return *c
		}
	}
	return owner
}

// within reports whether n is gone or below it.
func within(n, gone *Node) bool {
	for p := n; p != nil; p = p.Parent {
		if p == gone {
			return true
		}
	}
	return false
}
