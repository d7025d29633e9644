// Package viewstest drives view models in tests the way Bubble Tea would,
// but synchronously: commands run in order and their messages go back to
// the model. Timers are the caller's to avoid (views deliver debounces by
// message in their own tests).
package viewstest

import (
	"reflect"

	tea "charm.land/bubbletea/v2"
)

// Sequence returns the commands of a tea.Sequence message (its type is not
// exported), or nil for any other message.
func Sequence(msg tea.Msg) []tea.Cmd {
	v := reflect.ValueOf(msg)
	if !v.IsValid() || v.Kind() != reflect.Slice || v.Type().Elem() != reflect.TypeOf(tea.Cmd(nil)) || v.Type() == reflect.TypeOf(tea.BatchMsg(nil)) {
		return nil
	}
	out := make([]tea.Cmd, v.Len())
	for i := range out {
		out[i] = v.Index(i).Interface().(tea.Cmd)
	}
	return out
}

// Drive runs cmd and every command that follows from it. Messages that
// accept returns true for are given to update (whose command is run in
// turn); the others are returned in order, for the test to inspect.
func Drive(cmd tea.Cmd, accept func(tea.Msg) bool, update func(tea.Msg) tea.Cmd) []tea.Msg {
	var other []tea.Msg
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		if seq := Sequence(msg); seq != nil {
			queue = append(queue, seq...)
			continue
		}
		switch msg := msg.(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			if accept(msg) {
				queue = append(queue, update(msg))
			} else {
				other = append(other, msg)
			}
		}
	}
	return other
}

// Key is the key press a user makes by name: "enter", "esc", "tab", "up",
// "down", "space", "ctrl+x", or a single character.
func Key(name string) tea.KeyPressMsg {
	switch name {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	if len(name) > 5 && name[:5] == "ctrl+" {
		return tea.KeyPressMsg{Code: []rune(name[5:])[0], Mod: tea.ModCtrl}
	}
	r := []rune(name)[0]
	return tea.KeyPressMsg{Code: r, Text: name}
}
