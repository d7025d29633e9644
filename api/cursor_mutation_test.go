package api_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
)

// mutation changes a repo while a walk is under way. It gets the list as it
// was before the walk (in walk order), how many items the walk has yielded
// and a word that makes the names it creates new, and returns the uids it
// deleted.
type mutation struct {
	name string
	do   func(t *testing.T, e *env, repo string, before []string, yielded int, round string) (deleted []string)
}

func createTags(t *testing.T, e *env, repo, digest string, names ...string) {
	t.Helper()
	for _, n := range names {
		must(e.client.CreateTag(t.Context(), repo, n, digest))(t)
	}
}

func deleteTags(t *testing.T, e *env, uids ...string) []string {
	t.Helper()
	for _, u := range uids {
		if err := e.client.DeleteTag(t.Context(), u); err != nil {
			t.Fatalf("delete %s: %v", u, err)
		}
	}
	return uids
}

// newNames are tag names that land at the top, the middle and the end of a
// list by name; in the other orders they land at the top or the end (by
// time) or anywhere (by uid).
func newNames(prefix string, n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("000-%s-%03d", prefix, i), fmt.Sprintf("5.5.5-%s-%03d", prefix, i), fmt.Sprintf("zzz-%s-%03d", prefix, i))
	}
	return out
}

// walkPage is the page size of the walks under test. What a mutation does is
// sized in pages (more rows than a page inserted ahead of the walk, a page and
// a half deleted up to its place), as the cursor's realignment searches in
// windows of a page: a smaller page and a repo of a few pages prove the same
// as a large page over a thousand rows, for a fifth of the rows sent.
const walkPage = 40

var mutations = []mutation{
	{"insert-one", func(t *testing.T, e *env, repo string, _ []string, _ int, round string) []string {
		createTags(t, e, repo, digestOf(t, e, repo), "000-new-"+round)
		return nil
	}},
	{"inserts-everywhere", func(t *testing.T, e *env, repo string, _ []string, _ int, round string) []string {
		createTags(t, e, repo, digestOf(t, e, repo), newNames("a"+round, 3)...)
		return nil
	}},
	{"delete-top", func(t *testing.T, e *env, _ string, before []string, _ int, _ string) []string {
		return deleteTags(t, e, before[:3]...)
	}},
	{"delete-last-yielded", func(t *testing.T, e *env, _ string, before []string, yielded int, _ string) []string {
		return deleteTags(t, e, before[yielded-1])
	}},
	{"delete-around-the-place", func(t *testing.T, e *env, _ string, before []string, yielded int, _ string) []string {
		return deleteTags(t, e, before[yielded-2], before[yielded], before[yielded+1])
	}},
	{"inserts-and-deletes", func(t *testing.T, e *env, repo string, before []string, yielded int, round string) []string {
		createTags(t, e, repo, digestOf(t, e, repo), newNames("b"+round, 2)...)
		return deleteTags(t, e, before[0], before[yielded/2], before[yielded-1], before[yielded+3])
	}},
	{"many-inserts", func(t *testing.T, e *env, repo string, _ []string, _ int, round string) []string {
		createTags(t, e, repo, digestOf(t, e, repo), newNames("c"+round, walkPage*3/5)...) // 1.8 pages in all, 0.6 at the top by name
		return nil
	}},
	{"many-deletes", func(t *testing.T, e *env, _ string, before []string, yielded int, _ string) []string {
		return deleteTags(t, e, before[max(0, yielded-walkPage*3/2):yielded]...) // a page and a half, up to the place
	}},
}

func digestOf(t *testing.T, e *env, repo string) string {
	t.Helper()
	p := must(e.client.ListTags(t.Context(), api.ListOptions{ChildrenOf: repo, PageSize: 1}))(t)
	return p.Items[0].Digest
}

