// Package viewstest drives view models in tests the way Bubble Tea would,
// but synchronously: commands run in order and their messages go back to
// the model. Timers are the caller's to avoid (views deliver debounces by
// message in their own tests).
package viewstest

import (
	tea "charm.land/bubbletea/v2"
)

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
		switch msg := c().(type) {
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
