package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/safe"
	"canopy/theme"
	"canopy/views"
	"canopy/views/cmdline"
	"canopy/views/explorer"
	"canopy/views/help"
)

// Update handles one message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	m.reap()
	if _, key := msg.(tea.KeyPressMsg); !key && len(m.held) > 0 {
		// What the held keys waited for may have come (a table's first page).
		cmd = tea.Batch(cmd, m.settled())
	}
	// Advisory counts asked for while updating start now.
	cmd = tea.Batch(cmd, m.env.advise(), m.endStart())
	if n := len(m.footer()); n != m.footN {
		m.footN = n
		m.layout()
	}
	return m, tea.Batch(cmd, m.maybeTick())
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m.broadcast(views.ResizedMsg{})
	case tea.BackgroundColorMsg:
		if m.opts.Theme.Name == "" || m.opts.Theme.Name == theme.Auto {
			o := m.opts.Theme
			o.Dark = msg.IsDark()
			*m.common.Theme = *theme.New(o)
			m.hintsMemo = hintsMemo{} // drawn in the old colours
			m.layout()
			// What screens drew with the old colours (a detail pane, a
			// rendered readme) is drawn again.
			if m.help != nil {
				m.help.SetSize(m.width, m.bodyHeight())
			}
			return m.broadcast(views.ThemeMsg{})
		}
		return nil
	case tea.KeyPressMsg:
		return m.key(msg)
	case tea.MouseMsg:
		return m.mouse(msg)
	case tea.PasteMsg:
		return m.paste(msg)
	case tickMsg:
		m.frame++
		m.ticking = false
		return m.broadcast(views.TickMsg{Frame: m.frame})
	case clearFlashMsg:
		switch {
		case msg.seq != m.flashSeq:
		case msg.failure:
			m.flashRead = true // it goes at the next key, not before
		default:
			m.flash = ""
		}
		return nil
	case views.FlashMsg:
		return m.setFlash(msg.Text, msg.Error)
	case views.OrderRefusedMsg:
		// Said once per collection and order; lists made later skip it.
		if !m.env.orders.add(msg.Collection, msg.Order) {
			return nil
		}
		return m.setFlash("the server does not sort "+m.env.collectionWords(msg.Collection)+" by "+orderWords(msg.Order)+
			": shown in its default order", false)
	case views.CopyMsg:
		if err := checkCopy(msg.Text, msg.What); err != nil {
			return m.setFlash("not copied: "+err.Error(), true)
		}
		if msg.Secret {
			return tea.Batch(tea.SetClipboard(msg.Text), m.setFlash("copied the "+msg.What+" to the clipboard", false))
		}
		return tea.Batch(tea.SetClipboard(msg.Text),
			m.setFlash(fmt.Sprintf("copied %s %s to the clipboard", msg.What, shorten(msg.Text)), false))
	case openMsg:
		return m.open(msg.screenAsk)
	case heldKeysMsg:
		return m.timedOut(msg)
	case orgsMsg:
		return m.gotOrgs(msg)
	case orgMsg:
		if msg.err != nil {
			m.startErr = msg.err
			return nil
		}
		return m.openOrg(msg.org)
	case cmdline.CloseMsg:
		m.cmd = nil
		m.layout()
		return m.settled()
	case views.JumpMsg:
		// To the screen on top only: the row is one of its rows.
		if top := m.top(); top != nil && m.help == nil {
			return top.Update(msg)
		}
		return nil
	case pluginGoMsg:
		return m.startPlugin(msg.p, msg.jobs, msg.skipped, msg.nouns)
	case pluginRanMsg:
		return m.ran(msg)
	case viewSavedMsg:
		return m.viewSaved(msg)
	case cmdline.RunMsg:
		m.remember(msg)
		m.cmd = nil
		m.layout()
		cmd := m.run(msg)
		return tea.Batch(cmd, m.settled())
	case help.CloseMsg:
		m.help = nil
		if msg.Command && !m.starting {
			return tea.Batch(m.openCommandLine(), m.settled())
		}
		return m.settled()
	}
	if cmd, ok := m.updateData(msg); ok {
		return cmd
	}
	return m.broadcast(msg)
}

