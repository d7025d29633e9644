package ui

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/census"
	"canopy/safe"
	"canopy/theme"
)

// watched is a shell on the small emulator whose requests are counted:
// how many are under way at most, and how many went to each path.
type watched struct {
	*harness
	client         *api.Client
	inFlight, most atomic.Int32
	mu             sync.Mutex
	gets           map[string]int
}

func watchedShell(t *testing.T, w, h int) *watched {
	t.Helper()
	return watchedShellIgnoring(t, w, h)
}

// watchedShellIgnoring is watchedShell on a server that ignores the
// filters of those query names (it drops them from every request).
func watchedShellIgnoring(t *testing.T, w, h int, filters ...string) *watched {
	t.Helper()
	srv := fresh(t, emulator.Options{Seed: 1, AdminToken: "test-admin-token", Now: func() time.Time { return fixedNow }})
	wt := &watched{gets: map[string]int{}}
	hs := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		n := wt.inFlight.Add(1)
		defer wt.inFlight.Add(-1)
		for m := wt.most.Load(); n > m && !wt.most.CompareAndSwap(m, n); m = wt.most.Load() {
		}
		wt.mu.Lock()
		wt.gets[r.URL.Path]++
		wt.mu.Unlock()
		q := r.URL.Query()
		for _, f := range filters {
			q.Del(f)
		}
		r.URL.RawQuery = q.Encode()
		srv.ServeHTTP(rw, r)
	}))
	t.Cleanup(hs.Close)
	client, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: api.StaticToken(srv.AdminToken(), "test"), Retry: api.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Client: client, Org: srv.OrgUID(), Host: "test", Identity: "admin (test)", Theme: theme.Options{Name: theme.Dark},
		Now: func() time.Time { return fixedNow }}
	wt.harness = startWith(t, srv, o, w, h)
	wt.client = client
	return wt
}

func (wt *watched) count(path string) int {
	wt.mu.Lock()
	defer wt.mu.Unlock()
	return wt.gets[path]
}

// truth is what the emulator holds, read with the client: each repo's
// tags and deprecated tags, and each repo name's advisories by status.
type truth struct {
	repos      []api.Repo
	tags, dep  map[string]int
	advisories map[string]census.AdvisoryCount
	named      map[string]int // every advisory of a name, whatever its status
}

func readTruth(t *testing.T, c *api.Client, org string) truth {
	t.Helper()
	ctx := t.Context()
	tr := truth{tags: map[string]int{}, dep: map[string]int{}, advisories: map[string]census.AdvisoryCount{}, named: map[string]int{}}
	for r, err := range api.NewCursor(c.ListRepos, api.ListOptions{DescendantsOf: org, PageSize: 200}, api.RepoKey).All(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		tr.repos = append(tr.repos, r)
		for tag, err := range api.NewCursor(c.ListTags, api.ListOptions{ChildrenOf: r.UID, PageSize: 200}, api.TagKey).All(ctx) {
			if err != nil {
				t.Fatal(err)
			}
			tr.tags[r.UID]++
			if tag.Deprecated {
				tr.dep[r.UID]++
			}
		}
	}
	for a, err := range api.NewCursor(c.ListAdvisories, api.ListOptions{PageSize: 200}, api.AdvisoryKey).All(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		tr.named[a.ArtifactName]++
		last := a.LatestApproved()
		if last == nil {
			continue
		}
		for s := range census.Statuses {
			for _, k := range s.Kinds() {
				if k == last.Kind {
					c := tr.advisories[a.ArtifactName]
					c.N[s]++
					tr.advisories[a.ArtifactName] = c
				}
			}
		}
	}
	return tr
}

// selected is the overview's line under the cursor (drawn as the
// selection), without its styles.
func (h *harness) selected() string {
	sel := theme.New(theme.Options{Name: theme.Dark}).Selected.Render("x")
	prefix := sel[:strings.Index(sel, "x")]
	for _, l := range strings.Split(h.m.View().Content, "\n") {
		if strings.Contains(l, prefix) {
			return ansi.Strip(l)
		}
	}
	return ""
}

// down moves the overview's cursor until its line holds want.
func (h *harness) down(want string) {
	h.t.Helper()
	h.downTo(want, func(l string) bool { return strings.Contains(l, want) })
}

// downTo moves the overview's cursor until its line is one the test wants.
func (h *harness) downTo(what string, want func(line string) bool) {
	h.t.Helper()
	for range 300 {
		if want(h.selected()) {
			return
		}
		h.keys("j")
	}
	h.t.Fatalf("the cursor never reached %s:\n%s", what, h.screen())
}

