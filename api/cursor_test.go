package api_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
)

// counted wraps a lister and counts its calls.
func counted[T any](list api.Lister[T], n *atomic.Int64) api.Lister[T] {
	return func(ctx context.Context, o api.ListOptions) (*api.Page[T], error) {
		n.Add(1)
		return list(ctx, o)
	}
}

// walk reads a whole collection with a cursor.
func walk(t *testing.T, list api.Lister[api.Tag], opts api.ListOptions) []api.Tag {
	t.Helper()
	var out []api.Tag
	for tg, err := range api.NewCursor(list, opts, api.TagKey).All(t.Context()) {
		out = append(out, must(tg, err)(t))
	}
	return out
}

func uids(tags []api.Tag) []string {
	out := make([]string, len(tags))
	for i := range tags {
		out[i] = tags[i].UID
	}
	return out
}

// TestCursorWalksEveryOrder pages through every tag of the organization,
// hidden kinds included (over 10,000), in each sort order. The walk by uid,
// whose order is strict, is the reference: no uid twice, as many as the
// total; the others yield the same tags in their own order.
func TestCursorWalksEveryOrder(t *testing.T) {
	t.Parallel() // heavy, and no timing to disturb
	e := newEnv(t, emulator.Options{}, api.Options{})
	base := api.ListOptions{DescendantsOf: e.org, PageSize: api.MaxPageSize,
		IncludeReferrers: true, IncludeEpochs: true, IncludeDates: true}
	byTime := func(f func(api.Tag) api.Time) func(a, b api.Tag) int {
		return func(a, b api.Tag) int { return f(a).Compare(f(b)) }
	}
	type order struct {
		order string
		cmp   func(a, b api.Tag) int // ascending order of the sort field
		desc  bool
	}
	// walkIn walks the tags in o and checks the order, the total and the
	// requests; every (when not nil) is the tags there are.
	walkIn := func(t *testing.T, o order, every map[string]bool) []api.Tag {
		var calls atomic.Int64
		opts := base
		opts.OrderBy = o.order
		cur := api.NewCursor(counted(e.client.ListTags, &calls), opts, api.TagKey)
		var got []api.Tag
		for p, err := range cur.Pages(t.Context()) {
			got = append(got, must(p, err)(t).Items...)
		}
		seen := make(map[string]bool, len(got))
		for i, tg := range got {
			if seen[tg.UID] || every != nil && !every[tg.UID] {
				t.Fatalf("item %d (%s) is a duplicate or unknown", i, tg.UID)
			}
			seen[tg.UID] = true
			if i == 0 {
				continue
			}
			if c := o.cmp(got[i-1], tg); (!o.desc && c > 0) || (o.desc && c < 0) {
				t.Fatalf("items %d and %d are out of %q order: %+v, %+v", i-1, i, o.order, got[i-1], tg)
			}
		}
		want := len(got)
		if every != nil {
			want = len(every)
		}
		if total, _ := cur.Total(); len(got) != want || total != int64(want) || !cur.Done() {
			t.Errorf("walked %d of %d, Total() %d, Done %v", len(got), want, total, cur.Done())
		}
		if want := (want + api.MaxPageSize - 1) / api.MaxPageSize; calls.Load() != int64(want) {
			t.Errorf("%d requests, want %d", calls.Load(), want)
		}
		return got
	}
	byUID := order{api.OrderUID, func(a, b api.Tag) int { return strings.Compare(a.UID, b.UID) }, false}
	every := make(map[string]bool)
	for _, tg := range walkIn(t, byUID, nil) {
		every[tg.UID] = true
	}
	if len(every) < 10000 {
		t.Fatalf("only %d tags in the organization; the walk should cross 50 pages", len(every))
	}
	for _, o := range []order{
		{api.OrderName, func(a, b api.Tag) int { return strings.Compare(a.Name, b.Name) }, false},
		{api.OrderNameDesc, func(a, b api.Tag) int { return strings.Compare(a.Name, b.Name) }, true},
		{api.OrderUpdated, byTime(func(t api.Tag) api.Time { return t.UpdateTime }), false},
	} {
		t.Run(o.order, func(t *testing.T) {
			t.Parallel()
			walkIn(t, o, every)
		})
	}
}

