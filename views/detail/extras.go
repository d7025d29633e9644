package detail

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
)

// Debounce is how long the selection must rest before lazy parts are
// fetched, so holding j does not send a request per row.
const Debounce = 150 * time.Millisecond

// extras are the lazily fetched parts of one resource.
type extras struct {
	readme     string // raw
	rendered   string
	renderedW  int
	image      []ArchSize
	related    *Related
	relatedErr error
	relating   bool // Related is on its way
	bindings   []api.RoleBinding
	err        error
	loading    bool
	fetched    bool
	renderBusy bool
}

// dueMsg fires when the selection has rested for Debounce.
type dueMsg struct {
	owner *Model
	seq   int
}

// extrasMsg carries fetched parts.
type extrasMsg struct {
	owner    *Model
	uid      string
	readme   *string
	image    []ArchSize
	bindings []api.RoleBinding
	err      error
}

// relatedMsg carries a tag's relations, which take longer than its image.
type relatedMsg struct {
	owner   *Model
	uid     string
	related *Related
	err     error
}

// renderedMsg carries a readme rendered for a width.
type renderedMsg struct {
	owner *Model
	uid   string
	width int
	out   string
	err   error
	gen   int // the theme generation it was rendered with
}

// needsExtras reports whether the item has lazily fetched parts.
func (m *Model) needsExtras() bool {
	switch m.item.(type) {
	case *api.Repo:
		return m.fetch.Readme != nil
	case *api.Tag:
		return m.fetch.Image != nil
	case *api.Identity:
		return m.fetch.Bindings != nil
	}
	return false
}

// fetchExtras fetches the item's lazy parts in a command.
func (m *Model) fetchExtras() tea.Cmd {
	if !m.needsExtras() {
		return nil
	}
	e := m.entry(m.uid)
	if e.loading || e.fetched {
		return m.renderCmd()
	}
	e.loading = true
	ctx, f, owner, uid, item := m.ctx, m.fetch, m, m.uid, m.item
	var related tea.Cmd
	if t, ok := item.(*api.Tag); ok && f.Related != nil {
		// What is known shows at once; the search completes in its own
		// command, so the image does not wait for it.
		if f.Known != nil {
			if known := f.Known(t); known != nil {
				e.related = known
			}
		}
		e.relating = true
		related = func() tea.Msg {
			rel, err := f.Related(ctx, t)
			return relatedMsg{owner: owner, uid: uid, related: &rel, err: err}
		}
	}
	m.relayout()
	return tea.Batch(func() tea.Msg {
		out := extrasMsg{owner: owner, uid: uid}
		switch it := item.(type) {
		case *api.Repo:
			readme, err := f.Readme(ctx, it.UID)
			out.readme, out.err = &readme, err
		case *api.Tag:
			out.image, out.err = f.Image(ctx, api.ParentUID(it.UID), it.Digest)
		case *api.Identity:
			out.bindings, out.err = f.Bindings(ctx, it.UID)
		}
		return out
	}, related)
}

// renderCmd renders the current repo's readme for the current width in a
// command when it is fetched and not yet rendered at this width.
func (m *Model) renderCmd() tea.Cmd {
	e := m.cache[m.uid]
	if e == nil || e.readme == "" || e.renderBusy || (e.rendered != "" && e.renderedW == m.width) || m.width <= 0 {
		return nil
	}
	e.renderBusy = true
	owner, uid, content, style, width, gen := m, m.uid, e.readme, m.common.Theme.Markdown, m.width, m.themeGen
	return func() tea.Msg {
		out, err := RenderMarkdown(content, style, width)
		return renderedMsg{owner: owner, uid: uid, width: width, out: out, err: err, gen: gen}
	}
}

// entry is the cache entry of uid, made on first use; the cache keeps the
// 64 most recent resources.
func (m *Model) entry(uid string) *extras {
	if e := m.cache[uid]; e != nil {
		return e
	}
	e := &extras{}
	m.cache[uid] = e
	m.order = append(m.order, uid)
	if len(m.order) > 64 {
		delete(m.cache, m.order[0])
		m.order = m.order[1:]
	}
	return e
}

func (m *Model) drop(uid string) {
	delete(m.cache, uid)
}