// :overview counts what the emulator holds, with at most three requests
// at once; its lines open their tables; a second visit asks for no tags.
func TestOverviewCountsWhatTheServerHolds(t *testing.T) {
	t.Parallel()
	wt := watchedShell(t, 150, 70)
	wt.waitText("platform")
	tr := readTruth(t, wt.client, wt.srv.OrgUID())
	wt.settle()
	wt.most.Store(0)
	tagsBefore := wt.count("/registry/v2/tags")

	wt.keys(":")
	wt.typeText("overview")
	wt.keys("enter")
	n := len(tr.repos)
	s := wt.waitText(fmt.Sprintf("%d of %d repos counted, the oldest", n, n))
	s = wt.waitFor("every count", func(s string) bool { return !strings.Contains(s, "counting") && !wt.m.busy() })
	if most := wt.most.Load(); most > 3 {
		t.Errorf("%d requests at once, want at most 3", most)
	}
	total, dep, worst := 0, 0, api.Repo{}
	for _, r := range tr.repos {
		total += tr.tags[r.UID]
		dep += tr.dep[r.UID]
		if tr.dep[r.UID] > tr.dep[worst.UID] || (tr.dep[r.UID] == tr.dep[worst.UID] && r.Name < worst.Name) {
			worst = r
		}
	}
	if want := fmt.Sprintf("%s of %s tags", commas(dep), commas(total)); !strings.Contains(line(s, "Deprecated tags"), want) {
		t.Errorf("heading %q, want %q", line(s, "Deprecated tags"), want)
	}
	byRepo := s[strings.Index(s, "by repo"):]
	if l := line(byRepo, " "+worst.Name+" "); !strings.Contains(l, fmt.Sprintf("%s of %s", commas(tr.dep[worst.UID]), commas(tr.tags[worst.UID]))) {
		t.Errorf("the worst repo's line %q, want %s: %d of %d", l, worst.Name, tr.dep[worst.UID], tr.tags[worst.UID])
	}
	// The advisories part agrees with the feed, for every repo it lists:
	// a count in each status's column, · for none.
	adv := s[strings.Index(s, "Advisories  "):]
	for _, r := range tr.repos {
		c := tr.advisories[r.Name]
		l := line(adv, "  "+r.Name+" ")
		if c.Total() == 0 || l == "" {
			continue
		}
		want := []string{r.Name}
		for st := range census.Statuses {
			cell := "·"
			if c.N[st] > 0 {
				cell = fmt.Sprint(c.N[st])
			}
			want = append(want, cell)
		}
		if got := strings.Fields(l); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: line %q, want %q", r.Name, l, want)
		}
	}
	// Folders without folders below them are listed whole: fewer
	// listings than repos.
	if tags := wt.count("/registry/v2/tags") - tagsBefore; tags == 0 || tags >= n {
		t.Errorf("the overview listed tags %d times for %d repos", tags, n)
	}
	// The worst folder's line opens its deprecated tags.
	wt.keys("enter")
	wt.waitFor("the folder's deprecated tags", func(s string) bool { return strings.Contains(line(s, "canopy  "), "tags under") })
	// Each table is left once its listing has answered: a listing
	// cancelled in flight may still reach the server after the count
	// below is taken, however late a busy machine sends it.
	wt.waitFor("the folder's tags listed", func(string) bool { return !wt.m.busy() })
	wt.keys("esc")
	wt.waitText("Deprecated tags", "by repo")
	// The worst repo's line opens the repo's deprecated tags.
	wt.down(" " + worst.Name + " ")
	wt.keys("enter")
	wt.waitFor("the repo's deprecated tags", func(s string) bool {
		return strings.Contains(line(s, "canopy  "), "tags of "+worst.Name)
	})
	wt.waitFor("the repo's tags listed", func(string) bool { return !wt.m.busy() })
	wt.keys("esc")
	wt.waitText("Deprecated tags")
	wt.keys("esc")
	wt.waitFor("the tree", func(s string) bool {
		return strings.Contains(s, "details: ") && !strings.Contains(s, "Deprecated tags")
	})
	// A second visit shows the kept counts, with their age, and asks for
	// no tags.
	before := wt.count("/registry/v2/tags")
	wt.keys(":")
	wt.typeText("overview")
	wt.keys("enter")
	wt.waitText(fmt.Sprintf("%d of %d repos counted, the oldest", n, n))
	wt.waitFor("the listings", func(string) bool { return !wt.m.busy() })
	if got := wt.count("/registry/v2/tags") - before; got != 0 {
		t.Errorf("the second visit listed tags %d times, want none (kept)", got)
	}
}

