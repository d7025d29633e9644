// Package views holds what every screen of canopy shares: the Common bag of
// dependencies (theme, keys, clock), the messages views send to the ui shell,
// and the interface the shell drives them through. The screens themselves
// live in sub-packages (tree, table, detail, ...). Views never touch HTTP:
// they receive data and return commands built from the functions the shell
// hands them.
package views

import (
	"errors"
	"reflect"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/safe"
	"canopy/theme"
)

// Common is the explicit dependency bag every component gets: no view reads
// a package-level variable for its styles, keys or clock.
type Common struct {
	Theme *theme.Theme
	Keys  *keymap.KeyMap
	// Now is the clock for relative times; nil means time.Now.
	Now func() time.Time
	// ReadOnly disables every action that changes something, visibly.
	ReadOnly bool
}

// Change is the state of an action that changes something: enabled, or
// disabled with the reason in read-only mode.
func (c Common) Change(a keymap.Action) keymap.State {
	if c.ReadOnly {
		return keymap.Off(a, "read-only mode: nothing can be changed")
	}
	return keymap.On(a)
}

// Key is how a key of a is written in a hint in words ("u undoes"): the
// keymap's, so that a rebound key is named right (see keymap.KeyMap.Key).
func (c Common) Key(a keymap.Action, prefer ...string) string { return c.Keys.Key(a, prefer...) }