// TestCursorExpiredTokenWithChanges: rows are created and deleted while a
// walk is under way and its token expires; the walk still yields every row
// that was there all along exactly once, in order, and nothing twice.
func TestCursorExpiredTokenWithChanges(t *testing.T) {
	t.Parallel() // heavy, and no timing to disturb
	orders := []string{api.OrderCreatedDesc, api.OrderName, api.OrderNameDesc, api.OrderUID, api.OrderUpdated}
	for _, m := range mutations {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			// One emulator per mutation (seeding is what costs), but a fresh
			// one per order for the mutation that deletes hundreds of rows.
			var e *env
			for oi, order := range orders {
				if e == nil || m.name == "many-deletes" {
					e = newEnv(t, emulator.Options{PageTokenLifetime: time.Minute}, api.Options{})
				}
				// Over five pages: after 3 the walk has more than 2 to go,
				// whatever the mutations took away before.
				node := repoNamed(t, e, "node")
				for _, pages := range []int{1, 3} {
					opts := api.ListOptions{ChildrenOf: node.UID, OrderBy: order, PageSize: walkPage}
					// The list as it is, read in the fewest pages: the
					// walk under test is the one of 100 a page.
					whole := opts
					whole.PageSize = api.MaxPageSize
					before := uids(walk(t, e.client.ListTags, whole))

					cur := api.NewCursor(e.client.ListTags, opts, api.TagKey)
					var got []string
					for range pages {
						got = append(got, uids(must(cur.Next(t.Context()))(t).Items)...)
					}
					deleted := m.do(t, e, node.UID, before, len(got), fmt.Sprintf("%d%d", oi, pages))
					e.clock.Add(2 * time.Minute) // the next token is stale
					restartsAt := -1
					for i := 0; !cur.Done(); i++ {
						got = append(got, uids(must(cur.Next(t.Context()))(t).Items)...)
						if restartsAt < 0 && cur.Restarts() > 0 {
							restartsAt = i
						}
					}
					checkWalk(t, fmt.Sprintf("%s, %s after %d pages", m.name, order, pages), before, deleted, got)
					// Two restarts look like a continuation: one after every
					// yielded row was deleted (the restarted page is then the
					// continuation, so nothing is lost), and one after more
					// rows than a page were inserted ahead of the walk's place
					// (they come first, then the restart shows).
					late := restartsAt == 1 && m.name == "many-inserts"
					unseen := restartsAt == -1 && m.name == "many-deletes" && pages == 1
					if restartsAt != 0 && !late && !unseen {
						t.Errorf("%s after %d pages: the restart was noticed on page %d after the change, want the first; Restarts() = %d",
							order, pages, restartsAt, cur.Restarts())
					}
				}
			}
		})
	}
}

// checkWalk: every row of before that was not deleted is in got exactly
// once, in before's order; nothing is in got twice.
func checkWalk(t *testing.T, what string, before, deleted, got []string) {
	t.Helper()
	gone := map[string]bool{}
	for _, u := range deleted {
		gone[u] = true
	}
	pos := map[string]int{}
	for i, u := range got {
		if j, dup := pos[u]; dup {
			t.Errorf("%s: %s yielded twice (items %d and %d)", what, u, j, i)
			return
		}
		pos[u] = i
	}
	missing, last := 0, -1
	for _, u := range before {
		if gone[u] {
			continue
		}
		i, ok := pos[u]
		if !ok {
			missing++
			continue
		}
		if i < last {
			t.Errorf("%s: %s yielded out of order", what, u)
			return
		}
		last = i
	}
	if missing > 0 {
		t.Errorf("%s: %d of the %d rows that were there all along are missing (walked %d)", what, missing, len(before)-len(deleted), len(got))
	}
}

