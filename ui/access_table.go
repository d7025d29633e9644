package ui

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/census"
	"canopy/keymap"
	"canopy/safe"
	"canopy/views"
	"canopy/views/columns"
	"canopy/views/pager"
	"canopy/views/paging"
	"canopy/views/table"
)

// accessOpen opens the access matrix of a scope, titled so.
func (e *env) accessOpen(w whoseAccess, title safe.Text) tea.Cmd {
	return e.open(func(ctx context.Context) views.Screen { return accessTable(e, ctx, w, title) })
}

// accessTable is a matrix: a row an identity (at a folder), a column a
// group of capabilities, flagged rows first under D; enter shows the
// grants behind a row's cells.
func accessTable(e *env, ctx context.Context, w whoseAccess, title safe.Text) views.Screen {
	review, read := e.review(), e.readAccess()
	var shown atomic.Int64
	shown.Store(-1)
	// changed is set when a change to the review makes the table load
	// again (Watch): that load reads the review as changed here, where a
	// load again of its own (r) reads it anew from the server. A screen
	// opened after a change, but before the change's message came, has
	// shown the changed review already: taking that message for an r
	// read the whole organization again.
	var changed atomic.Bool
	src := func(ctx context.Context, req paging.Request) (paging.Result[census.Row], error) {
		if req.Token == "" && req.Skip == 0 {
			if g := shown.Load(); g >= 0 && !changed.Swap(false) {
				review.again(int(g))
			}
		}
		a, gen, err := review.get(ctx, read)
		if err != nil {
			return paging.Result[census.Row]{}, err
		}
		shown.Store(int64(gen))
		rows := w.rows(a)
		at := req.Skip
		if req.Token != "" {
			at, _ = strconv.Atoi(req.Token)
		}
		at = min(max(at, 0), len(rows))
		end := min(at+max(req.Size, 1), len(rows))
		res := paging.Result[census.Row]{Items: rows[at:end], Total: int64(len(rows)), Skipped: at}
		if end < len(rows) {
			res.Next = strconv.Itoa(end)
		}
		res.Partial = a.Partial()
		return res, nil
	}
	key := func(r *census.Row) string {
		k := r.Who.UID + "@" + r.Folder
		if w.role != "" && len(r.Grants) > 0 {
			k += "#" + r.Grants[0].Binding
		}
		return k
	}
	flagged := func(r *census.Row) bool { return len(r.Flags) > 0 }
	byName := "name" // one identity's rows are its folders
	if w.identity != "" {
		byName = "folder"
	}
	first := 0 // the first group's column
	if w.identity == "" {
		first++
	}
	if w.folder == "" {
		first++
	}
	return table.New(e.common, table.Config[census.Row]{Title: title, Columns: columns.Matrix(e.common, w.identity == "", w.folder == ""),
		List: paging.New(ctx, src, key), Key: key,
		Orders: []table.Order{{Label: byName}, {Label: "most held", Local: true}},
		Sort:   mostHeld,
		// Flagged rows keep the plain style (the deprecated one strikes
		// its text through, which would read as gone): FLAGS says it.
		Flag: &table.Flag[census.Row]{Name: "flagged", Noun: "rows", Is: flagged},
		Open: func(r *census.Row) tea.Cmd { return e.grantsPage(r, -1) },
		Cells: &table.Cells[census.Row]{From: first, To: first + len(census.Groups()) - 1,
			Open: func(r *census.Row, col int) tea.Cmd { return e.grantsPage(r, col-first) }},
		Copy: func(r *census.Row) (string, string) { return r.Who.UID, "identity's uid" },
		Watch: func(c views.Change) bool {
			if c.Nouns != accessNouns {
				return false
			}
			changed.Store(true)
			return true
		},
	})
}

// mostHeld orders rows by how much they hold (all of a group counts two,
// some one), most first; ties keep their order.
func mostHeld(rows []*census.Row) []int {
	weight := func(r *census.Row) int {
		n := 0
		for _, l := range r.Levels {
			switch l {
			case census.Fully:
				n += 2
			case census.Partly, census.Unknown:
				n++
			}
		}
		return n
	}
	perm := make([]int, len(rows))
	for i := range perm {
		perm[i] = i
	}
	slices.SortStableFunc(perm, func(a, b int) int { return weight(rows[b]) - weight(rows[a]) })
	return perm
}

