package tree

import (
	"strings"

	"canopy/theme"
	"canopy/views/safe"
	"canopy/views/text"
)

// paints are the tree's styles reduced to escape sequences (see
// theme.Paint): a frame draws up to three styled parts per row.
type paints struct {
	row, deprecated, dim, accent, strong, muted, count, bad, selected, selectedBlur, match theme.Paint
}

func paintsOf(th *theme.Theme) paints {
	p := theme.PaintOf
	return paints{row: p(th.Row), deprecated: p(th.Deprecated), dim: p(th.Dim), accent: p(th.Accent),
		strong: p(th.Strong), muted: p(th.Muted), count: p(th.Count), bad: p(th.Bad),
		selected: p(th.Selected), selectedBlur: p(th.SelectedBlur), match: p(th.Match)}
}

// kindName is a kind as the user reads it.
func kindName(k Kind) string {
	switch k {
	case KindOrg:
		return "organization"
	case KindFolder:
		return "folder"
	case KindRepos:
		return "repos"
	case KindRepo:
		return "repo"
	case KindTag:
		return "tag"
	case KindIdentities:
		return "identities"
	case KindIdentity:
		return "identity"
	case KindBindings:
		return "role bindings"
	case KindBinding:
		return "role binding"
	case KindSubscriptions:
		return "subscriptions"
	case KindSubscription:
		return "subscription"
	case KindAdvisories:
		return "advisories"
	case KindAdvisory:
		return "advisory"
	case KindLibraries:
		return "libraries"
	case KindArtifact:
		return "artifact"
	case KindVersion:
		return "version"
	}
	return "node"
}

// KindName is the user-facing name of a kind.
func KindName(k Kind) string { return kindName(k) }

// View renders the visible rows only.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	var b strings.Builder
	b.Grow((m.width + 16) * m.height)
	rows := m.rowsHigh()
	var extra []string // an editor's lines, pushed under the row it edits
	for r := 0; r < rows; r++ {
		if r > 0 {
			b.WriteByte('\n')
		}
		if len(extra) > 0 {
			b.WriteString(extra[0])
			extra = extra[1:]
			continue
		}
		i := m.offset + r - m.pushed(r)
		if i >= len(m.rows) {
			if i == 0 && m.filtering() {
				b.WriteString(m.paints.muted.Render(text.Fit(" no loaded node matches", m.width, false, "")))
			}
			continue
		}
		if i == m.cursor && m.editing() {
			lines := m.editRows(m.rows[i])
			b.WriteString(lines[0])
			extra = lines[1:]
			continue
		}
		b.WriteString(m.renderRow(m.rows[i], i == m.cursor))
	}
	if m.lineShown() {
		count := ""
		if ms := m.search.Matches(); ms != nil {
			count = text.Count(len(ms)) + "/" + text.Count(len(m.search.Names().Primary)) + " loaded nodes"
		}
		b.WriteByte('\n')
		b.WriteString(m.search.View(m.width, count))
	}
	return b.String()
}

// count is what a node shows at the right: its children's total, or
// loaded/total while they are partly loaded.
func count(n *Node) string {
	l := n.Children
	if l == nil || l.Total() < 0 || n.Kind == KindOrg || n.Kind == KindFolder {
		// A group's children are folders and collections: a count of its
		// subfolders alone would read as a count of everything in it.
		return ""
	}
	total := l.Total()
	out := text.Count(total)
	loaded := l.Contiguous()
	if n.expanded && loaded < total {
		out = text.Count(loaded) + "/" + text.Count(total)
	}
	if n.deprecated > 0 {
		more := ""
		if loaded < total {
			more = "+" // only the loaded tags are counted
		}
		out = text.Count(n.deprecated) + more + " deprecated · " + out
	}
	return out
}

func (m *Model) renderRow(r row, selected bool) string {
	th := m.common.Theme
	ps := &m.paints
	g := th.Glyphs
	indent := strings.Repeat("  ", r.depth)
	if r.kind != rowNode {
		var line string
		style := ps.dim
		switch tailKind(r.node) {
		case rowLoading:
			frames := g.Spinner
			line = indent + "  " + frames[m.frame%len(frames)] + " loading"
		case rowMore:
			l := r.node.Children
			line = indent + "  " + g.More + " " + text.Count(l.Total()-l.Contiguous()) + " more (l to load)"
		case rowFailed:
			err, _ := r.node.Children.Err()
			line = indent + "  " + g.Failed + " failed: " + safe.String(err.Error()) + " (r to retry)"
			style = ps.bad
		default:
			line = indent + "  (none)"
		}
		line = text.Fit(line, m.width, false, g.Ellipsis)
		if selected {
			return m.selStyle().Render(line)
		}
		return style.Render(line)
	}
	n := r.node
	glyph := g.Leaf
	if n.Expandable() {
		glyph = g.Collapsed
		if n.expanded || r.dim {
			glyph = g.Expanded
		}
	}
	right := count(n)
	prefix := indent + glyph + " "
	left := prefix + n.Label
	switch {
	case n.Deprecated:
		left += " [deprecated]"
	case n.deprecated > 0:
		left += " " + g.Deprecated
	}
	avail := m.width
	if right != "" {
		avail -= text.Width(right) + 2
	}
	left = text.Cut(left, max(avail, 1), g.Ellipsis)
	note := ""
	if n.Note != "" && text.Width(left)+2 < avail {
		note = text.Cut("  "+n.Note, avail-text.Width(left), g.Ellipsis)
	}
	pad := max(m.width-text.Width(left)-text.Width(note)-text.Width(right), 0)
	mark := func(s string, p theme.Paint) string {
		if m.filtering() && !r.dim {
			return m.search.Mark(s, len(prefix), ps.match, p.Pre())
		}
		return s
	}
	if selected {
		sel := m.selStyle()
		return sel.Render(mark(left, sel) + note + strings.Repeat(" ", pad) + right)
	}
	style := ps.row
	switch {
	case r.dim:
		style = ps.dim
	case n.Deprecated:
		style = ps.deprecated
	case n.Dim:
		style = ps.dim
	case n.Kind.IsCollection() && n.Children != nil && n.Children.Total() == 0:
		style = ps.dim
	case n.Kind.IsCollection():
		style = ps.accent
	case n.Kind == KindOrg || n.Kind == KindFolder:
		style = ps.strong
	}
	return style.Render(mark(left, style)) + ps.muted.Render(note) + strings.Repeat(" ", pad) + ps.count.Render(right)
}

func (m *Model) selStyle() theme.Paint {
	if m.focused {
		return m.paints.selected
	}
	return m.paints.selectedBlur
}

// pushed is how many editor lines stand above screen row r.
func (m *Model) pushed(r int) int {
	if !m.editing() || m.cursor < m.offset || m.offset+r <= m.cursor {
		return 0
	}
	return min(m.editor.Fields()+1, m.offset+r-m.cursor)
}
