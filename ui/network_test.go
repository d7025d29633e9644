package ui

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/theme"
	"canopy/views/paging"
)

// gate is the network of these tests: every request waits until a virtual
// clock, moved by the test, has passed its arrival plus a latency. Holding
// j at 30 keys/s through 5,000 rows takes 167 s of real time; on the
// virtual clock it takes what the machine needs, and the order of keys and
// answers is the one a 50 ms network gives (an answer arrives 1.5 keys after
// its request), the same on every run.
type gate struct {
	base    http.RoundTripper
	latency time.Duration
	wake    chan struct{} // a request arrived

	mu      sync.Mutex
	now     time.Duration
	held    []heldRequest
	arrived int // requests for tagsPath
}

type heldRequest struct {
	due     time.Duration
	release chan struct{}
}

func newGate(latency time.Duration) *gate {
	return &gate{base: http.DefaultTransport, latency: latency, wake: make(chan struct{}, 1)}
}

func (g *gate) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Path != tagsPath {
		// Other screens' requests are not what is measured.
		return g.base.RoundTrip(req)
	}
	h := heldRequest{release: make(chan struct{})}
	g.mu.Lock()
	h.due = g.now + g.latency
	g.held = append(g.held, h)
	g.arrived++
	g.mu.Unlock()
	select {
	case g.wake <- struct{}{}:
	default:
	}
	select {
	case <-h.release:
	case <-req.Context().Done():
		return nil, req.Context().Err()
	}
	return g.base.RoundTrip(req)
}

// advance moves the clock to t and lets through the requests due by then;
// it returns how many.
func (g *gate) advance(t time.Duration) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.now = t
	n := 0
	kept := g.held[:0]
	for _, h := range g.held {
		if h.due <= t {
			close(h.release)
			n++
		} else {
			kept = append(kept, h)
		}
	}
	g.held = kept
	return n
}

func (g *gate) arrivals() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.arrived
}

// netRun is the shell on the small emulator behind a gate, with the
// organization's tags open as a table.
type netRun struct {
	*harness
	gate     *gate
	list     *paging.List[api.Tag]
	base     int // tagsPath requests before the table's
	pages    int // answers to the table's requests delivered since the clock started
	loading  int // frames that showed a loading row
	frames   int
	released int
	frame    string // the screen after the last key or message
}

var (
	firstPageLoaded = regexp.MustCompile(`200/[\d,]+ loaded`)
	cursorRow       = regexp.MustCompile(`([\d,]+) of [\d,]+`)
)

const tagsPath = "/registry/v2/tags"

func startNet(t *testing.T, latency time.Duration) *netRun {
	t.Helper()
	srv := fresh(t, emulator.Options{Seed: 1, AdminToken: "test-admin-token"})
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	g := newGate(latency)
	client, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: api.StaticToken(srv.AdminToken(), "test"),
		Retry: api.RetryPolicy{MaxAttempts: 1}, HTTPClient: &http.Client{Transport: g}})
	if err != nil {
		t.Fatal(err)
	}
	r := &netRun{gate: g}
	r.harness = startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Theme: theme.Options{Name: theme.Dark},
		Now: func() time.Time { return fixedNow }}, 100, 30)
	// Start-up and opening the table run with an open network (time
	// still): only the table's own requests are measured.
	r.openNetwork(func() bool { return strings.Contains(r.screen(), "platform") })
	r.keys(":", "t", "a", "g", "s", "enter")
	r.openNetwork(func() bool { return firstPageLoaded.MatchString(r.screen()) })
	lt, ok := r.m.top().(interface{ List() *paging.List[api.Tag] })
	if !ok {
		t.Fatalf("the top screen is %T, not the tags table", r.m.top())
	}
	r.list = lt.List()
	r.base = g.arrivals() - r.list.Requests()
	g.advance(0) // the clock starts
	r.pages, r.loading, r.frames = 0, 0, 0
	if r.list.Requests() != 1 {
		t.Fatalf("opening the table sent %d requests, want 1", r.list.Requests())
	}
	return r
}

// openNetwork lets every request through at once until cond holds.
func (r *netRun) openNetwork(cond func() bool) {
	r.t.Helper()
	deadline := time.After(patience)
	for !cond() {
		// An hour per turn: whatever has arrived is due.
		r.gate.mu.Lock()
		t := r.gate.now + time.Hour
		r.gate.mu.Unlock()
		r.gate.advance(t)
		select {
		case msg := <-r.msgs:
			r.deliver(msg)
		case <-r.gate.wake:
		case <-deadline:
			r.t.Fatalf("timed out; screen:\n%s", r.screen())
		}
	}
}

// deliver passes one message to the shell and looks at the frame it makes.
func (r *netRun) deliver(msg tea.Msg) {
	if pm, ok := msg.(paging.PageMsg); ok && r.list != nil && r.list.Owns(pm) {
		r.pages++
	}
	r.send(msg)
	r.look()
}

