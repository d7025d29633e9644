package detail

import (
	"context"

	"canopy/safe"
)

// NamedPage is the page of a kind whose fields name other resources by
// uid (an account association's folder, the identities its services act
// as). The fields are written from the resource as it is now, so an edit
// shows at once; the names of what it names are read once per resource
// (names), and r reads them again. Until they come, or if they fail, the
// uids show. A nil uid: the kind has none, and the page no uid line.
func NamedPage[T any](uid func(*T) string, fields func(it *T, name func(uid string) string) []Field,
	names func(ctx context.Context, it *T) (map[string]string, error)) Page {
	p := pageOf(func(m *Model, s *sheet, it *T) {
		// The names travel in the cache's fields, a uid as the label and
		// its name as the value: what a page of fields keeps loaded.
		known := map[string]string{}
		e := m.cache[m.uid]
		if e != nil && e.fetched {
			for _, f := range e.fields {
				known[f.Label] = f.Value
			}
		}
		if uid != nil {
			s.field("uid", safe.Of(uid(it)))
		}
		writeFields(s, fields(it, func(u string) string { return known[u] }))
		if e != nil && e.fetched && e.err != nil {
			s.section("NAMES")
			s.failure(e.err)
		}
	})
	p.lazy = true
	p.load = loadOf(func(ctx context.Context, it *T, out *extrasMsg) {
		got, err := names(ctx, it)
		for u, n := range got {
			out.fields = append(out.fields, Field{Label: u, Value: n})
		}
		out.err = err
	})
	return p
}
