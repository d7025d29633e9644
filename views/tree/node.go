// Package tree is the explorer's tree of an organization: folders, repos
// and tags, each group's identities, role bindings and subscriptions, the
// advisory feed and the library artifacts. Collections expand lazily, page
// by page (paging.List), and show loaded/total; only visible rows are drawn.
package tree

import (
	"canopy/safe"
	"canopy/views/paging"
)

// Kind is what a node stands for, as the shell describes it from its
// registry of resource kinds: the tree asks it rather than switching over
// a list of its own.
type Kind struct {
	// Name is how the user reads it: "repo", "role bindings".
	Name string
	// Collection: the node stands for a collection of one kind of
	// resource (it opens as a table).
	Collection bool
	// Group: its children are folders and collections (the organization,
	// a folder); it shows no count, and is drawn strong.
	Group bool
	// Flags: its children can be flagged (a repo's deprecated tags, D).
	Flags bool
	// Binds, Creates, Deletes: b, n and d apply to a node of the kind.
	Binds, Creates, Deletes bool
}

// IsCollection reports whether nodes of kind k stand for a collection (and
// open as a table).
func (k *Kind) IsCollection() bool { return k != nil && k.Collection }

// name is how the user reads the kind ("node" when the shell said none).
func (k *Kind) name() string {
	if k == nil || k.Name == "" {
		return "node"
	}
	return k.Name
}

// Node is one row of the tree.
type Node struct {
	// ID is the resource uid, or "<collection>:<parent uid>" for collections.
	ID    string
	Kind  *Kind
	Label safe.Text
	// Note is drawn muted after the label (e.g. a tag's short digest).
	Note safe.Text
	// Item is the API resource (api.Repo, api.Tag, ...), nil for collections.
	Item   any
	Parent *Node
	Depth  int

	// Children are loaded lazily; nil for a leaf.
	Children *paging.List[*Node]
	// Static are fixed children shown after the paged ones (a group's
	// collections).
	Static []*Node
	// Dim draws the node dimmed (e.g. a deprecated tag gets Deprecated).
	Dim bool
	// Uncounted: the node's children are groupings (the libraries'
	// ecosystems), whose number says nothing; no count is shown.
	Uncounted  bool
	Deprecated bool

	expanded bool
	started  bool
	queued   bool // a feed whose first page waits for the first root's
	// laid is the length of n's children when they were last laid out
	// (-1: one tail row stood for them), and laidGen the list's generation
	// then: a page that changes neither fills its gap in place.
	laid, laidGen int
	// deprecated counts the loaded children that are Deprecated, for the
	// generation depGen of the children list.
	deprecated int
	depGen     int
	// counted is an exact deprecated count a full scan found (a table's
	// `D`), valid while the list's total is countedOf.
	counted, countedOf int
	hasCounted         bool
}

// scan is an exact deprecated count a full scan of a node's children
// found (ok), of of them: a table's `D`, or the shell's kept count.
type scan struct {
	count, of int
	ok        bool
}

// deprecatedCount is the number of deprecated children known, and whether
// it is exact: every child loaded, or a full scan (s) counted them for the
// total the list has now.
func (n *Node) deprecatedCount(s scan) (int, bool) {
	l := n.Children
	if l != nil && l.Total() < 0 && s.ok {
		return s.count, true // counted by a scan elsewhere, not loaded here
	}
	if l == nil || l.Gen() != n.depGen {
		return 0, l == nil // counted for an older load of the list
	}
	if l.Total() >= 0 && l.Contiguous() >= l.Total() {
		return n.deprecated, true
	}
	if s.ok && s.of == l.Total() {
		return s.count, true
	}
	if known, exact := l.Count(); s.ok && !exact && s.of >= known {
		// No total from the server: a scan that saw at least what is
		// loaded here counted them all.
		return s.count, true
	}
	return n.deprecated, false
}

// total is the number of children as far as known, and whether exact: the
// list's count, or a full scan's from elsewhere when the list has no total
// and the scan saw at least as many.
func (n *Node) total(s scan) (int, bool) {
	l := n.Children
	known, exact := l.Count()
	if !exact && s.ok && s.of >= known {
		return s.of, true
	}
	return known, exact
}

// SetCounted records an exact deprecated count from a scan of total children.
func (n *Node) SetCounted(count, total int) {
	n.counted, n.countedOf, n.hasCounted = count, total, true
}

// countDeprecated follows the page just loaded into n's children.
func (n *Node) countDeprecated() {
	l := n.Children
	if l.Gen() != n.depGen {
		n.deprecated, n.depGen = 0, l.Gen()
		l.Each(func(_ int, c **Node) bool {
			if (*c).Deprecated {
				n.deprecated++
			}
			return true
		})
		return
	}
	start, end := l.Added()
	for p := start; p < end; p++ {
		if c, ok := l.At(p); ok && (*c).Deprecated {
			n.deprecated++
		}
	}
}

// Expandable reports whether the node has (or may have) children.
func (n *Node) Expandable() bool { return n.Children != nil || len(n.Static) > 0 }

// Queued reports whether the node's children are to be asked for once the
// tree's first root has its first page (a feed at the start): loading, as
// far as a reader is concerned.
func (n *Node) Queued() bool { return n.queued }

// Expanded reports whether the node shows its children.
func (n *Node) Expanded() bool { return n.expanded }

// Path is the labels from the root to n, for breadcrumbs.
func (n *Node) Path() []string {
	var out []string
	for p := n; p != nil; p = p.Parent {
		out = append([]string{string(p.Label)}, out...)
	}
	return out
}

// NodeKey is a node's identity in its parent's paged list.
func NodeKey(n **Node) string { return (*n).ID }

// rowKind says what a flattened row shows.
type rowKind uint8

const (
	rowNode    rowKind = iota
	rowTail            // stands for node's children before any came: one of the kinds below
	rowGap             // a position of node's children not loaded yet (loaded when seen)
	rowLoading         // the first page of node's children is on its way
	rowFailed          // loading node's children failed
	rowEmpty           // node has no children
)

// tailKind says what the tail row of n's children shows right now.
func tailKind(n *Node) rowKind {
	l := n.Children
	err, _ := l.Err()
	switch {
	case err != nil && l.Total() < 0:
		return rowFailed
	case l.Total() < 0:
		return rowLoading
	default:
		return rowEmpty
	}
}

// laysOut reports whether n's children are laid out as one line per
// position (loaded or not), rather than as a single tail row.
func laysOut(n *Node) bool { return n.Children.Total() > 0 }

// row is a run of lines of the flattened tree: one line, except a gap,
// which stands for every unloaded position between two loaded ones. An
// expanded collection of 10⁶ children (or of any number a server claims)
// costs rows for what is loaded, not for its total.
type row struct {
	node *Node // the node, or the owner of a tail or gap row
	at   int   // the line the row starts at
	pos  int   // a gap's first position among node's children
	span int   // a gap's number of positions (lines); 1 for other rows
	// depth is the indentation; dim: shown only as the path to a filter
	// match.
	depth int
	kind  rowKind
	dim   bool
}

// lines is how many lines the row takes.
func (r *row) lines() int { return max(r.span, 1) }