// commas writes n as the screen does.
func commas(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// The identities' lines open the identities that answer them; the
// owners' line the owners' bindings; an advisories line the repo's
// advisories.
func TestOverviewLinesOpenTheirTables(t *testing.T) {
	t.Parallel()
	h := watchedShell(t, 150, 70)
	h.waitText("platform")
	h.keys(":")
	h.typeText("overview")
	h.keys("enter")
	h.waitFor("the people", func(s string) bool { return regexp.MustCompile(`never seen +1\b`).MatchString(s) })
	h.down("never seen")
	h.keys("enter")
	s := h.waitText("identities never seen in acme.example", "warehouse-export")
	if strings.Contains(s, "alice") {
		t.Errorf("an identity seen is listed as never seen:\n%s", s)
	}
	h.keys("esc")
	h.down("not seen for 90 days")
	h.keys("enter")
	s = h.waitText("identities not seen for 90 days", "legacy-jenkins", "eve")
	if strings.Contains(s, "warehouse-export") {
		t.Errorf("an identity never seen is listed as not seen for 90 days:\n%s", s)
	}
	h.keys("esc")
	h.down("owner at the organization")
	h.keys("enter")
	s = h.waitText("role bindings of owners of the organization", "alice")
	if strings.Contains(s, "bob") {
		t.Errorf("an editor is listed as an owner:\n%s", s)
	}
	h.keys("esc")
	h.waitText("upstream", "repos with any")
	// An advisories line: a name and the five statuses' counts (· for none).
	h.downTo("an advisories line", func(l string) bool {
		f := strings.Fields(l)
		return len(f) == 6 && !strings.Contains(l, "%") && f[1] != "of"
	})
	name := strings.Fields(h.selected())[0]
	h.keys("enter")
	h.waitText("advisories of "+name, "CGA-")
}

// A repo's row in the tree notes its advisories; a opens them; its page
// counts its tags and advisories.
func TestTreeRepoRowsNoteTheirAdvisories(t *testing.T) {
	t.Parallel()
	h := watchedShell(t, 150, 50)
	h.waitText("apps")
	tr := readTruth(t, h.client, h.srv.OrgUID())
	repo := openWebRepos(h, tr)
	c := tr.advisories[repo.Name]
	notes := adviceNotes(c)
	h.waitFor("the repo's advisory note", noted(repo.Name, notes))
	// A narrow tree shows the note shorter rather than not at all.
	h.send(tea.WindowSizeMsg{Width: 36, Height: 50})
	h.waitText(fmt.Sprintf("%s  %s", repo.Name, notes[len(notes)-1]))
	h.send(tea.WindowSizeMsg{Width: 150, Height: 50})
	h.waitFor("the repo's advisory note", noted(repo.Name, notes))
	h.moveTo(repo.Name)
	s := h.waitText("ACTIVITY", "ADVISORIES", fmt.Sprintf("%d, %d deprecated", tr.tags[repo.UID], tr.dep[repo.UID]))
	if !strings.Contains(s, fmt.Sprintf("%d detected", c.N[census.Detected])) && c.N[census.Detected] > 0 {
		t.Errorf("the page does not count %d detected:\n%s", c.N[census.Detected], s)
	}
	h.keys("a")
	all := tr.named[repo.Name]
	h.waitText("advisories of "+repo.Name, fmt.Sprintf("%d/%d loaded", all, all))
}

// A repo's page counts the advisories of its name as an origin package
// too, its subpackages' with them (curl-dev, curl-libs for curl).
func TestRepoPageCountsItsOriginPackage(t *testing.T) {
	t.Parallel()
	h := watchedShell(t, 150, 60)
	h.waitText("platform")
	tr := readTruth(t, h.client, h.srv.OrgUID())
	own := tr.advisories["curl"]
	with := own
	for _, sub := range []string{"curl-dev", "curl-libs"} {
		for s, n := range tr.advisories[sub].N {
			with.N[s] += n
		}
	}
	if with == own {
		t.Fatal("the demo has no advisory of curl's subpackages")
	}
	// The server finds it by name, and the tree shows it with its page.
	h.typeText("/curl")
	h.keys("ctrl+s")
	h.waitText("details: curl")
	s := h.waitText("ADVISORIES", "with its subpackages (as an origin package)")
	lines := strings.Split(s[strings.Index(s, "ADVISORIES"):], "\n")
	var after string
	for i, l := range lines {
		if strings.Contains(l, "with its subpackages") && i+1 < len(lines) {
			after = lines[i+1]
		}
	}
	for st := range census.Statuses {
		if n := with.N[st]; n > 0 && !strings.Contains(after, fmt.Sprintf("%d %s", n, st)) {
			t.Errorf("the origin's line %q lacks %d %s", after, n, st)
		}
	}
}

// a on a row of the repos table, or of a tags table, opens the advisories
// of the repo's image.
func TestTablesOpenARepositorysAdvisories(t *testing.T) {
	t.Parallel()
	h := watchedShell(t, 150, 40)
	h.waitText("platform")
	h.keys(":")
	h.typeText("repos")
	h.keys("enter")
	h.waitText("repos of acme.example", "63/63 loaded")
	h.typeText("/curl")
	h.keys("enter")
	h.waitText("/curl")
	h.keys("a")
	h.waitText("advisories of curl", "CGA-")
	h.keys("esc")
	h.waitText("repos of acme.example")
	h.keys("enter") // curl's tags
	h.waitFor("curl's tags", func(s string) bool {
		return strings.Contains(line(s, "canopy  "), "tags of curl") && strings.Contains(s, "loaded")
	})
	h.keys("a")
	h.waitFor("curl's advisories", func(s string) bool { return strings.Contains(line(s, "canopy  "), "advisories of curl") })
}

// A big repo's page reads its tags newest first, only as far back as its
// history goes: the weeks' sum is the tags updated within them.
func TestRepoPageReadsTheNewestTagsOnly(t *testing.T) {
	t.Parallel()
	h := watchedShell(t, 150, 60)
	h.waitText("platform")
	ctx := t.Context()
	p, err := h.client.ListRepos(ctx, api.ListOptions{DescendantsOf: h.srv.OrgUID(), Name: "aws-cli"})
	if err != nil || len(p.Items) != 1 {
		t.Fatalf("aws-cli: %v", err)
	}
	repo := p.Items[0]
	span := fixedNow.Add(-census.Weeks * census.Week)
	recent, all := 0, 0
	for tag, err := range api.NewCursor(h.client.ListTags, api.ListOptions{ChildrenOf: repo.UID, PageSize: 200}, api.TagKey).All(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		all++
		if at := tag.UpdateTime.Time(); !at.Before(span) && !at.After(fixedNow) {
			recent++
		}
	}
	before := h.count("/registry/v2/tags")
	h.typeText("/aws-cli")
	h.keys("ctrl+s")
	h.waitText("details: aws-cli")
	s := h.waitText("ACTIVITY", "tags updated per week")
	if l := line(s, "tags updated per week"); !strings.Contains(l, fmt.Sprintf(": %s in the last", commas(recent))) {
		t.Errorf("the history counts %q, want %d tags updated in the last year", l, recent)
	}
	if m := regexp.MustCompile(`│ tags +([\d,]+)`).FindStringSubmatch(s); m == nil || m[1] != commas(all) {
		t.Errorf("the tags line %q, want %d (the server's total):\n%s", m, all, s)
	}
	if n := h.count("/registry/v2/tags") - before; n >= (all+199)/200+2 {
		t.Errorf("%d tag requests: the page read more than the year", n)
	}
}

// A wide advisories table gives STATUS the room its longest status asks,
// a newer event in review beside the approved one, not cut.
func TestAdvisoryStatusGrowsIntoTheRoom(t *testing.T) {
	t.Parallel()
	h := watchedShell(t, 200, 50)
	h.waitText("platform")
	h.typeText(":advisories")
	h.keys("enter")
	s := h.waitFor("a status with an event in review", func(s string) bool {
		return regexp.MustCompile(` · [a-z ]+ \((in review|changes asked)\)`).MatchString(s)
	})
	if strings.Contains(line(s, "STATUS"), "…") || regexp.MustCompile(` · [a-z ]+ \([a-z ]*…`).MatchString(s) {
		t.Errorf("a status is cut at 200 columns:\n%s", s)
	}
}

// In a repos table enter opens a repo's tags; p opens its own page.
func TestReposTableOpensARepoPage(t *testing.T) {
	t.Parallel()
	h := watchedShell(t, 140, 50)
	h.waitText("platform")
	h.typeText(":repos")
	h.keys("enter")
	s := h.waitText("63/63 loaded", "p page")
	first := strings.Fields(line(s, "alertmanager"))[0]
	h.keys("p")
	h.waitText("› "+first, "ACTIVITY", "ADVISORIES", "tags updated")
	h.keys("esc")
	h.waitText("63/63 loaded")
}

// noted: the tree shows name's row with one of its notes (the widest that
// fits the column).
func noted(name string, notes []safe.Text) func(string) bool {
	return func(s string) bool {
		for _, n := range notes {
			if strings.Contains(s, name+"  "+string(n)) {
				return true
			}
		}
		return false
	}
}

// openWebRepos opens apps/web's repos in the tree, and is nginx there,
// which has open advisories.
func openWebRepos(h *watched, tr truth) api.Repo {
	for _, node := range []string{"apps", "web", "repos of web"} {
		h.moveTo(node)
		h.keys("l")
	}
	var repo api.Repo
	for _, r := range tr.repos {
		if strings.HasPrefix(r.UID, h.srv.OrgUID()) && tr.advisories[r.Name].Open() > 0 && strings.Contains(r.Name, "nginx") {
			repo = r
		}
	}
	return repo
}
