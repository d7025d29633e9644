package detail

import (
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/views"
	"canopy/views/paging"
)

// Actions lists scrolling (and, for a page, going back).
func (m *Model) Actions() []keymap.State {
	if m.editor != nil {
		return m.editor.Actions()
	}
	states := m.moves()
	if m.page {
		back := func() tea.Cmd {
			m.closed = true
			return nil
		}
		states = append(states, keymap.On(keymap.Back).Does(back), keymap.Quiet(keymap.Collapse).Does(back))
		states = append(states, m.pageKeys()...)
	}
	if text, _ := m.copyOf(m.item); text != "" {
		states = append(states, keymap.On(keymap.Copy).Does(m.copy))
	}
	img := m.image()
	if img.ref != "" {
		states = append(states, keymap.On(keymap.CopyRef).Does(func() tea.Cmd { return views.Copy(img.ref, img.what) }))
	}
	if img.name != "" && m.fetch.Advisories != nil {
		states = append(states, keymap.On(keymap.Advisories).Does(func() tea.Cmd { return m.fetch.Advisories(m.advisoryNames(img)) }))
	}
	states = append(states, m.resolvedKeys()...)
	if k := m.kind(m.item); k != nil && k.Bindable && m.fetch.Bind != nil {
		states = append(states, m.common.Change(keymap.Bind).Does(func() tea.Cmd { return m.fetch.Bind(m.item) }))
	}
	if len(m.editable()) > 0 {
		states = append(states, m.common.Change(keymap.Edit).Saying(m.editSays()).Does(m.startEdit))
		if m.cursorOn() {
			open := m.common.Change(keymap.Open).Does(m.startEdit)
			open.Hide = true
			states = append(states, open)
		}
	}
	states = append(states, m.readmeEdit()...)
	if k := m.kind(m.item); k != nil && k.Keys != nil {
		states = append(states, k.Keys(m.item)...)
	}
	states = append(states, m.checkKey()...)
	return append(states, keymap.On(keymap.Refresh).Does(m.refresh))
}

// moves scroll the pane; ↑ and ↓ move the field cursor first, while it
// has a field that way.
func (m *Model) moves() []keymap.State {
	states := views.Moves(m.offset, len(m.lines), m.height, func(to int) tea.Cmd {
		m.scroll(to - m.offset)
		return nil
	})
	for i, s := range states {
		if a := s.Action; a == keymap.Up || a == keymap.Down {
			states[i].Run = func() tea.Cmd {
				if m.fieldKey(a) {
					return nil
				}
				return s.Run()
			}
		}
	}
	return states
}

// copy copies what the page's kind says (a secret without showing it).
func (m *Model) copy() tea.Cmd {
	if cmd, ok := m.copySecret(); ok {
		return cmd
	}
	text, what := m.copyOf(m.item)
	if k := m.kind(m.item); k != nil && k.CopySecret && k.Copy != nil {
		if secret, _ := k.Copy(m.item); secret != "" && secret == text {
			return views.CopySecret(text, what)
		}
	}
	return views.Copy(text, what)
}

// refresh forgets what is known of the resource and fetches it again.
func (m *Model) refresh() tea.Cmd {
	if m.fetch.Forget != nil {
		m.fetch.Forget(m.item)
	}
	m.drop(m.uid)
	return m.fetchExtras()
}

