package ui

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/keymap"
	"canopy/theme"
	"canopy/views/viewstest"
)

// harness runs the shell the way Bubble Tea does: commands run in
// goroutines, their messages come back one at a time through Update, and
// the screen is View. Tests wait on what the screen shows, with a deadline.
type harness struct {
	t    *testing.T
	m    *Model
	srv  *emulator.Server
	msgs chan tea.Msg
	quit bool
	// clipboard is the last text sent to the terminal's clipboard (OSC 52).
	clipboard string
}

// patience is how long a test waits for what must come (a screen, an
// answer) before it fails: long enough for a busy machine, which passes
// late and never fails for being slow.
const patience = 2 * time.Minute

// fixedNow is the clock of every test: relative times do not move.
var fixedNow = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

func newEmulator(t *testing.T, opts emulator.Options) (*emulator.Server, *api.Client) {
	t.Helper()
	if opts.AdminToken == "" {
		opts.AdminToken = "test-admin-token"
	}
	srv := fresh(t, opts)
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	client, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: api.StaticToken(srv.AdminToken(), "test"),
		Retry: api.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	return srv, client
}

// start runs the shell on a fresh small emulator, at a size.
func start(t *testing.T, w, h int, org bool) *harness {
	t.Helper()
	srv, client := newEmulator(t, emulator.Options{Seed: 1})
	o := Options{Client: client, Host: "test", Identity: "admin (test)", Theme: theme.Options{Name: theme.Dark},
		Now: func() time.Time { return fixedNow }}
	if org {
		o.Org = srv.OrgUID()
	}
	return startWith(t, srv, o, w, h)
}

func startWith(t *testing.T, srv *emulator.Server, o Options, w, h int) *harness {
	t.Helper()
	if o.Waits == (Waits{}) {
		// Keys typed ahead are held until what they wait for comes, and
		// a flash stays until the next: a test reads them when it gets to.
		o.Waits = Waits{HoldKeys: patience, Flash: patience, FlashError: patience, Render: patience}
	}
	hr := &harness{t: t, m: New(o), srv: srv, msgs: make(chan tea.Msg, 1024)}
	t.Cleanup(hr.m.Close)
	hr.run(hr.m.Init())
	hr.send(tea.WindowSizeMsg{Width: w, Height: h})
	return hr
}

// run executes a command in the background, as the program would.
func (h *harness) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		if msg := cmd(); msg != nil {
			h.msgs <- msg
		}
	}()
}

// send delivers a message to the shell.
func (h *harness) send(msg tea.Msg) {
	switch msg := msg.(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			h.run(c)
		}
		return
	case tea.QuitMsg:
		h.quit = true
		return
	}
	if fmt.Sprintf("%T", msg) == "tea.setClipboardMsg" { // unexported in bubbletea
		h.clipboard = fmt.Sprint(msg)
	}
	if seq := viewstest.Sequence(msg); seq != nil {
		// tea.Sequence: each message arrives after the one before it.
		go func() {
			for _, c := range seq {
				if c == nil {
					continue
				}
				if m := c(); m != nil {
					h.msgs <- m
				}
			}
		}()
		return
	}
	_, cmd := h.m.Update(msg)
	h.run(cmd)
	h.bound()
}

// bound fails the test when a key the screen offers now does nothing: what
// a screen lists and what it does are one value (keymap.State.Run).
func (h *harness) bound() {
	h.t.Helper()
	states := append(h.m.shellActions(), h.m.pluginStates()...)
	if top := h.m.top(); top != nil {
		states = append(states, top.Actions()...)
	}
	if h.m.help != nil {
		states = append(states, h.m.help.Actions()...)
	}
	if unbound := keymap.Unbound(states); len(unbound) > 0 {
		h.t.Errorf("enabled keys that do nothing on %T: %v", h.m.top(), unbound)
	}
}

// typeText types s a rune at a time (":repos", a filter), with no wait
// between keys, as a fast typist does.
func (h *harness) typeText(s string) {
	for _, r := range s {
		h.keys(string(r))
	}
}

// keys types keys: single runes, or names like "enter", "esc", "down".
func (h *harness) keys(keys ...string) {
	for _, k := range keys {
		h.send(keyMsg(k))
	}
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "ctrl+d":
		return tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// screen is the current frame without styling.
func (h *harness) screen() string { return ansi.Strip(h.m.View().Content) }

// waitFor feeds messages to the shell until cond holds for the screen, or
// fails after a deadline with the last screen.
func (h *harness) waitFor(what string, cond func(screen string) bool) string {
	h.t.Helper()
	deadline := time.After(patience)
	for {
		s := h.screen()
		if cond(s) {
			return s
		}
		select {
		case msg := <-h.msgs:
			h.send(msg)
		case <-deadline:
			h.t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
		}
	}
}

// waitText waits until the screen contains every text.
func (h *harness) waitText(texts ...string) string {
	h.t.Helper()
	return h.waitFor(strings.Join(texts, ", "), func(s string) bool {
		for _, t := range texts {
			if !strings.Contains(s, t) {
				return false
			}
		}
		return true
	})
}

// settle delivers the messages already waiting, without blocking.
func (h *harness) settle() {
	for {
		select {
		case msg := <-h.msgs:
			h.send(msg)
		default:
			return
		}
	}
}

// moveTo waits until the tree shows a row with the first word of want,
// then puts the cursor on the row whose details header is want.
func (h *harness) moveTo(want string) {
	h.t.Helper()
	row := strings.Fields(want)[0]
	h.waitFor("a row "+row, func(s string) bool {
		for _, l := range strings.Split(s, "\n") {
			if left, _, ok := strings.Cut(l, "│"); ok && strings.Contains(left, " "+row) {
				return true
			}
		}
		return false
	})
	if strings.Contains(h.screen(), "details: "+want) {
		return
	}
	h.keys("g")
	for range 80 {
		if strings.Contains(h.screen(), "details: "+want) {
			return
		}
		h.keys("j")
	}
	h.t.Fatalf("never reached %q; screen:\n%s", want, h.screen())
}

// line is the first screen line containing s.
func line(screen, s string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

// startBehind runs the shell, with the organization open, on a fresh small
// emulator served behind front (a test's server that fails, drops or
// changes requests before the emulator sees them), its client retrying as
// retry says.
func startBehind(t *testing.T, front func(w http.ResponseWriter, r *http.Request, emu http.Handler), retry api.RetryPolicy,
	width, height int) *harness {
	t.Helper()
	srv := fresh(t, emulator.Options{Seed: 1, AdminToken: "test-admin-token"})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { front(w, r, srv) }))
	t.Cleanup(hs.Close)
	client, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: api.StaticToken(srv.AdminToken(), "test"), Retry: retry})
	if err != nil {
		t.Fatal(err)
	}
	return startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Host: "test", Identity: "admin (test)",
		Theme: theme.Options{Name: theme.Dark}, Now: func() time.Time { return fixedNow }}, width, height)
}
