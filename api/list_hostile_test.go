package api_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"canopy/api"
)

// emptyItems is a List body of n `{}` items under plural: 3 bytes an item,
// the cheapest page a server can send and the most costly to hold decoded.
// cut leaves the list and the object unclosed, as a server that drops the
// connection would.
func emptyItems(plural string, n int, cut bool) stream {
	s := stream{pre: `{"` + plural + `":[`, item: "{}", n: n}
	if !cut {
		s.post = `],"nextPageToken":"next"}`
	}
	return s
}

// serveBody answers every request with body, as a 200 of JSON.
func serveBody(t *testing.T, body []byte) string {
	t.Helper()
	return serve(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write(body)
	}))
}

// measured runs f and returns how long it took (for the log: a loaded
// machine takes longer) and how many bytes were allocated meanwhile (by
// the whole process: the test server included).
func measured(f func()) (time.Duration, uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	f()
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	return took, after.TotalAlloc - before.TotalAlloc
}

// TestPageFarLongerThanAsked is the attack of issue 19 item 5: one page of
// millions of `{}` items (30 MB, under the 32 MiB cap) made a List hold
// gigabytes and take most of a minute. Now the items are counted as they
// are decoded: the call fails at once, having allocated a few MB, and says
// how many items came against how many were asked.
func TestPageFarLongerThanAsked(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 30 MB page")
	}
	// The bound is on bytes, not time: a loaded machine counts slowly,
	// but never holds more.
	const maxAlloc = 16 << 20
	lists := []struct {
		plural string
		list   func(*api.Client, context.Context, api.ListOptions) error
	}{
		{"tags", func(c *api.Client, ctx context.Context, o api.ListOptions) error {
			_, err := c.ListTags(ctx, o)
			return err
		}},
		{"repos", func(c *api.Client, ctx context.Context, o api.ListOptions) error {
			_, err := c.ListRepos(ctx, o)
			return err
		}},
		{"roleBindings", func(c *api.Client, ctx context.Context, o api.ListOptions) error {
			_, err := c.ListRoleBindings(ctx, o)
			return err
		}},
	}
	// One page of the attack's size (a smaller one is counted the same way).
	const n = 10_000_000
	for _, l := range lists {
		c := newClient(t, serveStream(t, http.StatusOK, emptyItems(l.plural, n, false)), api.Options{Retry: api.NoRetry()})
		for _, asked := range []int{0, 50} {
			t.Run(fmt.Sprintf("%s/%d/asked %d", l.plural, n, asked), func(t *testing.T) {
				var err error
				took, alloc := measured(func() { err = l.list(c, t.Context(), api.ListOptions{PageSize: asked}) })
				t.Logf("%d items, %d asked: %v, %.1f MB allocated: %v", n, asked, took.Round(time.Millisecond), float64(alloc)/1e6, err)
				var over *api.PageOverflowError
				if !errors.As(err, &over) {
					t.Fatalf("err = %v, want a PageOverflowError", err)
				}
				var de *api.DecodeError
				if !errors.As(err, &de) {
					t.Errorf("err = %T, want it within a DecodeError (a 200 that cannot be used)", err)
				}
				if over.Held != n || over.AtLeast || over.Asked != asked || over.Allowed != api.MaxPageSize {
					t.Errorf("%+v, want Held %d, Asked %d, Allowed %d", *over, n, asked, api.MaxPageSize)
				}
				wantAsked := fmt.Sprintf("when %d were asked", asked)
				if asked == 0 {
					wantAsked = "when none were asked"
				}
				if msg := err.Error(); !strings.Contains(msg, fmt.Sprintf("a page of %d %s", n, l.plural)) || !strings.Contains(msg, wantAsked) {
					t.Errorf("message %q does not say %d %s came %s", msg, n, l.plural, wantAsked)
				}
				if alloc > maxAlloc {
					t.Errorf("allocated %.1f MB, want under %d MB", float64(alloc)/1e6, maxAlloc>>20)
				}
			})
		}
	}
}

