// Package keymap declares every action canopy has, once: its keys, its help
// text and its group. The footer hints, the `?` help overlay and the key
// handling of every view read the same declarations, so they cannot
// disagree. Whether an action applies in a view, and why it is disabled when
// it is, comes from the view as a State (see Find).
package keymap

import (
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
	// Advisories opens the advisories of the selected repo's image.
	Advisories Action = "advisories"
	// Resolved lists the vulnerabilities resolved in a repo's or tag's
	// image lately, day by day.
	Resolved Action = "resolved"
	// Page opens a row's own page where enter opens something else.
	Page Action = "page"
	// ShowHidden lists the kinds of tags the API hides by default too
	// (epochs, dates, signatures).
	ShowHidden Action = "show-hidden"
	Delete     Action = "delete"
	Bind       Action = "bind"
	Edit       Action = "edit"
	// EditReadme opens a repo's readme in the user's editor.
	EditReadme Action = "edit-readme"
	// RequestAccess asks the owners of the organization of the caller's
	// email domain to let it in.
	RequestAccess Action = "request-access"
	// Access opens who can do what where the selection is: an identity's
	// access in each folder, a folder's or repo's holders, a role's.
	Access Action = "access"
	New    Action = "new"
	Undo   Action = "undo"
	// ServerFilter asks the server for an exact match of the pattern typed.
	ServerFilter Action = "server-filter"
	Help         Action = "help"
	Quit         Action = "quit"

	// Check asks the service to try what is shown against the world
	// outside (an account association's credentials with its clouds).
	Check Action = "check"

	// Yes answers a dialog's question (one that needs no name typed).
	Yes Action = "yes"

	// An identity provider's SCIM provisioning, on its page: its token
	// made (or made anew), revoked, and provisioning turned on or off.
	ScimToken  Action = "scim-token"
	ScimRevoke Action = "scim-revoke"
	ScimSwitch Action = "scim-provisioning"

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
	// Dialog actions are live in a dialog that asks a question, beside
	// the scroll keys and the inputs' accept and cancel.
	Dialog Group = "Dialogs"
	Input  Group = "Text input"
	// Plugins are the user's own tools (the config's plugins:), each an
	// action of its own; which one a key runs depends on the kind under
	// the cursor, so two plugins of different kinds may share a key.
	Plugins Group = "Plugins"
)

// Groups lists the help groups in display order.
func Groups() []Group { return []Group{Navigation, Resource, Plugins, Global, Dialog, Input} }

// Def is the declaration of one action.
type Def struct {
	Action Action
	Keys   []string // as tea.KeyPressMsg.String() spells them: "j", "ctrl+d", "enter", "space"
	Short  string   // footer word: "open"
	Desc   string   // help line: "open the selected node or collection"
	Group  Group
	labels *Labels // nil: UnicodeLabels
}

// KeyLabel is how the keys are shown: the first two, joined by "/".
func (d Def) KeyLabel() string {
	labels := make([]string, 0, 2)
	for _, k := range d.Keys {
		if len(labels) == 2 {
			break
		}
		labels = append(labels, d.labels.of(k))
	}
	return strings.Join(labels, "/")
}

// Key is how a key of a is written in a hint in words ("u undoes", "esc
// cancels"): the first of prefer that a has, else a's first key; "" when a
// has no key. prefer names the key a hint means when it is not the first
// (shift+tab, of prev's up, ctrl+p, shift+tab), so that a rebound action
// is named by its new key and an unbound one by what is left.
func (k *KeyMap) Key(a Action, prefer ...string) string {
	d, ok := k.Def(a)
	if !ok || len(d.Keys) == 0 {
		return ""
	}
	for _, p := range prefer {
		if slices.Contains(d.Keys, p) {
			return d.labels.of(p)
		}
	}
	return d.labels.of(d.Keys[0])
}

