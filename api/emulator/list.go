package emulator

import (
	"bytes"
	"encoding/json"
	"hash/fnv"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"canopy/api"
)

// Page sizes (spec, section 8).
const (
	defaultPageSize = 50
	maxPageSize     = 200
)

// params reads query parameters by their snake_case name, also accepting the
// camelCase spelling the gateway allows (page_size or pageSize).
type params struct{ q url.Values }

func (p params) get(name string) string {
	if v := p.q.Get(name); v != "" {
		return v
	}
	return p.q.Get(api.JSONName(name))
}

func (p params) all(name string) []string {
	out := slices.Clone(p.q[name])
	if c := api.JSONName(name); c != name {
		out = append(out, p.q[c]...)
	}
	var flat []string
	for _, v := range out {
		for _, part := range strings.Split(v, ",") {
			if part = strings.TrimSpace(part); part != "" {
				flat = append(flat, part)
			}
		}
	}
	return flat
}

func (p params) bool(name string) bool {
	v, _ := strconv.ParseBool(p.get(name))
	return v
}

// listQuery is a parsed List request.
type listQuery struct {
	descendantsOf, childrenOf string
	inRoot                    bool
	name                      string
	size, skip                int
	field                     int
	desc                      bool
	token                     string
	p                         params
}

// parseList reads the shared List parameters (spec, section 4), ordering
// as s says.
func (c *call) parseList(domain string, s sorting) (*listQuery, *apiErr) {
	p := params{c.r.URL.Query()}
	q := &listQuery{
		descendantsOf: p.get("uidp.descendants_of"),
		childrenOf:    p.get("uidp.children_of"),
		inRoot:        p.bool("uidp.in_root"),
		name:          p.get("name"),
		token:         p.get("page_token"),
		size:          defaultPageSize,
		p:             p,
	}
	for _, f := range []struct {
		name string
		dst  *int
	}{{"page_size", &q.size}, {"skip", &q.skip}} {
		v := p.get(f.name)
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return nil, badField(domain, f.name, "must be a non-negative integer, got "+strconv.Quote(v))
		}
		*f.dst = n
	}
	if q.size == 0 {
		q.size = defaultPageSize
	}
	q.size = min(q.size, maxPageSize)
	if e := q.parseOrder(p.get("order_by"), domain, s, c.srv.strict); e != nil {
		return nil, e
	}
	return q, nil
}

// hash identifies the query a token continues: every filter and the order,
// but not the page size or skip.
func (q *listQuery) hash(path string, extra ...string) uint64 {
	h := fnv.New64a()
	parts := append([]string{path, q.descendantsOf, q.childrenOf, strconv.FormatBool(q.inRoot), q.name,
		strconv.Itoa(q.field), strconv.FormatBool(q.desc)}, extra...)
	for _, s := range parts {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// listSpec is how one collection answers a List.
type listSpec[T any] struct {
	c      *coll[T]
	plural string
	mask   uint8         // the classes listed
	within string        // without a uidp filter: the descendants of this organization (a scoped caller's)
	keep   func(*T) bool // nil: every item of the scope; else a scan filters
	ids    []string      // uidp.ids: the items of these uids alone, each found by its uid (ofUIDs), not by a scan
	extra  []string      // further filters, for the token's query hash
	out    func(*T) any
}

// runList answers a List request over a collection. Called with the store read-locked.
func runList[T any](srv *Server, w http.ResponseWriter, r *http.Request, q *listQuery, ls listSpec[T]) {
	now := srv.now()
	qh := q.hash(r.URL.Path, append(ls.extra, strconv.Itoa(int(ls.mask)))...)
	sc := ls.c.scope(q.descendantsOf, q.childrenOf, q.inRoot)
	if ls.within != "" && sc == ls.c.global {
		sc = ls.c.desc[ls.within]
	}
	l, mask := ls.c.listIn(sc, q.field, ls.mask)
	keep := ls.keep
	switch {
	case ls.ids != nil:
		// A few exact uids: each looked up, its name tested on it.
		if q.name != "" {
			name := q.name
			keep = both(keep, func(it *T) bool { return ls.c.acc.name(it) == name })
		}
		l, mask, keep = ls.c.ofUIDs(l, q.field, mask, ls.ids, keep), kindsAll, nil
	case q.name != "":
		// An exact name has an index of its own: page it directly, take the
		// range of a group's descendants from it, or scan the smaller of it
		// and the scope.
		named := ls.c.named(q.name)
		byName := ls.c.list(named, q.field)
		below := q.descendantsOf
		if q.descendantsOf == "" && q.childrenOf == "" && !q.inRoot {
			below = ls.within
		}
		switch in := inScope(q, ls.within); {
		case in == nil:
			l = byName
		case below != "" && named != nil:
			l, mask = ls.c.below(named, q.field, below, mask), kindsAll
		case byName.Len() <= ls.c.size(sc):
			l = byName
			keep = both(keep, func(it *T) bool { return in(ls.c.acc.uid(it)) })
		default:
			name := q.name
			keep = both(keep, func(it *T) bool { return ls.c.acc.name(it) == name })
		}
	}
	if keep != nil {
		l = ls.c.filtered(l, mask, keep)
		mask = kindsAll
	}
	res := ls.c.page(l, pageReq{field: q.field, desc: q.desc, mask: mask,
		after: decodeToken(q.token, qh, now, srv.tokenLifetime), skip: q.skip, size: q.size})
	items := make([]any, len(res.ids))
	for i, id := range res.ids {
		items[i] = ls.out(&ls.c.items[id])
	}
	body := map[string]any{ls.plural: items, "skipped": res.skipped}
	if !srv.strict {
		// The total is optional: a strict server leaves it out, as the
		// service may, so that clients page by the token alone.
		body["totalCount"] = api.Int64(res.total)
	}
	if res.more {
		last := res.ids[len(res.ids)-1]
		body["nextPageToken"] = encodeToken(pageToken{Query: qh, After: ls.c.key(q.field, last), Issued: now.UnixMilli()})
	}
	writeJSON(w, body)
}

// readBody reads a request body of at most 1 MiB.
func readBody(c *call, domain string) ([]byte, *apiErr) {
	b, err := io.ReadAll(http.MaxBytesReader(c.w, c.r.Body, 1<<20))
	if err != nil {
		return nil, malformed(domain, err)
	}
	return b, nil
}

// decodeBody reads a JSON request body into v, refusing unknown fields.
func decodeBody(c *call, domain string, v any) *apiErr {
	body, e := readBody(c, domain)
	if e != nil {
		return e
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return malformed(domain, err)
	}
	return nil
}

// inScope is the uidp filter of q (or the caller's organization) as a test
// of a uid; nil when there is none.
func inScope(q *listQuery, within string) func(string) bool {
	switch {
	case q.inRoot:
		return func(uid string) bool { return api.ParentUID(uid) == "" }
	case q.childrenOf != "":
		return func(uid string) bool { return api.ParentUID(uid) == q.childrenOf }
	case q.descendantsOf != "":
		return func(uid string) bool { return api.IsDescendant(uid, q.descendantsOf) }
	case within != "":
		return func(uid string) bool { return api.IsDescendant(uid, within) }
	}
	return nil
}

// both is a filter that passes what a and b pass; nil stands for "all".
func both[T any](a, b func(*T) bool) func(*T) bool {
	if a == nil {
		return b
	}
	return func(it *T) bool { return a(it) && b(it) }
}