// updateData takes what changed in the data the screens show: names
// learned, changes made, deletes and edits done; ok is false for any
// other message.
func (m *Model) updateData(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case advisedMsg:
		return m.env.advised(msg), true
	case learnedMsg:
		m.env.learned(msg)
		return nil, true
	case namesMsg:
		cmd, flash := m.env.gotNames(msg)
		if flash != "" {
			cmd = tea.Batch(cmd, m.setFlash(flash, true))
		}
		return cmd, true
	case namesRetryMsg:
		if msg.seq != m.env.namer(msg.kind).seq {
			return nil, true
		}
		return m.env.retryNames(msg.kind), true
	case views.ChangedMsg:
		// A change to a repo (a tag created or deleted) makes what is
		// known of its tags stale.
		for _, c := range msg.Changes {
			if c.UID != "" {
				m.env.tags.forget(c.UID)
			}
		}
		return m.broadcast(msg), true
	case views.UpdatedMsg:
		m.env.renamed(msg.Item)
		return tea.Batch(m.broadcast(msg), m.env.accessMade(msg.Item)), true
	case searchedMsg:
		answers, again := msg.sets.searched(msg)
		cmds := []tea.Cmd{again}
		for _, a := range answers {
			cmds = append(cmds, m.broadcast(a))
		}
		return tea.Batch(cmds...), true
	case views.CreatedMsg:
		// Counts the shell keeps gain what was made, before any screen
		// draws them again.
		for _, it := range msg.Items {
			if k := m.env.kinds.of(it); k != nil && k.made != nil {
				k.made(m.env, it)
			}
		}
		return tea.Batch(m.broadcast(msg), m.env.accessMade(msg.Items...)), true
	case deletedMsg:
		// Counts the shell keeps lose what went, before any screen
		// draws them again.
		for _, uid := range msg.settled.Done {
			if k := m.env.kinds.of(msg.items[uid]); k != nil && k.gone != nil {
				k.gone(m.env, msg.items[uid])
			}
		}
		var owner tea.Cmd
		if msg.owner != nil {
			owner = m.broadcast(msg.owner)
		}
		var said tea.Cmd
		if msg.said != "" && msg.owner == nil { // a table says it itself
			said = m.setFlash(msg.said, false)
		}
		return tea.Batch(owner, afterDelete(msg), said, m.env.accessGone(msg.settled.Done)), true
	case foundMsg:
		return m.env.foundOnServer(msg), true
	case gotoMsg:
		m.popAll()
		if ex, ok := m.top().(*explorer.Model); ok {
			if msg.path != nil {
				var say tea.Cmd
				if msg.say != "" {
					say = m.setFlash(msg.say, false)
				}
				return tea.Batch(ex.Tree().Reveal(msg.path), say), true
			}
			return ex.Tree().Goto(msg.uid), true
		}
		return nil, true
	case editedMsg:
		m.env.edited(&msg)
		m.env.renamed(msg.result)
		say := msg.flash
		if say == "" {
			say = fmt.Sprintf("%s of %s changed (%s undoes): %s", msg.e.label(), safe.String(msg.e.name), m.common.Key(keymap.Undo),
				msg.e.changeText(msg.old, msg.new))
		}
		return tea.Batch(m.broadcast(views.UpdatedMsg{Item: msg.result}), m.broadcast(views.ChangedMsg{Changes: []views.Change{views.Logged()}}),
			m.setFlash(say, false), m.env.accessMade(msg.result)), true
	case envMsg:
		if e, ok := msg.(ending); ok {
			m.flashOver(e.ends())
		}
		return msg.update(m.env), true
	case undoneMsg:
		cmd := m.env.undone(msg)
		if msg.err == nil {
			// In this Update, not in a command: the row must never show
			// the edit next to a flash that says it was undone.
			m.env.renamed(msg.result)
			cmd = tea.Batch(m.broadcast(views.UpdatedMsg{Item: msg.result}), cmd, m.env.accessMade(msg.result))
		}
		return cmd, true
	}
	return nil, false
}

// paste gives pasted text to what keys go to (the command line, else the
// screen on top), never to every screen: a paste types into one place.
func (m *Model) paste(msg tea.PasteMsg) tea.Cmd {
	switch top := m.top(); {
	case m.cmd != nil:
		return m.cmd.Update(msg)
	case m.help != nil || top == nil:
		return nil
	default:
		return top.Update(msg)
	}
}