func (r *netRun) key(k string) {
	r.keys(k)
	r.look()
}

func (r *netRun) look() {
	r.frames++
	r.frame = r.screen()
	if r.list != nil && strings.Contains(tableBody(r.frame), "loading") {
		r.loading++
	}
}

// at moves the virtual clock to t: it first waits until every request the
// list has sent has reached the network (so it is stamped with the time it
// was sent at), then lets through those due and waits for their answers.
func (r *netRun) at(t time.Duration) {
	r.t.Helper()
	deadline := time.After(patience)
	for r.gate.arrivals()-r.base < r.list.Requests() {
		select {
		case msg := <-r.msgs:
			r.deliver(msg)
		case <-r.gate.wake:
		case <-deadline:
			r.t.Fatalf("a request never reached the network")
		}
	}
	r.released += r.gate.advance(t)
	for r.pages < r.released {
		select {
		case msg := <-r.msgs:
			r.deliver(msg)
		case <-deadline:
			r.t.Fatalf("an answer never came back; screen:\n%s", r.screen())
		}
	}
}

// row is the cursor's row number as the info line of the last frame shows
// it ("N of M"): every key and message is looked at once, as a terminal
// draws it.
func (r *netRun) row() int {
	var n int
	for line := range strings.Lines(r.frame) {
		if !strings.Contains(line, " of ") {
			continue // the pattern is only tried where it can match
		}
		if m := cursorRow.FindStringSubmatch(line); m != nil {
			fmt.Sscan(strings.ReplaceAll(m[1], ",", ""), &n)
			return n
		}
	}
	return n
}

// TestHoldingJAt30PerSecondThrough5000Rows holds j at 30 keys/s with 50 ms
// of latency through 5,000 rows, on the gate's clock (so a busy machine
// keeps the order of keys and answers a real network gives): no frame shows
// a loading row, and showing
// row N has cost ceil(N/200) requests (one more when N is within a screen
// of a page's end: the next page is asked for a screen ahead).
func TestHoldingJAt30PerSecondThrough5000Rows(t *testing.T) {
	t.Parallel()
	const (
		latency = 50 * time.Millisecond
		rows    = 5000
	)
	r := startNet(t, latency)
	if total := r.list.Total(); total < rows {
		t.Fatalf("the table has %d tags, want at least %d", total, rows)
	}
	ahead := r.m.height // a screen, more than the table's body
	interval := time.Second / 30
	for k := 1; k < rows; k++ {
		r.at(time.Duration(k) * interval)
		r.key("j")
		n := k + 1 // the row shown under the cursor, counting from 1
		if got := r.row(); got != n {
			t.Fatalf("after %d keys the cursor is on row %d, want %d", k, got, n)
		}
		want := (n + 199) / 200
		if (n+ahead+199)/200 > want {
			want = -1 // the next page may be on its way already
		}
		if got := r.list.Requests(); want > 0 && got != want {
			t.Fatalf("row %d cost %d requests, want ceil(%d/200) = %d", n, got, n, want)
		}
	}
	r.at(time.Duration(rows) * interval)
	t.Logf("%d rows at 30 keys/s, %v latency: %d requests, %d frames, %d with a loading row",
		rows, latency, r.list.Requests(), r.frames, r.loading)
	if r.loading > 0 {
		t.Errorf("%d of %d frames showed a loading row", r.loading, r.frames)
	}
	if got, want := r.gate.arrivals()-r.base, r.list.Requests(); got != want {
		t.Errorf("%d tag list requests reached the network, the list sent %d", got, want)
	}
}

// TestEndIsOneRequest: G on a table of thousands of rows shows the last row
// after one request (a skip to the last page), not a walk.
func TestEndIsOneRequest(t *testing.T) {
	t.Parallel()
	r := startNet(t, 50*time.Millisecond)
	total := r.list.Total()
	if total <= 2*paging.DefaultPageSize {
		t.Fatalf("the table has %d tags, want more than two pages", total)
	}
	r.key("G")
	r.at(50 * time.Millisecond)
	if got := r.row(); got != total {
		t.Fatalf("after G the cursor is on row %d, want %d", got, total)
	}
	if _, ok := r.list.At(total - 1); !ok {
		t.Fatalf("the last row is not loaded (%d requests, %d pages, %d released, loaded %d); screen:\n%s", r.list.Requests(), r.pages, r.released, r.list.Loaded(), r.screen())
	}
	if got := r.list.Requests(); got != 2 {
		t.Errorf("the first page and G took %d requests, want 2", got)
	}
	if strings.Contains(tableBody(r.screen()), "loading") {
		t.Errorf("the last page is shown as loading after its answer:\n%s", r.screen())
	}
}

// tableBody is the rows of a table screen: between the header and the info line.
func tableBody(s string) string {
	lines := strings.Split(s, "\n")
	if len(lines) < 5 {
		return s
	}
	return strings.Join(lines[2:len(lines)-3], "\n")
}