func TestCursorSkipAndSeek(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx := t.Context()
	opts := api.ListOptions{ChildrenOf: repoNamed(t, e, "aws-cli").UID, OrderBy: api.OrderName, PageSize: 200}
	full := uids(walk(t, e.client.ListTags, opts))
	n := len(full)
	page := func(cur *api.Cursor[api.Tag]) []string {
		t.Helper()
		return uids(must(cur.Next(ctx))(t).Items)
	}
	for _, pos := range []int{0, 1, 199, 200, 517, n - 3, n, n + 50} {
		cur := api.NewCursor(e.client.ListTags, opts, api.TagKey)
		cur.Seek(pos)
		end := min(pos+200, n)
		want := full[min(pos, n):end]
		if got := page(cur); !slices.Equal(got, want) {
			t.Errorf("Seek(%d): %d items from %v, want %d from %v", pos, len(got), first(got), len(want), first(want))
		}
		if cur.Done() != (end == n) {
			t.Errorf("Seek(%d): Done = %v", pos, cur.Done())
		}
	}

	cur := api.NewCursor(e.client.ListTags, opts, api.TagKey)
	page(cur)
	cur.Skip(333)
	if got := page(cur); !slices.Equal(got, full[533:733]) || cur.Offset() != 733 {
		t.Errorf("after Skip(333): items from %v, offset %d; want from %s, 733", first(got), cur.Offset(), full[533])
	}
	var rest []string
	for tg, err := range cur.All(ctx) {
		rest = append(rest, must(tg, err)(t).UID)
	}
	if !slices.Equal(rest, full[733:]) {
		t.Errorf("after the skip: %d items, want %d", len(rest), n-733)
	}

	skipped := opts
	skipped.Skip = 50
	if got := page(api.NewCursor(e.client.ListTags, skipped, api.TagKey)); !slices.Equal(got, full[50:250]) {
		t.Errorf("ListOptions.Skip 50: items from %v, want from %s", first(got), full[50])
	}
}

func first(s []string) string {
	if len(s) == 0 {
		return "(none)"
	}
	return s[0]
}

// TestCursorSurvivesExpiredTokens: when a page token expires the server
// silently restarts the query; the cursor notices and carries on at its
// position, yielding every item once, in order.
func TestCursorSurvivesExpiredTokens(t *testing.T) {
	t.Parallel() // heavy, and no timing to disturb
	e := newEnv(t, emulator.Options{PageTokenLifetime: time.Minute}, api.Options{})
	ctx := t.Context()
	node := repoNamed(t, e, "aws-cli") // over a thousand tags
	for _, order := range []string{api.OrderUID, api.OrderNameDesc, api.OrderCreatedDesc} {
		opts := api.ListOptions{ChildrenOf: node.UID, OrderBy: order, PageSize: 100}
		whole := opts // an unhurried walk, in the fewest pages
		whole.PageSize = api.MaxPageSize
		full := uids(walk(t, e.client.ListTags, whole))

		cur := api.NewCursor(e.client.ListTags, opts, api.TagKey)
		var got []string
		stale := 0
		for i := 0; !cur.Done(); i++ {
			restarts := cur.Restarts()
			got = append(got, uids(must(cur.Next(ctx))(t).Items)...)
			// Every stale token is one restart, noticed on its own page.
			if want := restarts + min(stale, 1); cur.Restarts() != want {
				t.Errorf("%s: page %d: Restarts() = %d, want %d", order, i, cur.Restarts(), want)
			}
			stale = 0
			if i%2 == 0 && !cur.Done() {
				e.clock.Add(2 * time.Minute) // the next token is stale
				stale = 1
			}
		}
		if !slices.Equal(got, full) {
			t.Errorf("%s: walked %d items (%d distinct), want the %d of an unhurried walk, in order",
				order, len(got), len(slices.Compact(slices.Sorted(slices.Values(got)))), len(full))
		}
		if cur.Restarts() < 5 {
			t.Errorf("%s: Restarts() = %d, want one for every other page", order, cur.Restarts())
		}

		// A skip sent with a stale token lands where it should, too.
		cur = api.NewCursor(e.client.ListTags, opts, api.TagKey)
		must(cur.Next(ctx))(t)
		e.clock.Add(2 * time.Minute)
		cur.Skip(250)
		if p := must(cur.Next(ctx))(t); !slices.Equal(uids(p.Items), full[350:450]) {
			t.Errorf("%s: Skip(250) after an expired token: items from %v, want from %s", order, first(uids(p.Items)), full[350])
		}

		// A walk that starts past 0 goes on by position, so a stale token
		// cannot send it back to the top unnoticed.
		cur = api.NewCursor(e.client.ListTags, opts, api.TagKey)
		cur.Seek(300)
		var rest []string
		for !cur.Done() {
			rest = append(rest, uids(must(cur.Next(ctx))(t).Items)...)
			e.clock.Add(2 * time.Minute)
		}
		if !slices.Equal(rest, full[300:]) {
			t.Errorf("%s: a walk from 300 with stale tokens gave %d items, want the %d from 300 on", order, len(rest), len(full)-300)
		}
	}
}

