package keymap

// State says whether an action can be used in a view right now, and why not
// when it cannot. A view lists the actions that apply to it; one that is
// listed but not Enabled still shows (dimmed) and explains itself when
// pressed.
type State struct {
	Action  Action
	Enabled bool
	Reason  string // why not, when !Enabled
	Hide    bool   // applies, but not worth a footer hint (shown in help only)
	// Short, when set, replaces the declaration's footer word here: what
	// the key does in this place ("clear filter" for esc in a filter).
	Short string
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