// TestCursorStartsAtAPageToken: a PageToken in the options is where the
// walk begins; one that has expired begins at the top, counted as a restart.
func TestCursorStartsAtAPageToken(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{PageTokenLifetime: time.Minute}, api.Options{})
	opts := api.ListOptions{ChildrenOf: repoNamed(t, e, "go").UID, OrderBy: api.OrderName, PageSize: 20}
	full := uids(walk(t, e.client.ListTags, opts))
	first := must(e.client.ListTags(t.Context(), opts))(t)

	from := opts
	from.PageToken = first.NextPageToken
	cur := api.NewCursor(e.client.ListTags, from, api.TagKey)
	var got []string
	for tg, err := range cur.All(t.Context()) {
		got = append(got, must(tg, err)(t).UID)
	}
	if !slices.Equal(got, full[20:]) || cur.Restarts() != 0 {
		t.Errorf("from page 2's token: %d items from %s, %d restarts; want the %d from %s, none", len(got), first1(got), cur.Restarts(), len(full)-20, full[20])
	}

	// A later token that expires: the walk finds its place again.
	cur = api.NewCursor(e.client.ListTags, from, api.TagKey)
	got = uids(must(cur.Next(t.Context()))(t).Items)
	e.clock.Add(2 * time.Minute)
	for tg, err := range cur.All(t.Context()) {
		got = append(got, must(tg, err)(t).UID)
	}
	if !slices.Equal(got, full[20:]) || cur.Restarts() != 1 {
		t.Errorf("from page 2's token, a later token expired: %d items from %s, %d restarts; want the %d from %s, 1", len(got), first1(got), cur.Restarts(), len(full)-20, full[20])
	}

	// The starting token itself has expired: the server begins at the top.
	stale := opts
	stale.PageToken = must(e.client.ListTags(t.Context(), opts))(t).NextPageToken
	e.clock.Add(2 * time.Minute)
	cur = api.NewCursor(e.client.ListTags, stale, api.TagKey)
	got = nil
	for tg, err := range cur.All(t.Context()) {
		got = append(got, must(tg, err)(t).UID)
	}
	if !slices.Equal(got, full) || cur.Restarts() != 1 || cur.Offset() != len(full) {
		t.Errorf("from an expired token: %d items, %d restarts, offset %d; want the %d from the top, 1 restart", len(got), cur.Restarts(), cur.Offset(), len(full))
	}
}

func first1(s []string) string {
	if len(s) == 0 {
		return "(none)"
	}
	return s[0]
}

// TestCursorStopsOnEndlessPages: a server that answers every page with the
// same item and the same token ends the walk with ErrPagingStuck.
func TestCursorStopsOnEndlessPages(t *testing.T) {
	t.Parallel()
	calls := 0
	same := func(ctx context.Context, o api.ListOptions) (*api.Page[api.Tag], error) {
		calls++
		return &api.Page[api.Tag]{Items: []api.Tag{{UID: "o/r/t"}}, NextPageToken: "again", Total: 5, HasTotal: true}, nil
	}
	var errs []error
	n := 0
	for _, err := range api.NewCursor(same, api.ListOptions{}, api.TagKey).All(t.Context()) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		n++
	}
	if n != 1 || len(errs) != 1 || !errors.Is(errs[0], api.ErrPagingStuck) || calls > 10 {
		t.Fatalf("endless pages: %d items, errors %v after %d calls; want 1 item then ErrPagingStuck", n, errs, calls)
	}

	// A server that sends new tokens but nothing new, page after page.
	calls = 0
	fresh := func(ctx context.Context, o api.ListOptions) (*api.Page[api.Tag], error) {
		calls++
		return &api.Page[api.Tag]{NextPageToken: fmt.Sprint("t", calls)}, nil
	}
	errs = nil
	for _, err := range api.NewCursor(fresh, api.ListOptions{}, api.TagKey).All(t.Context()) {
		errs = append(errs, err)
	}
	if len(errs) != 1 || !errors.Is(errs[0], api.ErrPagingStuck) || calls > 20 {
		t.Fatalf("empty pages with new tokens: errors %v after %d calls", errs, calls)
	}
}
