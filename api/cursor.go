package api

import (
	"context"
	"iter"
)

// Lister fetches one page of a collection: a Client method value such as
// client.ListTags, or any function of the same shape.
type Lister[T any] func(ctx context.Context, opts ListOptions) (*Page[T], error)

// Cursor walks a collection page by page. It follows nextPageToken, can
// jump with skip, drops items it has already yielded (by uid), and notices
// when the server restarted the query from the beginning because the token
// expired: it then resumes at its position with one skip request instead of
// yielding the collection again. A Cursor is not safe for concurrent use.
type Cursor[T any] struct {
	list Lister[T]
	opts ListOptions
	key  func(*T) string

	seen     map[string]struct{}
	token    string
	skip     int   // skip to send with the next request
	offset   int   // list position of the next item the server will send
	total    int64 // totalCount of the last page
	started  bool
	done     bool
	firstKey string // key of the item at position 0, when the walk began there
	restarts int
}

// NewCursor starts a walk of list with opts (its PageToken and Skip are the
// starting point); key gives an item's uid.
func NewCursor[T any](list Lister[T], opts ListOptions, key func(*T) string) *Cursor[T] {
	c := &Cursor[T]{list: list, opts: opts, key: key, seen: map[string]struct{}{},
		token: opts.PageToken, skip: opts.Skip, offset: opts.Skip}
	c.opts.PageToken, c.opts.Skip = "", 0
	return c
}

// Done reports whether the last page has been read.
func (c *Cursor[T]) Done() bool { return c.done }

// Total is the collection's totalCount as of the last page read (0 before).
func (c *Cursor[T]) Total() int64 { return c.total }

// Offset is the list position of the next item to be read.
func (c *Cursor[T]) Offset() int { return c.offset }

// Restarts counts the times the server restarted the query (expired token).
func (c *Cursor[T]) Restarts() int { return c.restarts }

// Skip makes the next page start n items further on. Once the walk has
// begun this is a jump by position, without the page token: a skip sent with
// a token that has expired counts from the beginning of the list, and
// nothing in the answer would show it.
func (c *Cursor[T]) Skip(n int) {
	if n <= 0 || c.done {
		return
	}
	c.skip += n
	c.offset += n
	if c.started {
		c.token, c.skip = "", c.offset
	}
}

// Seek makes the next page start at list position n, with one skip request.
func (c *Cursor[T]) Seek(n int) {
	c.token, c.skip, c.offset, c.done = "", max(n, 0), max(n, 0), false
	c.started = true
}

// Next reads the next page and returns its items that were not yielded
// before. It returns nil, nil once Done.
func (c *Cursor[T]) Next(ctx context.Context) (*Page[T], error) {
	if c.done {
		return nil, nil
	}
	token, skip := c.token, c.skip
	if token != "" && c.firstKey == "" {
		// A walk that began past position 0 does not know the first item,
		// which is how an expired token is recognised: go on by position.
		token, skip = "", c.offset
	}
	p, err := c.fetch(ctx, token, skip)
	if err != nil {
		return nil, err
	}
	if token != "" && c.restarted(p) {
		// The token expired and the server began again at position 0: go
		// back to where the walk was with one skip request.
		c.restarts++
		if p, err = c.fetch(ctx, "", c.offset); err != nil {
			return nil, err
		}
	}
	if !c.started && c.offset == 0 && len(p.Items) > 0 {
		c.firstKey = c.key(&p.Items[0])
	}
	c.started = true
	c.skip = 0
	c.offset += len(p.Items)
	c.total = p.TotalCount
	c.token = p.NextPageToken
	c.done = p.NextPageToken == "" || len(p.Items) == 0
	fresh := p.Items[:0]
	for i := range p.Items {
		k := c.key(&p.Items[i])
		if _, dup := c.seen[k]; dup {
			continue
		}
		c.seen[k] = struct{}{}
		fresh = append(fresh, p.Items[i])
	}
	p.Items = fresh
	return p, nil
}

func (c *Cursor[T]) fetch(ctx context.Context, token string, skip int) (*Page[T], error) {
	opts := c.opts
	opts.PageToken, opts.Skip = token, skip
	return c.list(ctx, opts)
}

// restarted reports whether a page asked for with a token starts at the
// beginning of the collection again.
func (c *Cursor[T]) restarted(p *Page[T]) bool {
	if len(p.Items) == 0 {
		return false
	}
	k := c.key(&p.Items[0])
	if c.firstKey != "" && k == c.firstKey {
		return true
	}
	_, seen := c.seen[k]
	return seen
}

// Pages yields the remaining pages (de-duplicated) until the last or an error.
func (c *Cursor[T]) Pages(ctx context.Context) iter.Seq2[*Page[T], error] {
	return func(yield func(*Page[T], error) bool) {
		for !c.done {
			p, err := c.Next(ctx)
			if !yield(p, err) || err != nil {
				return
			}
		}
	}
}

// All yields the remaining items one by one until the last page or an error.
func (c *Cursor[T]) All(ctx context.Context) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for p, err := range c.Pages(ctx) {
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, it := range p.Items {
				if !yield(it, nil) {
					return
				}
			}
		}
	}
}

// UID functions give an item's key for NewCursor, one per resource.

// GroupKey is a group's uid.
func GroupKey(g *Group) string { return g.UID }

// RepoKey is a repo's uid.
func RepoKey(r *Repo) string { return r.UID }

// TagKey is a tag's uid.
func TagKey(t *Tag) string { return t.UID }

// IdentityKey is an identity's uid.
func IdentityKey(i *Identity) string { return i.UID }

// RoleKey is a role's uid.
func RoleKey(r *Role) string { return r.UID }

// RoleBindingKey is a role binding's uid.
func RoleBindingKey(b *RoleBinding) string { return b.UID }

// AdvisoryKey is an advisory's uid.
func AdvisoryKey(a *Advisory) string { return a.UID }

// SubscriptionKey is a subscription's uid.
func SubscriptionKey(s *Subscription) string { return s.UID }

// ArtifactKey is a library artifact's uid.
func ArtifactKey(a *Artifact) string { return a.UID }

// ArtifactVersionKey is an artifact version's uid.
func ArtifactVersionKey(v *ArtifactVersion) string { return v.UID }