// grantsPage shows what a row holds and why: the flags with their
// reasons, then each group's capabilities with the binding granting them
// and where it is (inherited from a folder above, when it is), the
// group of the cell it was opened on (focus; -1: none) first.
func (e *env) grantsPage(r *census.Row, focus int) tea.Cmd {
	row := *r
	groups := census.Groups()
	if focus >= 0 && focus < len(groups) {
		groups = append([]census.Group{groups[focus]}, slices.Delete(slices.Clone(groups), focus, focus+1)...)
	}
	return e.open(func(context.Context) views.Screen {
		th := e.common.Theme
		var sections []pager.Section
		if len(row.Unread) > 0 {
			sections = append(sections, pager.Section{Label: "unknown", Text: "roles " + safe.String(strings.Join(row.Unread, ", ")) +
				" could not be read: what they grant is not known, and a group not held whole reads ? in the matrix"})
		}
		if len(row.Flags) > 0 {
			var lines []string
			for _, f := range row.Flags {
				lines = append(lines, th.Glyphs.Deprecated+" "+safe.String(f.Says))
			}
			sections = append(sections, pager.Section{Label: "flags", Text: strings.Join(lines, "\n")})
		}
		for _, g := range groups {
			grants := row.Holds(g)
			var lines []string
			for _, c := range g.Caps {
				var from []string
				for _, gr := range grants {
					if gr.Capability == c {
						from = append(from, grantText(row, gr))
					}
				}
				short := c // the vendor's name beside the short one people read
				if cp, ok := api.CapabilityOf(c); ok {
					short = cp.Short + " (" + c + ")"
				}
				if len(from) == 0 {
					lines = append(lines, th.Glyphs.Dot+" "+short+": not held")
					continue
				}
				lines = append(lines, th.Glyphs.Mark+" "+short+": "+strings.Join(from, "; "))
			}
			sections = append(sections, pager.Section{Label: strings.ToLower(g.Title), Text: g.Says + "\n" + strings.Join(lines, "\n")})
		}
		sections = append(sections, pager.Section{Label: "held", Text: allHeld(row)})
		title := "access of " + safe.Of(row.Who.Name) + " at " + safe.Of(row.Path)
		if focus >= 0 && focus < len(census.Groups()) {
			title = safe.Of(strings.ToLower(groups[0].Title)) + " of " + safe.Of(row.Who.Name) + " at " + safe.Of(row.Path)
		}
		return pager.New(e.common, pager.Config{Title: title, Sections: sections,
			Copy: func() (string, string) { return row.Who.UID, "identity's uid" }})
	})
}

// grantText is one grant: "editor on acme.example (inherited)".
func grantText(r census.Row, g census.Grant) string {
	s := safe.String(g.RoleName) + " on " + safe.String(g.OnPath)
	if g.On != r.Folder {
		s += " (inherited)"
	}
	return s
}

// allHeld is every capability the row holds, by domain, short names.
func allHeld(r census.Row) string {
	byDomain := map[string][]string{}
	var domains []string
	for _, gr := range r.Grants {
		c, ok := api.CapabilityOf(gr.Capability)
		if !ok {
			c = api.Capability{Short: gr.Capability, Domain: "other"}
		}
		if _, seen := byDomain[c.Domain]; !seen {
			domains = append(domains, c.Domain)
		}
		if !slices.Contains(byDomain[c.Domain], c.Short) {
			byDomain[c.Domain] = append(byDomain[c.Domain], c.Short)
		}
	}
	if len(domains) == 0 {
		return "nothing"
	}
	slices.Sort(domains)
	lines := make([]string, len(domains))
	for i, d := range domains {
		lines[i] = d + ": " + strings.Join(byDomain[d], ", ")
	}
	return strings.Join(lines, "\n")
}

// accessCommand is :access [folder path]: the organization's matrix, or a
// folder's found by its path.
func (e *env) accessCommand(args []string) tea.Cmd {
	if len(args) == 0 {
		w, title := whoseAccess{folder: e.org.UID}, "access at "+safe.Of(e.org.Name)
		return e.openCommand(func(ctx context.Context) views.Screen { return accessTable(e, ctx, w, title) })
	}
	path := strings.Join(args, " ")
	c, org := e.client, e.org.UID
	return tea.Sequence(views.Flash("looking up the folder "+safe.String(path)+"…"), func() tea.Msg {
		uid, err := folderAt(e.ctx, c, org, strings.Split(strings.Trim(path, "/"), "/"))
		if err != nil {
			return views.FlashMsg{Text: err.Error(), Error: true}
		}
		title := "access at " + safe.Of(strings.Trim(path, "/"))
		return tea.BatchMsg{func() tea.Msg {
			return openMsg{screenAsk{command: true, build: func(ctx context.Context) views.Screen {
				return accessTable(e, ctx, whoseAccess{folder: uid}, title)
			}}}
		}, views.Flash(string(title))}
	})
}

// accessState is w on what the top screen has selected: an identity, a
// folder, a repo or a role (absent elsewhere).
func (m *Model) accessState() (keymap.State, bool) {
	ts := m.pluginTargets()
	if len(ts) == 0 {
		return keymap.State{}, false
	}
	var w whoseAccess
	var title safe.Text
	if r, ok := ts[0].item.(*census.Row); ok {
		// A row of a matrix: its identity at every folder.
		w, title = whoseAccess{identity: r.Who.UID}, "access of "+safe.Of(r.Who.Name)
	} else if k := m.env.kinds.of(ts[0].item); k != nil && k.access != nil {
		w, title = k.access(m.env, ts[0].item)
	}
	if w == (whoseAccess{}) {
		return keymap.State{}, false
	}
	return keymap.On(keymap.Access).Does(func() tea.Cmd { return m.env.accessOpen(w, title) }), true
}
