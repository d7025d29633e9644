// Package keymap declares every action canopy has, once: its keys, its help
// text and its group. The footer hints, the `?` help overlay and the key
// handling of every view read the same declarations, so they cannot
// disagree. Whether an action applies in a view, and why it is disabled when
// it is, comes from the view as a State (see Find).
package keymap

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// Action names one thing a user can do.
type Action string

// Every action. The string is the name used in config key overrides.
const (
	Up       Action = "up"
	Down     Action = "down"
	Top      Action = "top"
	Bottom   Action = "bottom"
	HalfUp   Action = "half-up"
	HalfDown Action = "half-down"
	PageUp   Action = "page-up"
	PageDown Action = "page-down"
	Open     Action = "open"
	Expand   Action = "expand"
	Collapse Action = "collapse"
	Back     Action = "back"
	Focus    Action = "focus"
	Table    Action = "table"
	Sort     Action = "sort"
	Refresh  Action = "refresh"
	Copy     Action = "copy"
	CopyRef  Action = "copy-ref"
	Command  Action = "command"
	Filter   Action = "filter"
	Mark     Action = "mark"
	// MarkFlagged marks every shown row that has the table's flag (deprecated).
	MarkFlagged Action = "mark-flagged"
	// OnlyFlagged shows only rows with the flag, scanning the whole collection.
	OnlyFlagged Action = "only-flagged"
	Delete      Action = "delete"
	Bind        Action = "bind"
	Edit        Action = "edit"
	New         Action = "new"
	Undo        Action = "undo"
	// ServerFilter asks the server for an exact match of the pattern typed.
	ServerFilter Action = "server-filter"
	Help         Action = "help"
	Quit         Action = "quit"

	// Text entry (command line, pickers, editors).
	Accept   Action = "accept"
	Cancel   Action = "cancel"
	Complete Action = "complete"
	Prev     Action = "prev"
	Next     Action = "next"
)

// Group orders actions in the help overlay.
type Group string

// Help groups, in display order.
const (
	Navigation Group = "Navigation"
	Resource   Group = "Resource"
	Global     Group = "Global"
	Input      Group = "Text input"
)

// Groups lists the help groups in display order.
func Groups() []Group { return []Group{Navigation, Resource, Global, Input} }

// Def is the declaration of one action.
type Def struct {
	Action Action
	Keys   []string // as tea.KeyPressMsg.String() spells them: "j", "ctrl+d", "enter", "space"
	Short  string   // footer word: "open"
	Desc   string   // help line: "open the selected node or collection"
	Group  Group
}

// KeyLabel is how the keys are shown: the first two, joined by "/".
func (d Def) KeyLabel() string {
	labels := make([]string, 0, 2)
	for _, k := range d.Keys {
		if len(labels) == 2 {
			break
		}
		labels = append(labels, keyLabel(k))
	}
	return strings.Join(labels, "/")
}

func keyLabel(k string) string {
	switch k {
	case "up":
		return "↑"
	case "down":
		return "↓"
	case "left":
		return "←"
	case "right":
		return "→"
	}
	return k
}

// defaults are the declarations with their default keys.
func defaults() []Def {
	return []Def{
		{Up, []string{"k", "up"}, "up", "move up", Navigation},
		{Down, []string{"j", "down"}, "down", "move down", Navigation},
		{Top, []string{"g", "home"}, "top", "go to the first row", Navigation},
		{Bottom, []string{"G", "end"}, "end", "go to the last row (one skip request, not every page)", Navigation},
		{HalfUp, []string{"ctrl+u"}, "½ up", "half a page up", Navigation},
		{HalfDown, []string{"ctrl+d"}, "½ down", "half a page down", Navigation},
		{PageUp, []string{"pgup", "ctrl+b"}, "page up", "a page up", Navigation},
		{PageDown, []string{"pgdown", "ctrl+f"}, "page down", "a page down", Navigation},
		{Open, []string{"enter"}, "open", "open: a collection as a table, a resource's details, a folder or repo expands", Navigation},
		{Expand, []string{"l", "right"}, "expand", "expand the node (or step into it); in tables, open", Navigation},
		{Collapse, []string{"h", "left"}, "collapse", "collapse the node, or go to its parent; in tables, back", Navigation},
		{Back, []string{"esc"}, "back", "close the innermost thing (input, dialog, table)", Navigation},
		{Focus, []string{"tab"}, "pane", "switch focus between the list and the detail pane", Navigation},
		{Table, []string{"t"}, "table", "open the selected collection as a full-screen table", Resource},
		{Mark, []string{"space"}, "mark", "mark or unmark the row (d and y then act on every marked row)", Resource},
		{MarkFlagged, []string{"V"}, "mark deprecated", "mark every deprecated row shown", Resource},
		{OnlyFlagged, []string{"D"}, "deprecated only", "show only deprecated tags, scanning every page of the list", Resource},
		{Delete, []string{"d"}, "delete", "delete the marked rows (or the one under the cursor), after asking", Resource},
		{Edit, []string{"e"}, "edit", "edit the main field in place (in the detail pane: choose the field)", Resource},
		{New, []string{"n"}, "new", "create a resource in this collection", Resource},
		{Undo, []string{"u"}, "undo", "undo the last edit (sends the old value with the same mask)", Global},
		{Bind, []string{"b"}, "bind", "bind a role: on an identity (or marked ones) pick role and group; on a group, identity and role; on a role, identity and group", Resource},
		{Sort, []string{"s"}, "sort", "cycle the server-side sort order", Resource},
		{Refresh, []string{"r"}, "refresh", "reload (or retry) the selected collection or resource", Resource},
		{Copy, []string{"y"}, "copy", "copy the uid (digest for tags) to the clipboard (OSC 52)", Resource},
		{CopyRef, []string{"Y"}, "copy ref", "copy a tag's pull reference: cgr.dev/<org>/<repo>:<tag>@<digest>", Resource},
		{Filter, []string{"/"}, "filter", "fuzzy filter the loaded rows (!text inverts, re:expr is a regular expression)", Resource},
		{Command, []string{":"}, "command", "command line: :repos :tags :groups :identities :bindings :roles :advisories ...", Global},
		{Help, []string{"?"}, "help", "show or hide this help", Global},
		{Quit, []string{"q", "ctrl+c"}, "quit", "quit canopy (ctrl+c also from text inputs)", Global},
		{Accept, []string{"enter"}, "accept", "accept the input (a filter stays, to navigate its rows)", Input},
		{Cancel, []string{"esc"}, "cancel", "close the input", Input},
		{Complete, []string{"tab"}, "complete", "complete the highlighted suggestion", Input},
		{ServerFilter, []string{"ctrl+s"}, "server filter", "ask the server for an exact match of the pattern (repos and tags: name; advisories: id or text)", Input},
		{Prev, []string{"up", "ctrl+p", "shift+tab"}, "prev", "previous suggestion", Input},
		{Next, []string{"down", "ctrl+n"}, "next", "next suggestion", Input},
	}
}

