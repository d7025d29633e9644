package form

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"canopy/keymap"
	"canopy/theme"
	"canopy/views"
)

// described is a form with one description field of at most 512
// characters (given value, if any) whose Validate counts the characters
// it is given: the work every keystroke does.
func described(value string, work *int) *Model {
	m := New(views.Common{Theme: theme.New(theme.Options{Name: theme.Dark}), Keys: keymap.Default()}, Config{
		Title: "Edit", Page: true, Ctx: context.Background(),
		Fields: []Field{{Key: "description", Label: "description", Value: value, Max: 512, Validate: func(v string) error {
			*work += len(v)
			return nil
		}}},
		Submit: func(context.Context, map[string]string) (any, error) { return nil, nil },
		Done:   func(any) tea.Cmd { return nil },
	})
	m.SetSize(120, 20)
	m.Init()
	return m
}

// typeKeys types n characters, a key at a time, as a flood of keys does.
func typeKeys(m *Model, n int) {
	for range n {
		m.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
	}
}

func backspace(m *Model) { m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace}) }

// The 513th character of a field of at most 512 is refused as it is
// typed, and the field says so at once (before, it took 16,000 and only
// then said "at most 512").
func TestAFieldRefusesTheKeyPastItsMax(t *testing.T) {
	var work int
	m := described("", &work)
	typeKeys(m, 512)
	if s := screen(m); strings.Contains(s, "at most") {
		t.Fatalf("512 characters are said to be too many:\n%s", s)
	}
	typeKeys(m, 1)
	if got := len(m.Values()["description"]); got != 512 {
		t.Errorf("the field holds %d characters after the 513th key, want 512", got)
	}
	if s := screen(m); !strings.Contains(s, "at most 512 characters: the rest was not typed") {
		t.Errorf("the refused key is not said:\n%s", s)
	}
	if len(m.invalid) != 0 {
		t.Errorf("a full field is not invalid: %v", m.invalid)
	}
	// A paste takes what fits, and says the rest was not typed.
	backspace(m)
	backspace(m)
	if s := screen(m); strings.Contains(s, "at most") {
		t.Errorf("still said after making room:\n%s", s)
	}
	m.Update(tea.PasteMsg{Content: "abcdef"})
	if v := m.Values()["description"]; !strings.HasSuffix(v, "xab") || len(v) != 512 {
		t.Errorf("after the paste the field ends %q (%d characters)", v[len(v)-4:], len(v))
	}
	if s := screen(m); !strings.Contains(s, "at most 512 characters") {
		t.Errorf("the cut paste is not said:\n%s", s)
	}
	// What was cut is not sent: more was typed or pasted than the field
	// holds, and the rest may have been what was meant. Edited, it is.
	enter := tea.KeyPressMsg{Code: tea.KeyEnter}
	if m.Update(enter); m.sending {
		t.Error("a field cut at its limit was sent")
	}
	if s := screen(m); !strings.Contains(s, "fix the fields marked") {
		t.Errorf("the form does not say why it does not send:\n%s", s)
	}
	backspace(m)
	if m.Update(enter); !m.sending {
		t.Errorf("the field edited after its cut was not sent:\n%s", screen(m))
	}
}

// Typing into a field costs the same per key however many keys come: the
// work of 32,000 keys is not 16 times that of 8,000 (every key validated
// the whole value, so it was).
func TestTypingIntoAFieldCostsLinearly(t *testing.T) {
	work := map[int]int{}
	for _, n := range []int{8_000, 32_000} {
		var w int
		m := described("", &w)
		w = 0
		typeKeys(m, n)
		work[n] = w
	}
	if ratio := float64(work[32_000]) / float64(work[8_000]); ratio > 4.5 {
		t.Errorf("32,000 keys validated %d characters, 8,000 keys %d: %.1f times (linear is at most 4)",
			work[32_000], work[8_000], ratio)
	}
}

// A value given longer than the field takes is shown whole, never cut (it
// would be sent cut): keys that add are refused, keys that delete work.
func TestALongValueGivenIsKept(t *testing.T) {
	var work int
	long := strings.Repeat("d", 600)
	m := described(long, &work)
	if got := m.Values()["description"]; got != long {
		t.Fatalf("the value given was cut to %d characters", len(got))
	}
	typeKeys(m, 3)
	if got := m.Values()["description"]; got != long {
		t.Errorf("keys past the limit were taken: %d characters", len(got))
	}
	backspace(m)
	if got := m.Values()["description"]; len(got) != 599 {
		t.Errorf("backspace: %d characters, want 599", len(got))
	}
}
