package keymap

import tea "charm.land/bubbletea/v2"

// State is one key binding of a view right now, as lazygit's Binding: the
// action (its keys and words come from its Def), whether it can be used,
// why not when it cannot, and what it does. A view lists the actions that
// apply to it; one that is listed but not Enabled still shows (dimmed) and
// explains itself when pressed. A pressed key runs the Run of the state
// listed, so what a view offers and what it does are one value and cannot
// drift apart.
type State struct {
	Action  Action
	Enabled bool
	Reason  string // why not, when !Enabled
	Hide    bool   // applies, but not worth a footer hint (shown in help only)
	// Short, when set, replaces the declaration's footer word here: what
	// the key does in this place ("clear filter" for esc in a filter).
	Short string
	// Run is what the key does here; an Enabled state has one (Unbound
	// finds those that do not).
	Run func() tea.Cmd
}

// Shows reports whether s and o look the same in a footer or in help:
// everything but what they run.
func (s State) Shows(o State) bool {
	return s.Action == o.Action && s.Enabled == o.Enabled && s.Reason == o.Reason && s.Hide == o.Hide && s.Short == o.Short
}

// Does is s doing run.
func (s State) Does(run func() tea.Cmd) State {
	s.Run = run
	return s
}

// Unbound are the actions of states that are enabled but do nothing: a
// view's list and what it does have drifted apart.
func Unbound(states []State) []Action {
	var out []Action
	for _, s := range states {
		if s.Enabled && s.Run == nil {
			out = append(out, s.Action)
		}
	}
	return out
}

// ShortOf is the footer word of s: its own, or the declaration's.
func (s State) ShortOf(d Def) string {
	if s.Short != "" {
		return s.Short
	}
	return d.Short
}

// Saying is s with its own footer word.
func (s State) Saying(short string) State {
	s.Short = short
	return s
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
