package api

import (
	"canopy/lazyregexp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// MaxPageSize is the largest page the API serves; larger requests are clamped.
const MaxPageSize = 200

// Sort orders canopy asks for. Only name and created_at are documented
// (on repos); which fields each collection sorts by is not, and a server
// refuses an order it does not know with INVALID_ARGUMENT on order_by
// (see RefusedOrder): callers fall back to the default order ("").
const (
	OrderUID         = "uid"
	OrderName        = "name"
	OrderNameDesc    = "name desc"
	OrderCreated     = "created_at"
	OrderCreatedDesc = "created_at desc"
	OrderUpdated     = "update_time"
	OrderUpdatedDesc = "update_time desc"
)

// ListOptions are the parameters of a List call. Zero fields are not sent.
// Filters that a resource does not support are ignored by the server.
type ListOptions struct {
	DescendantsOf string // uidp.descendants_of: everything below this group
	ChildrenOf    string // uidp.children_of: direct children (e.g. the tags of a repo)
	InRoot        bool   // uidp.in_root: the caller's organizations (groups)
	// IDs keeps the resources of these exact uids (uidp.ids; repos): a
	// lookup of the few a page of another collection names.
	IDs []string

	Name      string // exact name
	PageSize  int    // 0: the server's default (50); above 200 the server clamps
	PageToken string // from the previous page's NextPageToken
	OrderBy   string // e.g. OrderName, OrderCreatedDesc
	Skip      int    // results to skip (after PageToken when both are set)

	// Role binding filters (uids).
	Identity, Group, Role string

	// IdentityProvider keeps the external group role mappings of one
	// identity provider (its uid).
	IdentityProvider string

	// Advisory filters.
	ArtifactNames []string
	AdvisoryIDs   []string
	Query         string // substring (advisories, library artifacts)
	// LatestEventType keeps the advisories whose latest approved event is
	// of this kind (an event kind, EventFixed…; sent as the service's
	// filter value). Origin keeps those of an origin package and its
	// subpackages; the service then ignores ArtifactNames.
	LatestEventType string
	Origin          string

	// Tag filters: tags of these kinds are hidden unless asked for.
	IncludeReferrers, IncludeEpochs, IncludeDates bool

	// Library artifact filter.
	Ecosystems []string

	// VulnerabilityIDs keeps the vulnerability metadata of these ids
	// (CVE-…, GHSA-…).
	VulnerabilityIDs []string
}

// values encodes the options with the spec's snake_case names.
func (o ListOptions) values() url.Values {
	v := url.Values{}
	set := func(k, s string) {
		if s != "" {
			v.Set(k, s)
		}
	}
	set("uidp.descendants_of", o.DescendantsOf)
	set("uidp.children_of", o.ChildrenOf)
	if o.InRoot {
		v.Set("uidp.in_root", "true")
	}
	// A repeated field travels as the parameter repeated, by the HTTP
	// transcoding rules of the service's GET routes.
	for _, id := range o.IDs {
		v.Add("uidp.ids", id)
	}
	set("name", o.Name)
	if o.PageSize > 0 {
		v.Set("page_size", strconv.Itoa(o.PageSize))
	}
	set("page_token", o.PageToken)
	set("order_by", o.OrderBy)
	if o.Skip > 0 {
		v.Set("skip", strconv.Itoa(o.Skip))
	}
	set("identity", o.Identity)
	set("group", o.Group)
	set("role", o.Role)
	set("identity_provider_uid", o.IdentityProvider)
	for _, a := range o.ArtifactNames {
		v.Add("artifact_names", a)
	}
	for _, a := range o.AdvisoryIDs {
		v.Add("advisory_ids", a)
	}
	set("query", o.Query)
	set("latest_event_type", EventFilter(o.LatestEventType))
	set("origin", o.Origin)
	for k, b := range map[string]bool{"include_referrers": o.IncludeReferrers, "include_epochs": o.IncludeEpochs, "include_dates": o.IncludeDates} {
		if b {
			v.Set(k, "true")
		}
	}
	for _, e := range o.Ecosystems {
		v.Add("ecosystems", e)
	}
	for _, id := range o.VulnerabilityIDs {
		v.Add("ids", id)
	}
	return v
}

// Page is one page of a List answer.
type Page[T any] struct {
	Items         []T
	NextPageToken string // "" on the last page
	// Total counts every match across all pages when HasTotal: the service
	// may leave totalCount out, and then nothing is known of the total but
	// what the pages show.
	Total    int64
	HasTotal bool
	Skipped  int // how many results the server skipped
	// Ignored are the query names of the filters asked that the server
	// ignores (see held): the items they exclude were dropped, and Total
	// is unknown.
	Ignored []string
	// Dropped counts the items of the answer that held dropped: a page
	// that keeps none of them still got somewhere.
	Dropped int
}

// Last reports whether this is the last page.
func (p *Page[T]) Last() bool { return p.NextPageToken == "" }

// TotalOr is the total when the server gave one, else n.
func (p *Page[T]) TotalOr(n int64) int64 {
	if p.HasTotal {
		return p.Total
	}
	return n
}

// Keys of a page beside its items.
const (
	keyNextPageToken = "nextPageToken"
	keyTotalCount    = "totalCount"
	keySkipped       = "skipped"
)

// list runs a List call on path and decodes the items under plural.
func list[T any](ctx context.Context, c *Client, path, plural string, opts ListOptions) (*Page[T], error) {
	p, err := runList[T](ctx, c, listCall(c, path, opts), plural)
	if err != nil {
		return nil, err
	}
	held(c, path[strings.LastIndexByte(path, '/')+1:], opts, p)
	return p, nil
}

// listCall is the GET of a List on path, with the user's page size limit.
func listCall(c *Client, path string, opts ListOptions) call {
	if c.pageSize > 0 && (opts.PageSize <= 0 || opts.PageSize > c.pageSize) {
		opts.PageSize = c.pageSize
	}
	return call{method: http.MethodGet, path: path, query: opts.values()}
}

// runList sends a List call and decodes the items under plural as they
// arrive, refusing a page of more items than it may hold (pageLimit).
func runList[T any](ctx context.Context, c *Client, k call, plural string) (*Page[T], error) {
	asked, allowed := pageLimit(k.query)
	var p *Page[T]
	k.stream = func(r io.Reader) error {
		var err error
		p, err = decodePage[T](r, plural, asked, allowed)
		return err
	}
	if err := c.do(ctx, k, nil); err != nil {
		return nil, err
	}
	return p, nil
}

// get fetches one resource.
func get[T any](ctx context.Context, c *Client, path string, q url.Values) (*T, error) {
	var out T
	if err := c.do(ctx, call{method: http.MethodGet, path: path, query: q}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// create sends body with r (a Collection's Create) and decodes the created
// resource. Never retried.
func create[T any](ctx context.Context, c *Client, r Request, body any) (*T, error) {
	var out T
	// A create answered is made, whatever it holds: what differs from
	// what was sent is said beside it (Note.Differs), never an error.
	check := func(any) error {
		if n := NoteOf(ctx); n != nil {
			n.Differs = differences(body, &out)
		}
		return nil
	}
	if err := c.do(ctx, call{method: r.Method, path: r.Path, body: body, check: check}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// patch sends a masked PATCH. The mask is explicit: an empty mask is refused
// here rather than letting the server change "whatever is in the body". Its
// paths are proto field names (catalog_tier, claim_match.subject): the
// gateway hands them to the server as written and the server compares them
// with proto names, while the body is camelCase JSON.
func patch[T any](ctx context.Context, c *Client, r Request, body any) (*T, error) {
	return patchChecked[T](ctx, c, r, body, nil)
}

// patchChecked is patch with what the answer shows of a field its type
// names otherwise than the body does (a binding's role, sent as role_uid,
// answered as a role): also (nil: nothing more) a field kept.
func patchChecked[T any](ctx context.Context, c *Client, r Request, body any, also func(*T) []KeptField) (*T, error) {
	path := r.Path
	var mask []string
	if r.Mask != "" {
		mask = strings.Split(r.Mask, ",")
	}
	if len(mask) == 0 {
		return nil, fmt.Errorf("PATCH %s: empty update mask", path)
	}
	for _, f := range mask {
		if !maskPath.MatchString(f) {
			return nil, fmt.Errorf("PATCH %s: update mask path %q is not a proto field path (write catalog_tier, not catalogTier)", path, f)
		}
	}
	q := url.Values{updateMask: {r.Mask}}
	only, err := masked(body, mask)
	if err != nil {
		return nil, fmt.Errorf("PATCH %s: %w", path, err)
	}
	var out T
	check := func(any) error {
		err := kept(r, mask, only, &out)
		var more []KeptField
		if also != nil {
			more = also(&out)
		}
		if len(more) == 0 {
			return err
		}
		var na *NotAppliedError
		if !errors.As(err, &na) {
			na = &NotAppliedError{Method: r.Method, Path: r.Path}
		}
		na.Fields = append(na.Fields, more...)
		return na
	}
	if err := c.do(ctx, call{method: r.Method, path: path, query: q, body: only, check: check}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// maskPath is a field mask path as the server compares it: lower-case
// snake_case proto names joined by dots, or "*".
var maskPath = lazyregexp.New(`^(\*|[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*)$`)

// JSONName is the JSON key of a proto field name: lowerCamelCase
// (catalog_tier → catalogTier), as protojson writes it.
func JSONName(proto string) string {
	var b strings.Builder
	up := false
	for _, r := range proto {
		if r == '_' {
			up = true
			continue
		}
		if up && r >= 'a' && r <= 'z' {
			r -= 'a' - 'A'
		}
		up = false
		b.WriteRune(r)
	}
	return b.String()
}

// masked keeps of body only the fields the mask names, so a PATCH carries
// exactly what it changes: a dotted path (claim_match.issuer) keeps that
// member of the object, and the mask "*" (full replacement, spec) keeps the
// whole resource. A field left out (its zero value) is cleared by the mask.
func masked(body any, mask []string) (map[string]json.RawMessage, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("encode body: %w", err)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, fmt.Errorf("encode body: %w", err)
	}
	if slices.Contains(mask, FieldAll) {
		if len(mask) > 1 {
			return nil, fmt.Errorf("update mask %q: %q must be alone", strings.Join(mask, ","), FieldAll)
		}
		return all, nil
	}
	out := map[string]json.RawMessage{}
	subs := map[string]map[string]json.RawMessage{} // top field → the members named
	for _, f := range mask {
		topProto, restProto, dotted := strings.Cut(f, ".")
		top, rest := JSONName(topProto), JSONName(restProto)
		v, ok := all[top]
		switch {
		case !ok:
		case !dotted:
			out[top] = v
			delete(subs, top)
		case out[top] != nil && subs[top] == nil:
			// The whole object is already named.
		default:
			var obj map[string]json.RawMessage
			if err := json.Unmarshal(v, &obj); err != nil {
				return nil, fmt.Errorf("update mask %q: %s is not an object", f, topProto)
			}
			if subs[top] == nil {
				subs[top] = map[string]json.RawMessage{}
			}
			if m, ok := obj[rest]; ok {
				subs[top][rest] = m
			}
		}
	}
	for top, members := range subs {
		enc, err := json.Marshal(members)
		if err != nil {
			return nil, fmt.Errorf("encode body: %w", err)
		}
		out[top] = enc
	}
	return out, nil
}

// del deletes a resource with r (a Collection's Delete). It is retried
// only when the server said it did not run it (429, 503) or no connection
// was made (see RetryPolicy).
func del(ctx context.Context, c *Client, r Request) error {
	return c.do(ctx, call{method: r.Method, path: r.Path}, nil)
}

// updateMask is the query parameter of a PATCH's mask.
const updateMask = "update_mask"
