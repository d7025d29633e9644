package views

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"canopy/text"
)

// InputMax is the most characters a text input takes unless its owner
// gives it another limit (CharLimit). An input's keystroke costs in
// proportion to what it holds (the input measures and copies its whole
// value), so without a limit a flood of typed keys — a paste into a
// terminal without bracketed paste — costs the square of its length.
const InputMax = 1000

// Fill follows an input's limit: it refuses at once what does not fit,
// instead of taking everything and complaining afterwards, and says so
// once per time the input fills up (a flood of refused keys is not a flood
// of messages).
type Fill struct {
	said bool // the input is full and the user was told
}

// Overflow reports whether msg would type text into in that does not all
// fit under in.CharLimit (over), and whether none of it does (full: the
// key changes nothing and need not reach the input, which would measure
// its whole value for nothing). The input itself takes what fits; the
// owner says so when over is true (see Fill).
func Overflow(in textinput.Model, msg tea.Msg) (over, full bool) {
	if in.CharLimit <= 0 || !in.Focused() {
		return false, false
	}
	var typed string
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if bound(in.KeyMap, msg) {
			return false, false // an edit or a move: the input types nothing
		}
		typed = msg.Text
	case tea.PasteMsg:
		typed = msg.Content
	default:
		return false, false
	}
	n := typedLen(typed)
	if n == 0 {
		return false, false
	}
	room := in.CharLimit - utf8.RuneCountInString(in.Value())
	return n > room, room <= 0
}

// bound reports whether k is one of the input's own keys (as its Update
// tries them before typing a key's text).
func bound(km textinput.KeyMap, k tea.KeyPressMsg) bool {
	return key.Matches(k, km.CharacterForward, km.CharacterBackward, km.WordForward, km.WordBackward,
		km.DeleteWordBackward, km.DeleteWordForward, km.DeleteAfterCursor, km.DeleteBeforeCursor,
		km.DeleteCharacterBackward, km.DeleteCharacterForward, km.LineStart, km.LineEnd, km.Paste,
		km.AcceptSuggestion, km.NextSuggestion, km.PrevSuggestion)
}

// Full reports whether in holds as many characters as it takes.
func Full(in textinput.Model) bool {
	return in.CharLimit > 0 && utf8.RuneCountInString(in.Value()) >= in.CharLimit
}

// typedLen is how many characters the input keeps of s: it drops control
// characters and invalid bytes, and turns tabs and line ends into spaces.
func typedLen(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
		case r == '\t' || r == '\r' || r == '\n':
			n++
		case unicode.IsControl(r):
		default:
			n++
		}
	}
	return n
}

// Update tells the user, once until the input has room again, that what
// (the filter, a field's name) takes at most in.CharLimit characters when
// refused is true (see Overflow); it returns the flash to show, or nil.
func (f *Fill) Update(in textinput.Model, refused bool, what string) tea.Cmd {
	if !refused {
		if f.said && !Full(in) {
			f.said = false
		}
		return nil
	}
	if f.said {
		return nil
	}
	f.said = true
	return FlashError(Limit(what, in.CharLimit))
}

// Limit is what a refused keystroke says: "the filter takes at most 1,000
// characters: the rest was not typed".
func Limit(what string, limit int) string {
	return fmt.Sprintf("%s takes at most %s characters: the rest was not typed", what, text.Count(limit))
}