// Clock is c.Now, or time.Now.
func (c Common) Clock() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Screen is what the shell needs of a full screen (the explorer, a table,
// a detail page). Screens are pointers and update in place: Update returns
// only the command to run.
type Screen interface {
	Init() tea.Cmd
	Update(msg tea.Msg) tea.Cmd
	View() string
	// SetSize gives the screen its width and height in cells.
	SetSize(width, height int)
	// Actions lists the actions that apply right now, enabled or not.
	Actions() []keymap.State
	// Title names the screen in the header breadcrumb.
	Title() safe.Text
	// Busy reports whether the screen waits for the network (the shell then
	// animates spinners with TickMsg).
	Busy() bool
}

// Fitted is a screen that cuts and pads its own lines: none is ever wider
// than the width SetSize gave it, so the shell does not measure each line of
// every frame again (most of a frame's cost beside the screen's own View).
type Fitted interface{ FitsWidth() }

// TickMsg advances spinners; the shell sends it while a screen is Busy.
type TickMsg struct{ Frame int }

// ChangedMsg tells every screen what a change touched: resources and
// collections (Change). Screens showing them load them again.
type ChangedMsg struct {
	Changes []Change
	// Focus is the uid of an item the change created: a table that
	// reloads puts its cursor there (when its first pages hold it).
	Focus string
}

// CountedMsg says a scan of every child of ID (a repo's tags) found Count
// deprecated among Total: views that only counted the loaded part can show
// the exact number.
type CountedMsg struct {
	ID           string
	Count, Total int
}

// OrderRefusedMsg says the server refused to sort a collection by Order: the
// list that asked is shown in the server's default order. The shell says so
// once and remembers it for the collection.
type OrderRefusedMsg struct{ Collection, Order string }

// RefusedOrder tells an owner of a list about a refusal it fell back from.
func RefusedOrder(collection, order string) tea.Cmd {
	return func() tea.Msg { return OrderRefusedMsg{Collection: collection, Order: order} }
}

// Unavailable is the error of something the server does not offer at all
// (a route it does not have): not a failure to retry, but a fact to show.
type Unavailable struct{ Err error }

// Error is what screens show for it.
func (e *Unavailable) Error() string { return "not available on this server" }

// Unwrap gives the server's answer.
func (e *Unavailable) Unwrap() error { return e.Err }

// IsUnavailable reports whether err says the server does not offer it.
func IsUnavailable(err error) bool {
	var u *Unavailable
	return errors.As(err, &u)
}

// ResizedMsg tells every screen the terminal was resized, after each was
// given its new size: work made for the old width (a readme rendered to
// it) starts again.
type ResizedMsg struct{}

// ThemeMsg says the theme changed (the terminal's background was learned):
// views drop what they rendered with the old colours.
type ThemeMsg struct{}

// DeletedMsg says resources are gone: screens drop their rows.
type DeletedMsg struct{ UIDs []string }

// CreatedMsg carries what creates made in canopy: the server's answers
// (or what a lookup found after an answer was lost). Screens that count a
// kind themselves count these at once; lists load again on ChangedMsg.
type CreatedMsg struct{ Items []any }

// Created tells every screen of items made (nil ones left out; no
// command when none is left).
func Created(items ...any) tea.Cmd {
	var made []any
	for _, it := range items {
		if v := reflect.ValueOf(it); it == nil || v.Kind() == reflect.Pointer && v.IsNil() {
			continue
		}
		made = append(made, it)
	}
	if len(made) == 0 {
		return nil
	}
	return func() tea.Msg { return CreatedMsg{Items: made} }
}

// UnmarkMsg says the work asked of these marked rows is done (a bulk bind
// bound them): tables unmark them, so that the next action on the marks
// does not act on them again, while the rows that failed stay marked.
type UnmarkMsg struct{ UIDs []string }

// JumpMsg asks the screen on top to put its cursor on a row: the Row-th
// (from 1), or Percent of the way down (`:2500`, `:50%`).
type JumpMsg struct {
	Row     int
	Percent bool
}

// JumpIndex is the index (from 0) of the row a jump asks for among rows,
// clamped to them.
func (j JumpMsg) JumpIndex(rows int) int {
	i := j.Row - 1
	if j.Percent {
		i = int(int64(max(rows-1, 0)) * int64(min(j.Row, 100)) / 100)
	}
	return min(max(i, 0), max(rows-1, 0))
}

// UpdatedMsg carries a new version of a resource (the server's answer to a
// change): screens showing it replace their copy.
type UpdatedMsg struct{ Item any }

// Closer is a screen (or a component inside one) that closes itself: esc,
// or a result given. The shell asks after every message and takes a
// closed screen off its stack in that same Update, so the next key reaches
// the screen below, and no message has to travel to say it.
type Closer interface{ Closed() bool }

// Closed reports whether c is a Closer that has closed.
func Closed(c any) bool {
	cl, ok := c.(Closer)
	return ok && cl.Closed()
}

// FlashMsg asks the shell to show a short message in the status line.
type FlashMsg struct {
	Text  string
	Error bool
}

// Flash is a command that shows an informational message.
func Flash(text string) tea.Cmd {
	return func() tea.Msg { return FlashMsg{Text: text} }
}

// FlashError is a command that shows an error message.
func FlashError(text string) tea.Cmd {
	return func() tea.Msg { return FlashMsg{Text: text, Error: true} }
}

// CopyMsg asks the shell to copy text to the clipboard (OSC 52); What says
// what it is ("uid", "digest") for the confirmation flash and the shape
// the shell checks the text has before it copies it. Only Copy makes one.
type CopyMsg struct {
	Text, What string
	// Secret: the status line says what was copied, never the text (an
	// invite's code).
	Secret bool
}

// Copy is a command that asks the shell to copy text to the clipboard:
// what goes there is pasted into shells, so the shell copies nothing that
// holds a control, format or bidi character, nor a uid, digest or pull
// reference without its shape, and says why in the status line.
func Copy(text, what string) tea.Cmd {
	if text == "" {
		return FlashError("nothing to copy here")
	}
	return func() tea.Msg { return CopyMsg{Text: text, What: what} }
}

// CopySecret is Copy for a secret: the status line does not show it.
func CopySecret(text, what string) tea.Cmd {
	if text == "" {
		return FlashError("nothing to copy here")
	}
	return func() tea.Msg { return CopyMsg{Text: text, What: what, Secret: true} }
}

// Disabled answers a key whose action is listed but not enabled: the reason
// goes to the status line, so a disabled key explains itself.
func Disabled(s keymap.State) tea.Cmd {
	if s.Reason == "" {
		return nil
	}
	return FlashError(s.Reason)
}

// Press runs what msg's key does among states: the Run of its state when
// that is enabled, its reason when not. ok is false when no state has the
// key (the caller may take it as text, or the shell say it does not apply).
func Press(keys *keymap.KeyMap, msg tea.KeyPressMsg, states []keymap.State) (tea.Cmd, bool) {
	st, ok := keys.Lookup(msg, states)
	switch {
	case !ok:
		return nil, false
	case !st.Enabled:
		return Disabled(st), true
	case st.Run == nil:
		return nil, true
	}
	return st.Run(), true
}

// Moves are the quiet bindings that move a cursor among n rows of which
// page are visible: each runs to with where it goes (see Step).
func Moves(cursor, n, page int, to func(int) tea.Cmd) []keymap.State {
	actions := []keymap.Action{keymap.Up, keymap.Down, keymap.Top, keymap.Bottom,
		keymap.HalfUp, keymap.HalfDown, keymap.PageUp, keymap.PageDown}
	states := make([]keymap.State, len(actions))
	for i, a := range actions {
		where, _ := Step(a, cursor, n, page)
		states[i] = keymap.Quiet(a).Does(func() tea.Cmd { return to(where) })
	}
	return states
}

// Step is where a navigation action moves a cursor among n rows of which
// page are visible; ok is false when a is not a navigation action. The
// result is not clamped: each view keeps its own bounds.
func Step(a keymap.Action, cursor, n, page int) (int, bool) {
	half := max(page/2, 1)
	switch a {
	case keymap.Up:
		return cursor - 1, true
	case keymap.Down:
		return cursor + 1, true
	case keymap.Top:
		return 0, true
	case keymap.Bottom:
		return n - 1, true
	case keymap.HalfUp:
		return cursor - half, true
	case keymap.HalfDown:
		return cursor + half, true
	case keymap.PageUp:
		return cursor - page, true
	case keymap.PageDown:
		return cursor + page, true
	}
	return cursor, false
}

// NewInput is a text input styled by the theme, with a steady cursor: a
// blinking one would redraw the screen twice a second for nothing. It
// takes at most InputMax characters (see Refused).
func NewInput(c Common, prompt, placeholder string) textinput.Model {
	in := textinput.New()
	in.CharLimit = InputMax
	in.Prompt = prompt
	in.Placeholder = placeholder
	th := c.Theme
	st := in.Styles()
	st.Focused.Prompt, st.Focused.Text, st.Focused.Placeholder = th.Prompt, th.Value, th.Dim
	st.Blurred = st.Focused
	st.Cursor.Blink = false
	in.SetStyles(st)
	return in
}

// CollectionID is how the tree names the node of a collection of one kind
// in a scope ("repos" of a folder's uid): made here only, so every screen
// names it alike.
func CollectionID(nouns, scope string) string { return nouns + ":" + scope }

// A Change is one thing a write touched: a resource by its uid, a
// collection of one kind (Nouns, as the kind's descriptor names them) in a
// scope, or the session's log of changes.
type Change struct {
	UID          string
	Nouns, Scope string
	Log          bool
}

// Changed is a change to the resource uid (a repo whose tags changed, a
// folder whose contents did).
func Changed(uid string) Change { return Change{UID: uid} }

// ChangedIn is a change to the collection of nouns in scope.
func ChangedIn(nouns, scope string) Change { return Change{Nouns: nouns, Scope: scope} }

// Logged is the change every write makes: the session's log grew.
func Logged() Change { return Change{Log: true} }

// Names reports whether c is the tree node id: its resource, or its
// collection.
func (c Change) Names(id string) bool {
	return c.UID != "" && c.UID == id || c.Nouns != "" && CollectionID(c.Nouns, c.Scope) == id
}
