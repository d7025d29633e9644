package api

import (
	"context"
	"errors"
	"iter"
)

// Lister fetches one page of a collection: a Client method value such as
// client.ListTags, or any function of the same shape.
type Lister[T any] func(ctx context.Context, opts ListOptions) (*Page[T], error)

// Cursor walks a collection page by page. It follows nextPageToken, can
// jump with skip, drops items it has already yielded (by uid), and notices
// when the server restarted the query from the beginning because the token
// expired (RestartDetector). It then finds where the walk left off with skip
// requests around its position, and goes on from the first item after the
// last one it had, so that rows inserted or deleted meanwhile neither hide
// other rows nor come twice. A server whose pages never end (the same token
// and nothing new again and again) stops the walk with ErrPagingStuck.
// A Cursor is not safe for concurrent use.
type Cursor[T any] struct {
	list Lister[T]
	opts ListOptions
	key  func(*T) string

	// read knows the list's first page and the items yielded: it drops
	// duplicates and recognises a restart.
	read     RestartDetector[T]
	token    string
	skip     int   // skip to send with the next request
	offset   int   // list position of the next item the server will send
	total    int64 // totalCount of the last page, -1 when it had none
	started  bool
	done     bool
	restarts int

	// positioned: offset is a list position. It is not while a walk that
	// began from the caller's PageToken has not been back to the top.
	positioned bool
	pageLen    int             // the longest page seen, for the search window
	followed   map[string]bool // tokens sent, to notice a server that repeats one
	stale      int             // pages in a row that brought nothing new
}

// ErrPagingStuck is returned by a Cursor whose server keeps answering with
// pages that bring nothing new (the same page token again, or a skip it
// ignores): following it would never end.
var ErrPagingStuck = errors.New("the server's pages bring nothing new (a page token repeated or a skip ignored); stopped paging")

// maxStalePages bounds the pages in a row that may bring nothing new.
const maxStalePages = 8

// NewCursor starts a walk of list with opts; key gives an item's uid.
// opts.PageToken and opts.Skip are the starting point: the first request
// sends them, and the walk goes on from there. A starting token that has
// expired makes the server begin at the top: the cursor then counts a
// restart and walks from the top. Offset counts from the starting point
// when the walk began from a token (the server does not say its position).
func NewCursor[T any](list Lister[T], opts ListOptions, key func(*T) string) *Cursor[T] {
	c := &Cursor[T]{list: list, opts: opts, key: key, read: NewRestartDetector(key),
		token: opts.PageToken, skip: opts.Skip, offset: opts.Skip, positioned: opts.PageToken == "",
		followed: map[string]bool{}, total: -1}
	c.opts.PageToken, c.opts.Skip = "", 0
	return c
}

// Window makes the cursor remember only the last n items it yielded
// (RestartDetector.Window), for a walk that keeps nothing per item. Call
// it before the first Next.
func (c *Cursor[T]) Window(n int) { c.read.Window(n) }

// Done reports whether the last page has been read.
func (c *Cursor[T]) Done() bool { return c.done }

// Total is the collection's totalCount as of the last page read, and
// whether the server gave one (it may not: the count is optional).
func (c *Cursor[T]) Total() (int64, bool) { return max(c.total, 0), c.total >= 0 }

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
	if c.started && c.positioned {
		c.token, c.skip = "", c.offset
	}
}

// Seek makes the next page start at list position n, with one skip request.
// It begins a new run: items yielded before may be yielded again.
func (c *Cursor[T]) Seek(n int) {
	n = max(n, 0)
	c.token, c.skip, c.offset, c.done = "", n, n, false
	c.started, c.positioned, c.stale = true, true, 0
	c.read.ForgetRead()
}

// Next reads the next page and returns its items that were not yielded
// before. It returns nil, nil once Done.
func (c *Cursor[T]) Next(ctx context.Context) (*Page[T], error) {
	if c.done {
		return nil, nil
	}
	token, skip := c.token, c.skip
	if token != "" && !c.read.HeadKnown() {
		// Without the list's first item a restart cannot be recognised:
		// learn it with a one-item request.
		if err := c.probeHead(ctx); err != nil {
			return nil, err
		}
	}
	p, err := c.fetch(ctx, token, skip, c.opts.PageSize)
	if err != nil {
		return nil, err
	}
	if token != "" {
		c.followed[token] = true
	}
	if token == "" && skip == 0 {
		c.read.LearnHead(p.Items)
	}
	if token != "" && c.read.Restarted(p.Items) {
		c.restarts++
		if !c.started {
			// The walk began from the caller's token, which had expired:
			// the server began at the top, and so does the walk.
			c.offset, c.positioned = 0, true
			c.read.LearnHead(p.Items)
		} else if p, err = c.realign(ctx); err != nil {
			return nil, err
		}
	}
	c.started = true
	c.skip = 0
	c.offset += len(p.Items)
	c.pageLen = max(c.pageLen, len(p.Items))
	c.total = p.TotalOr(-1)
	c.token = p.NextPageToken
	// An empty page with a token is allowed (AIP-158): the walk goes on,
	// and checkProgress stops a server that never gets anywhere.
	c.done = p.NextPageToken == ""
	fresh := p.Items[:0]
	for i := range p.Items {
		if c.read.Add(&p.Items[i]) {
			fresh = append(fresh, p.Items[i])
		}
	}
	p.Items = fresh
	if err := c.checkProgress(p); err != nil {
		return nil, err
	}
	return p, nil
}

// checkProgress stops a walk whose server sends a token it sent before
// with nothing new, or page after page of nothing new.
func (c *Cursor[T]) checkProgress(p *Page[T]) error {
	if c.done || len(p.Items) > 0 || p.Dropped > 0 {
		c.stale = 0
		return nil
	}
	c.stale++
	if c.followed[p.NextPageToken] || c.stale >= maxStalePages {
		c.done = true
		return ErrPagingStuck
	}
	return nil
}

func (c *Cursor[T]) fetch(ctx context.Context, token string, skip, size int) (*Page[T], error) {
	opts := c.opts
	opts.PageToken, opts.Skip, opts.PageSize = token, skip, size
	p, err := c.list(ctx, opts)
	if err == nil && p == nil {
		p = &Page[T]{}
	}
	return p, err
}

// probeHead learns the list's first item.
func (c *Cursor[T]) probeHead(ctx context.Context) error {
	p, err := c.fetch(ctx, "", 0, 1)
	if err != nil {
		return err
	}
	c.read.LearnHead(p.Items)
	return nil
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
