package keymap

import (
	"errors"
	"fmt"
	"slices"
)

// Override replaces the keys of an action, spelled as Bubble Tea spells
// them (see NormalizeKey); it refuses a key that names no key, and a
// printable key for an action that is live while a text input has focus.
// Keys other actions have are left to them: see Apply.
func (k *KeyMap) Override(a Action, keys []string) error {
	i, ok := k.idx[a]
	if !ok {
		return fmt.Errorf("unknown action %q", a)
	}
	if len(keys) == 0 {
		return fmt.Errorf("action %q: no keys given", a)
	}
	norm, err := k.check(a, keys)
	if err != nil {
		return err
	}
	k.defs[i].Keys = norm
	return nil
}

// KeyError is a key a user gave an action that cannot be bound.
type KeyError struct {
	Action Action
	Key    string
	Err    error
}

func (e *KeyError) Error() string { return fmt.Sprintf("%s: %v", e.Action, e.Err) }

// check normalizes the keys a user gives action a, without duplicates.
func (k *KeyMap) check(a Action, keys []string) ([]string, error) {
	var out []string
	for _, key := range keys {
		n, err := NormalizeKey(key)
		if err != nil {
			return nil, &KeyError{Action: a, Key: key, Err: err}
		}
		if d, _ := k.Def(a); d.Group == Input && Printable(n) {
			return nil, &KeyError{Action: a, Key: key, Err: fmt.Errorf("%q types a character, and %s is live while you type: "+
				"%s could no longer be typed in the command line, a filter or an editor (use ctrl+ or alt+ or a named key)", n, a, n)}
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// Move is a key a user's binding took from another action's default keys.
type Move struct {
	Key      string
	From, To Action
}

// ClaimError is one key the user bound to two actions that apply at the
// same time.
type ClaimError struct {
	Key     string
	Actions [2]Action
}

func (e *ClaimError) Error() string {
	return fmt.Sprintf("%q is bound to both %s and %s", e.Key, e.Actions[0], e.Actions[1])
}

// Apply sets the user's keys of several actions at once, as Override does
// each. A key the user gives an action is taken from the default keys of
// any other action that applies at the same time (the user said what they
// want; Move lists what moved); one key the user gives two such actions is
// a *ClaimError, and a key that cannot be bound a *KeyError.
func (k *KeyMap) Apply(user map[Action][]string) ([]Move, error) {
	actions := slices.Sorted(func(yield func(Action) bool) {
		for a := range user {
			if !yield(a) {
				return
			}
		}
	})
	norm := map[Action][]string{}
	for _, a := range actions {
		if _, ok := k.idx[a]; !ok {
			return nil, &KeyError{Action: a, Err: fmt.Errorf("unknown action %q", a)}
		}
		if len(user[a]) == 0 {
			return nil, &KeyError{Action: a, Err: errors.New("no keys given")}
		}
		keys, err := k.check(a, user[a])
		if err != nil {
			return nil, err
		}
		norm[a] = keys
	}
	for i, a := range actions {
		for _, b := range actions[i+1:] {
			if !k.together(a, b) {
				continue
			}
			for _, key := range norm[a] {
				if slices.Contains(norm[b], key) {
					return nil, &ClaimError{Key: key, Actions: [2]Action{a, b}}
				}
			}
		}
	}
	var moves []Move
	for i := range k.defs {
		d := &k.defs[i]
		if keys, ok := norm[d.Action]; ok {
			d.Keys = keys
			continue
		}
		kept := d.Keys[:0:0]
		for _, key := range d.Keys {
			taker := Action("")
			for _, a := range actions {
				if k.together(a, d.Action) && slices.Contains(norm[a], key) {
					taker = a
				}
			}
			if taker != "" {
				moves = append(moves, Move{Key: key, From: d.Action, To: taker})
				continue
			}
			kept = append(kept, key)
		}
		d.Keys = kept
	}
	return moves, nil
}

// together reports whether a and b can apply at the same time: two input
// actions, or two of the others (input actions are only live in text
// inputs, where the others are not); a dialog's answer (yes) only with
// the scroll keys beside it (a dialog's y is no table's copy).
func (k *KeyMap) together(a, b Action) bool {
	da, _ := k.Def(a)
	db, _ := k.Def(b)
	if da.Group == Plugins && db.Group == Plugins {
		return false // the kind under the cursor picks one (the config checks their kinds apart)
	}
	if da.Group == Dialog || db.Group == Dialog {
		other := da.Group
		if other == Dialog {
			other = db.Group
		}
		return other == Dialog || other == Navigation
	}
	return (da.Group == Input) == (db.Group == Input)
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
			if !k.together(a.Action, b.Action) {
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

// PluginAction is the action of the plugin named name.
func PluginAction(name string) Action { return Action("plugin:" + name) }

// AddPlugin declares a plugin's action with its key ("" for none): a key
// any action of canopy has (after the user's overrides, text inputs'
// included) is a *ClaimError, since the plugin would take it from that
// action, or be shadowed by it.
func (k *KeyMap) AddPlugin(name, key, desc string) error {
	a := PluginAction(name)
	if _, ok := k.idx[a]; ok {
		return fmt.Errorf("plugin %s is declared twice", name)
	}
	d := Def{Action: a, Short: name, Desc: desc, Group: Plugins}
	if key != "" {
		n, err := NormalizeKey(key)
		if err != nil {
			return &KeyError{Action: a, Key: key, Err: err}
		}
		for _, o := range k.defs {
			if o.Group != Plugins && slices.Contains(o.Keys, n) {
				return &ClaimError{Key: n, Actions: [2]Action{o.Action, a}}
			}
		}
		d.Keys = []string{n}
	}
	k.idx[a] = len(k.defs)
	k.defs = append(k.defs, d)
	return nil
}