// KeyMap is the effective set of declarations: the defaults with the user's
// overrides. It is built once at start and read by every view.
type KeyMap struct {
	defs []Def
	idx  map[Action]int
}

// Default is the key map with the default keys.
func Default() *KeyMap {
	k := &KeyMap{defs: defaults(), idx: map[Action]int{}}
	for i, d := range k.defs {
		k.idx[d.Action] = i
	}
	return k
}

// Defs lists every declaration, in help order within each group.
func (k *KeyMap) Defs() []Def { return slices.Clone(k.defs) }

// Def is the declaration of a.
func (k *KeyMap) Def(a Action) (Def, bool) {
	i, ok := k.idx[a]
	if !ok {
		return Def{}, false
	}
	return k.defs[i], true
}

// Is reports whether msg is one of a's keys.
func (k *KeyMap) Is(msg tea.KeyPressMsg, a Action) bool {
	i, ok := k.idx[a]
	return ok && slices.Contains(k.defs[i].Keys, msg.String())
}

// Lookup finds the first action among candidates whose keys include msg.
// A view passes the actions that apply to it, so that one key can mean
// different things in different places (tab: focus, or complete).
func (k *KeyMap) Lookup(msg tea.KeyPressMsg, candidates []State) (State, bool) {
	s := msg.String()
	for _, c := range candidates {
		if i, ok := k.idx[c.Action]; ok && slices.Contains(k.defs[i].Keys, s) {
			return c, true
		}
	}
	return State{}, false
}

// Override replaces the keys of an action (from the user's config).
func (k *KeyMap) Override(a Action, keys []string) error {
	i, ok := k.idx[a]
	if !ok {
		return fmt.Errorf("unknown action %q", a)
	}
	if len(keys) == 0 {
		return fmt.Errorf("action %q: no keys given", a)
	}
	k.defs[i].Keys = slices.Clone(keys)
	return nil
}

// Conflict is one key bound to two actions that can apply at the same time.
type Conflict struct {
	Key     string
	Actions [2]Action
}

// Conflicts lists keys bound to two actions of the same kind (two
// non-input actions, or two input actions); input actions are only active
// in text inputs, so they may share keys with the others.
func (k *KeyMap) Conflicts() []Conflict {
	var out []Conflict
	for i, a := range k.defs {
		for _, b := range k.defs[i+1:] {
			if (a.Group == Input) != (b.Group == Input) {
				continue
			}
			for _, key := range a.Keys {
				if slices.Contains(b.Keys, key) {
					out = append(out, Conflict{Key: key, Actions: [2]Action{a.Action, b.Action}})
				}
			}
		}
	}
	return out
}

// State says whether an action can be used in a view right now, and why not
// when it cannot. A view lists the actions that apply to it; one that is
// listed but not Enabled still shows (dimmed) and explains itself when
// pressed.
type State struct {
	Action  Action
	Enabled bool
	Reason  string // why not, when !Enabled
	Hide    bool   // applies, but not worth a footer hint (shown in help only)
}

// On is an enabled State.
func On(a Action) State { return State{Action: a, Enabled: true} }

// Off is a disabled State with the reason shown to the user.
func Off(a Action, reason string) State { return State{Action: a, Reason: reason} }

// Quiet is an enabled State kept out of the footer.
func Quiet(a Action) State { return State{Action: a, Enabled: true, Hide: true} }

// Find returns the state of a among states.
func Find(states []State, a Action) (State, bool) {
	for _, s := range states {
		if s.Action == a {
			return s, true
		}
	}
	return State{}, false
}