// defaults are the declarations with their default keys.
func defaults() []Def {
	return []Def{
		{Action: Up, Keys: []string{"k", "up"}, Short: "up", Desc: "move up", Group: Navigation},
		{Action: Down, Keys: []string{"j", "down"}, Short: "down", Desc: "move down", Group: Navigation},
		{Action: Top, Keys: []string{"g", "home"}, Short: "top", Desc: "go to the first row", Group: Navigation},
		{Action: Bottom, Keys: []string{"G", "end"}, Short: "end", Desc: "go to the last row (one skip request, in a table or the tree; without a total from the server, it follows the pages)", Group: Navigation},
		{Action: HalfUp, Keys: []string{"ctrl+u"}, Short: "½ up", Desc: "half a page up", Group: Navigation},
		{Action: HalfDown, Keys: []string{"ctrl+d"}, Short: "½ down", Desc: "half a page down", Group: Navigation},
		{Action: PageUp, Keys: []string{"pgup", "ctrl+b"}, Short: "page up", Desc: "a page up", Group: Navigation},
		{Action: PageDown, Keys: []string{"pgdown", "ctrl+f"}, Short: "page down", Desc: "a page down", Group: Navigation},
		{Action: Open, Keys: []string{"enter"}, Short: "open", Desc: "open: a collection as a table, a resource's details, a folder or repo expands", Group: Navigation},
		{Action: Expand, Keys: []string{"l", "right"}, Short: "expand", Desc: "expand the node (or step into it); in tables, open", Group: Navigation},
		{Action: Collapse, Keys: []string{"h", "left"}, Short: "collapse", Desc: "collapse the node, or go to its parent; in tables, back", Group: Navigation},
		{Action: Back, Keys: []string{"esc"}, Short: "back", Desc: "close the innermost thing (input, dialog, table)", Group: Navigation},
		{Action: Focus, Keys: []string{"tab"}, Short: "pane", Desc: "switch focus between the list and the detail pane", Group: Navigation},
		{Action: Table, Keys: []string{"t"}, Short: "table", Desc: "on a folder or repo, open what it holds as a full-screen table: a repo's tags, the repos of a folder and the folders under it", Group: Resource},
		{Action: Mark, Keys: []string{"space"}, Short: "mark", Desc: "mark or unmark the row (d and y then act on every marked row)", Group: Resource},
		{Action: MarkFlagged, Keys: []string{"V"}, Short: "mark deprecated", Desc: "mark every deprecated row shown (it says how many rows it could not look at: D scans them all)", Group: Resource},
		{Action: OnlyFlagged, Keys: []string{"D"}, Short: "deprecated only", Desc: "show only deprecated tags, scanning every page of the list", Group: Resource},
		{Action: Advisories, Keys: []string{"a"}, Short: "advisories", Desc: "the advisories of the selected repo (of its image's name)", Group: Resource},
		{Action: Resolved, Keys: []string{"v"}, Short: "resolved", Desc: "on a repo's or tag's page: the vulnerabilities resolved in its image lately, day by day", Group: Resource},
		{Action: Page, Keys: []string{"p"}, Short: "page", Desc: "open the selected row's page where enter opens something else (a repo's: its activity and advisories, where enter opens its tags)", Group: Resource},
		{Action: ShowHidden, Keys: []string{"H"}, Short: "hidden tags", Desc: "show hidden tags too (epochs -r<N>, dates -<yyyymmdd>, signatures sha256-*): reloads the list", Group: Resource},
		{Action: Check, Keys: []string{"c"}, Short: "check", Desc: "on an account association's page: the service tries its AWS, Google Cloud, Azure accounts now", Group: Resource},
		{Action: Delete, Keys: []string{"d"}, Short: "delete", Desc: "delete the marked rows (or the one under the cursor), after asking", Group: Resource},
		{Action: Edit, Keys: []string{"e"}, Short: "edit", Desc: "edit the main field in place (in the detail pane: the field under the cursor, moved with ↑/↓)", Group: Resource},
		{Action: EditReadme, Keys: []string{"E"}, Short: "edit readme", Desc: "on a repo's page: edit its readme in $VISUAL (or $EDITOR) on this terminal, then see the change and the request before it is sent", Group: Resource},
		{Action: RequestAccess, Keys: []string{"A"}, Short: "ask to join", Desc: "when the token sees no organization (or on :join): ask the owners of your email domain's organization to let you in", Group: Resource},
		{Action: Access, Keys: []string{"w"}, Short: "who can", Desc: "who can do what: on an identity (or a binding's, or a row of the access matrix), its access in each folder; on a folder or repo, who can pull, push, delete, bind or manage IAM there; on a role, where it is held", Group: Resource},
		{Action: New, Keys: []string{"n"}, Short: "new", Desc: "create a resource in this collection", Group: Resource},
		{Action: Undo, Keys: []string{"u"}, Short: "undo", Desc: "undo this session's edits, newest first (sends the old value with the same mask)", Group: Global},
		{Action: Bind, Keys: []string{"b"}, Short: "bind", Desc: "bind a role: on an identity (or marked ones) pick role and group; on a group, identity and role; on a role, identity and group", Group: Resource},
		{Action: Sort, Keys: []string{"s"}, Short: "sort", Desc: "cycle the server-side sort order (tags also by version: every tag loads, then canopy sorts them)", Group: Resource},
		{Action: Refresh, Keys: []string{"r"}, Short: "refresh", Desc: "reload (or retry) the selected collection or resource; on the overview, take every count again", Group: Resource},
		{Action: Copy, Keys: []string{"y"}, Short: "copy", Desc: "copy the uid (digest for tags) to the clipboard (OSC 52)", Group: Resource},
		{Action: CopyRef, Keys: []string{"Y"}, Short: "copy ref", Desc: "copy a tag's pull reference: cgr.dev/<org>/<repo>:<tag>@<digest>", Group: Resource},
		{Action: Filter, Keys: []string{"/"}, Short: "filter", Desc: "fuzzy filter the loaded rows (!text inverts, re:expr is a regular expression)", Group: Resource},
		{Action: Command, Keys: []string{":"}, Short: "command", Desc: "command line: :repos :tags :groups :identities :bindings :roles :advisories ... (a filter may follow: :repos ml; :tags python is the tags of the repo python); :save NAME keeps a table as a view; :2500 or :50% goes to that row", Group: Global},
		{Action: Help, Keys: []string{"?"}, Short: "help", Desc: "show or hide the help: every key, then every : command", Group: Global},
		{Action: Quit, Keys: []string{"q", "ctrl+c"}, Short: "quit", Desc: "quit canopy (ctrl+c also from text inputs)", Group: Global},
		{Action: ScimToken, Keys: []string{"T"}, Short: "scim token", Desc: "on a provider's page: its first SCIM token, or a new one after asking; shown once (y copies)", Group: Resource},
		{Action: ScimRevoke, Keys: []string{"X"}, Short: "revoke token", Desc: "on a provider's page: revoke its SCIM token, after asking", Group: Resource},
		{Action: ScimSwitch, Keys: []string{"P"}, Short: "provisioning", Desc: "on a provider's page: turn SCIM provisioning on or off, after asking", Group: Resource},
		{Action: Yes, Keys: []string{"y", "Y"}, Short: "yes", Desc: "answer yes to a dialog's question (enter does too)", Group: Dialog},
		{Action: Accept, Keys: []string{"enter"}, Short: "accept", Desc: "accept the input (a filter stays, to navigate its rows)", Group: Input},
		{Action: Cancel, Keys: []string{"esc"}, Short: "cancel", Desc: "close the input", Group: Input},
		{Action: Complete, Keys: []string{"tab"}, Short: "complete", Desc: "complete the highlighted suggestion", Group: Input},
		{Action: ServerFilter, Keys: []string{"ctrl+s"}, Short: "server filter", Desc: "ask the server for an exact match of the pattern (repos and tags: name; advisories: id or text; in the tree: folders, repos and identities by name, advisories by id, then show it there)", Group: Input},
		{Action: Prev, Keys: []string{"up", "ctrl+p", "shift+tab"}, Short: "prev", Desc: "previous suggestion", Group: Input},
		{Action: Next, Keys: []string{"down", "ctrl+n"}, Short: "next", Desc: "next suggestion", Group: Input},
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

// Bound reports whether msg is a key of any action.
func (k *KeyMap) Bound(msg tea.KeyPressMsg) bool {
	s := msg.String()
	for _, d := range k.defs {
		if slices.Contains(d.Keys, s) {
			return true
		}
	}
	return false
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