func TestCursorIteratorsStopOnBreak(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	var calls atomic.Int64
	list := counted(e.client.ListTags, &calls)
	opts := api.ListOptions{DescendantsOf: e.org, PageSize: 200}

	cur := api.NewCursor(list, opts, api.TagKey)
	n := 0
	for _, err := range cur.All(t.Context()) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n == 250 {
			break
		}
	}
	if calls.Load() != 2 || cur.Done() {
		t.Errorf("All, broken off at item 250: %d requests (want 2), Done %v", calls.Load(), cur.Done())
	}

	calls.Store(0)
	cur = api.NewCursor(list, opts, api.TagKey)
	for p, err := range cur.Pages(t.Context()) {
		if err != nil || len(p.Items) != 200 {
			t.Fatalf("first page: %v, %d items", err, len(p.Items))
		}
		break
	}
	if calls.Load() != 1 {
		t.Errorf("Pages, broken off after one: %d requests", calls.Load())
	}
}

// TestCursorError: an error ends All and Pages; the cursor keeps its place,
// so the next call tries the same page again.
func TestCursorError(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	var calls atomic.Int64
	boom := errors.New("boom")
	list := func(ctx context.Context, o api.ListOptions) (*api.Page[api.Tag], error) {
		if calls.Add(1) == 2 {
			return nil, boom
		}
		return e.client.ListTags(ctx, o)
	}
	opts := api.ListOptions{ChildrenOf: repoNamed(t, e, "go").UID, PageSize: 10}
	full := uids(walk(t, e.client.ListTags, opts))
	cur := api.NewCursor(list, opts, api.TagKey)
	var got []string
	var errs []error
	for tg, err := range cur.All(t.Context()) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		got = append(got, tg.UID)
	}
	if len(got) != 10 || len(errs) != 1 || !errors.Is(errs[0], boom) {
		t.Fatalf("before the error: %d items and errors %v, want 10 and boom", len(got), errs)
	}
	for p, err := range cur.Pages(t.Context()) {
		got = append(got, uids(must(p, err)(t).Items)...)
	}
	if !slices.Equal(got, full) {
		t.Errorf("resumed walk: %d items, want the %d of a clean walk, in order", len(got), len(full))
	}
	if want := (len(full)+9)/10 + 1; calls.Load() != int64(want) {
		t.Errorf("%d requests for %d items, want %d (one page asked twice)", calls.Load(), len(full), want)
	}
}
