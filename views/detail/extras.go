package detail

import (
	"context"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
)

// Debounce is how long the selection must rest before lazy parts are
// fetched, so holding j does not send a request per row.
const Debounce = 150 * time.Millisecond

// extras are the lazily fetched parts of one resource.
type extras struct {
	readme     string // raw, at most MaxReadme bytes of it
	readmeSize int    // the whole readme's size
	rendered   string
	note       string // why the readme is shown as plain text
	renderedW  int    // the width it was laid out for; 0 before
	renderSeq  int    // the render on its way: others' results are dropped
	image      []ArchSize
	related    *Related
	relatedErr error
	relating   bool // Related is on its way
	bindings   []api.RoleBinding
	fields     []Field // a LoadedPage's fields, as loaded
	err        error
	loading    bool
	fetched    bool
	renderBusy bool
	// A repo's counts (RepoStats), and counting while they are on their way.
	stats    *RepoStats
	statsErr error
	counting bool
	// A check's answer (see WithCheck), checking while it is on its way.
	checked              []Checked
	checkErr             error
	checking, wasChecked bool
	// What a repo's or tag's image had resolved, and resolving while it
	// is on its way; an advisory's vulnerabilities.
	resolved    *Resolved
	resolvedErr error
	resolving   bool
	vulns       []api.VulnerabilityMetadata
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
	fields   []Field
	vulns    []api.VulnerabilityMetadata
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
	owner  *Model
	uid    string
	width  int
	readme Readme
	gen    int // the theme generation it was rendered with
	seq    int // which render it is
}

// kindPage is the page of the item shown, nil for none of a kind.
func (m *Model) kindPage() *Page {
	if k := m.kind(m.item); k != nil {
		return &k.Page
	}
	return nil
}

// needsExtras reports whether the item has lazily fetched parts.
func (m *Model) needsExtras() bool {
	p := m.kindPage()
	return p != nil && p.lazy
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
	p := m.kindPage()
	ctx, owner, uid, item := m.ctx, m, m.uid, m.item
	var related tea.Cmd
	if p.relate != nil {
		related = p.relate(m, e, item)
	}
	m.relayout()
	return tea.Batch(func() tea.Msg {
		out := extrasMsg{owner: owner, uid: uid}
		p.load(ctx, item, &out)
		return out
	}, related)
}

// renderCmd renders the current repo's readme for the current width in a
// command when it is fetched and not yet laid out at this width. One
// render runs at a time: it is stopped when the cursor leaves the repo
// (Show) or another starts, so moving across many repos does not leave
// their renders running.
func (m *Model) renderCmd() tea.Cmd {
	e := m.cache[m.uid]
	if e == nil || e.readme == "" || e.renderBusy || e.renderedW == m.width || m.width <= 0 {
		return nil
	}
	m.stopRender()
	ctx, cancel := context.WithCancel(m.ctx)
	m.renderSeq++
	e.renderBusy, e.renderSeq = true, m.renderSeq
	m.rendering, m.cancelRender = m.uid, cancel
	owner, uid, content, style, width, gen, seq := m, m.uid, e.readme, m.common.Theme.Markdown, m.width, m.themeGen, m.renderSeq
	var budget time.Duration // the readme's page's (RepoSources.ReadmeBudget)
	if p := m.kindPage(); p != nil {
		budget = p.repo.ReadmeBudget
	}
	return func() tea.Msg {
		defer cancel()
		r := RenderMarkdown(ctx, content, style, width, budget)
		return renderedMsg{owner: owner, uid: uid, width: width, readme: r, gen: gen, seq: seq}
	}
}

// stopRender stops the readme render on its way, if any; its result, if it
// still comes, is dropped.
func (m *Model) stopRender() {
	if m.cancelRender == nil {
		return
	}
	m.cancelRender()
	m.cancelRender = nil
	if e := m.cache[m.rendering]; e != nil {
		e.renderBusy = false
	}
}

// rendered stores a render, unless it is not the one on its way.
func (m *Model) rendered(msg renderedMsg) bool {
	e := m.cache[msg.uid]
	if e == nil || !e.renderBusy || msg.seq != e.renderSeq || msg.gen != m.themeGen {
		return false
	}
	e.renderBusy = false
	if msg.seq == m.renderSeq {
		m.cancelRender = nil
	}
	e.rendered, e.note, e.renderedW = msg.readme.Text, msg.readme.Note, msg.width
	m.forgetRenders()
	return true
}

// maxRendered bounds the rendered readmes the cache keeps: the oldest are
// laid out again if shown again.
const maxRendered = 16 << 20

// forgetRenders drops the oldest rendered readmes (not the one shown) while
// the cache holds more than maxRendered of them.
func (m *Model) forgetRenders() {
	total := 0
	for _, e := range m.cache {
		total += len(e.rendered)
	}
	for _, uid := range m.order {
		if total <= maxRendered {
			return
		}
		if e := m.cache[uid]; e != nil && uid != m.uid && !e.renderBusy {
			total -= len(e.rendered)
			e.rendered, e.note, e.renderedW = "", "", 0
		}
	}
}

// keepReadme is what the cache keeps of a readme: at most MaxReadme bytes,
// cut between characters.
func keepReadme(s string) string {
	if len(s) <= MaxReadme {
		return s
	}
	cut := MaxReadme
	for cut > MaxReadme-utf8.UTFMax && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
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
	if uid == m.rendering {
		m.stopRender()
	}
	delete(m.cache, uid)
}