// TestPageCountCutShort: a page that breaks off after the limit gives the
// count seen so far as a floor.
func TestPageCountCutShort(t *testing.T) {
	t.Parallel()
	c := newClient(t, serveBody(t, emptyItems("tags", 5000, true).bytes()), api.Options{Retry: api.NoRetry()})
	_, err := c.ListTags(t.Context(), api.ListOptions{PageSize: 10})
	var over *api.PageOverflowError
	if !errors.As(err, &over) || over.Held != 5000 || !over.AtLeast || !strings.Contains(err.Error(), "a page of at least 5000 tags when 10 were asked") {
		t.Fatalf("err = %v (%+v)", err, over)
	}
}

// TestPageCountPastStrings: the items past the limit are counted, not
// decoded, and a bracket, brace, comma or escaped quote within a string
// does not change the count.
func TestPageCountPastStrings(t *testing.T) {
	t.Parallel()
	body := emptyItems("tags", 250, true)
	body.post = `,{"name":"],\"{,"},[{"a":"}\\"}],"x"],"totalCount":"22"}`
	c := newClient(t, serveBody(t, body.bytes()), api.Options{Retry: api.NoRetry(), PageSize: 5})
	_, err := c.ListTags(t.Context(), api.ListOptions{PageSize: 5})
	var over *api.PageOverflowError
	if !errors.As(err, &over) || over.Held != 253 || over.AtLeast {
		t.Fatalf("err = %v (%+v), want 253 counted to the end", err, over)
	}
}

// TestPageSizeBoundary: a page holds at most the API's maximum (200)
// whatever was asked, because a server that ignores a smaller page_size
// sends its default or its maximum; one more item is refused, and asking
// for more than the maximum accepts what was asked.
func TestPageSizeBoundary(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		items, asked, client int
		ok                   bool
	}{
		{200, 0, 0, true}, {200, 1, 0, true}, {201, 0, 0, false}, {201, 50, 0, false},
		{300, 300, 0, true}, {301, 300, 0, false}, {201, 300, 10, false}, {200, 300, 10, true},
	} {
		t.Run(fmt.Sprintf("%d items, %d asked, client %d", tc.items, tc.asked, tc.client), func(t *testing.T) {
			c := newClient(t, serveBody(t, emptyItems("tags", tc.items, false).bytes()), api.Options{Retry: api.NoRetry(), PageSize: tc.client})
			p, err := c.ListTags(t.Context(), api.ListOptions{PageSize: tc.asked})
			if tc.ok {
				if err != nil || len(p.Items) != tc.items || p.NextPageToken != "next" {
					t.Fatalf("ListTags: %v", err)
				}
				return
			}
			var over *api.PageOverflowError
			if !errors.As(err, &over) || over.Held != tc.items {
				t.Fatalf("err = %v, want a PageOverflowError holding %d", err, tc.items)
			}
		})
	}
}

// TestPageKeysRepeated: a page that repeats its list key keeps the last
// list, as a decoder of the whole object did, and each is held to the
// limit.
func TestPageKeysRepeated(t *testing.T) {
	t.Parallel()
	c := newClient(t, serveBody(t, []byte(`{"tags":[{"name":"a"}],"totalCount":"9","tags":[{"name":"b"},{"name":"c"}],"skipped":1}`)), api.Options{Retry: api.NoRetry()})
	p, err := c.ListTags(t.Context(), api.ListOptions{})
	if err != nil || len(p.Items) != 2 || p.Items[0].Name != "b" || p.Total != 9 || !p.HasTotal || p.Skipped != 1 {
		t.Fatalf("ListTags = %+v, %v", p, err)
	}
	c = newClient(t, serveBody(t, []byte(`{"tags":[`+strings.Repeat("{},", 300)+`{}],"tags":[]}`)), api.Options{Retry: api.NoRetry()})
	if _, err := c.ListTags(t.Context(), api.ListOptions{}); !errors.As(err, new(*api.PageOverflowError)) {
		t.Fatalf("a long list under a repeated key: %v", err)
	}
}