// Update handles scrolling keys, the debounce and fetched parts.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	if s, ok := msg.(secretMsg); ok {
		// Taken even while a field is edited: it is said once.
		return m.takeSecret(s)
	}
	if m.editor != nil {
		switch msg.(type) {
		case dueMsg, extrasMsg, renderedMsg, views.TickMsg, views.ResizedMsg, paging.PageMsg, views.ChangedMsg:
		default:
			return m.updateEdit(msg)
		}
	}
	switch msg := msg.(type) {
	case views.DeletedMsg:
		// A page of what was deleted has nothing left to show.
		if m.page && m.uid != "" && slices.Contains(msg.UIDs, m.uid) {
			m.closed = true
		}
		return nil
	case views.UpdatedMsg:
		if m.uidOf(msg.Item) == m.uid && m.uid != "" {
			m.item = msg.Item
			m.relayout()
		}
		return nil
	case dueMsg:
		if msg.owner == m && msg.seq == m.seq {
			return m.fetchExtras()
		}
	case extrasMsg:
		if msg.owner != m {
			return nil
		}
		e := m.entry(msg.uid)
		e.loading, e.fetched, e.err = false, true, msg.err
		if msg.readme != nil {
			e.readme, e.readmeSize = keepReadme(*msg.readme), len(*msg.readme)
		}
		e.image, e.bindings, e.fields, e.vulns = msg.image, msg.bindings, msg.fields, msg.vulns
		if msg.uid == m.uid {
			m.relayout()
			return m.renderCmd()
		}
	case statsMsg:
		m.gotStats(msg)
	case checkedMsg:
		m.gotCheck(msg)
	case resolvedMsg:
		m.gotResolved(msg)
	case relatedMsg:
		if msg.owner != m {
			return nil
		}
		e := m.entry(msg.uid)
		e.relating, e.relatedErr = false, msg.err
		if msg.related != nil {
			e.related = msg.related
		}
		if msg.uid == m.uid {
			m.relayout()
		}
	case views.ThemeMsg:
		// Everything drawn so far has the old colours: lay out again and
		// render the readme anew.
		m.themeGen++
		m.stopRender()
		for _, e := range m.cache {
			e.rendered, e.note, e.renderedW, e.renderBusy = "", "", 0, false
		}
		m.relayout()
		return m.renderCmd()
	case renderedMsg:
		if msg.owner != m || !m.rendered(msg) {
			return nil
		}
		if msg.uid == m.uid {
			m.relayout()
			return m.renderCmd() // the width may have changed meanwhile
		}
	case views.ChangedMsg:
		for _, c := range msg.Changes {
			if c.UID == "" {
				continue
			}
			m.drop(c.UID)
			if c.UID == m.uid {
				return m.fetchExtras()
			}
		}
	case views.TickMsg:
		// A spinner is drawn into the lines: they are drawn again for
		// the next frame while one shows (a collection's total loading,
		// a lazy part on its way), or it would stand still.
		if msg.Frame != m.frame && m.Busy() {
			m.frame = msg.Frame
			m.relayout()
		}
		m.frame = msg.Frame
	case views.ResizedMsg:
		return m.renderCmd() // a readme rendered for the old width
	case paging.PageMsg:
		// A collection's total (or its failure) may have just arrived.
		if _, ok := m.item.(*Summary); ok {
			m.relayout()
		}
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			m.scroll(-3)
		case tea.MouseWheelDown:
			m.scroll(3)
		}
	case tea.KeyPressMsg:
		cmd, _ := views.Press(m.common.Keys, msg, m.Actions())
		return cmd
	}
	return nil
}

func (m *Model) scroll(d int) {
	m.offset = min(max(m.offset+d, 0), max(len(m.lines)-m.height, 0))
}

// advisoryNames are what `a` lists: the image name, and on a tag's page
// every artifact name its advisories have (its versioned packages').
func (m *Model) advisoryNames(img imageOf) (string, []string) {
	names := append([]string{img.name}, img.more...)
	switch n := len(img.more); {
	case n == 1:
		return fmt.Sprintf("%s and %s", img.name, img.more[0]), names
	case n > 1:
		return fmt.Sprintf("%s and %d versioned packages", img.name, n), names
	}
	return img.name, names
}

// maxAdvisoryNames bounds the names one `a` asks for (a request's query).
const maxAdvisoryNames = 64

// image is what the page knows of the image its resource is of (see
// Page.image): nothing for kinds of no image.
func (m *Model) image() imageOf {
	p := m.kindPage()
	if p == nil || p.image == nil || m.item == nil {
		return imageOf{}
	}
	return p.image(m, m.item)
}
