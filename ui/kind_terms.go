package ui

import (
	"context"
	"fmt"
	"maps"
	"sync"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/resource"
	"canopy/safe"
	"canopy/views"
	"canopy/views/columns"
	"canopy/views/detail"
	"canopy/views/paging"
	"canopy/views/table"
)

// termsKind: a legal document the organization accepted, by whom and
// when. An acceptance has no uid (the shell tells them apart by their
// organization, document, time and who: apart), no folder, and is never
// changed or withdrawn: n accepts more, after a dialog naming each.
type termsKind struct {
	is[api.TermsAcceptance]
	who *whoNames
}

func (termsKind) of() string   { return resource.Terms }
func (termsKind) shape() shape { return shape{list: colTerms} }

// colTerms is the collection, as list paths end.
const colTerms = "termsAcceptances"

func (termsKind) apart(t *api.TermsAcceptance) string { return api.TermsAcceptanceKey(t) }
func (termsKind) label(t *api.TermsAcceptance) string { return t.DocID }
func (termsKind) title(t *api.TermsAcceptance) safe.Text {
	return "terms accepted: " + safe.Of(t.DocID)
}
func (termsKind) copy(t *api.TermsAcceptance) (string, string) { return t.DocID, "document id" }
func (k termsKind) page(e *env) detail.Page {
	c := e.client
	return detail.NamedPage(nil, termsFields, func(ctx context.Context, t *api.TermsAcceptance) (map[string]string, error) {
		return termsNames(ctx, c, t)
	})
}
func (termsKind) whole(e *env) (safe.Text, api.ListOptions) {
	return "terms accepted by " + safe.Of(e.org.Name), api.ListOptions{DescendantsOf: e.org.UID}
}
func (k termsKind) table(e *env, ctx context.Context, title safe.Text, o api.ListOptions) views.Screen {
	group := scopeOf(o)
	tk := kindFor[api.TermsAcceptance](e.kinds)
	return table.New(e.common, table.Config[api.TermsAcceptance]{Title: title, Refused: e.orders.of(colTerms),
		Columns: columns.Terms(e.common, k.who.resolver()),
		Loaded:  func(ts []*api.TermsAcceptance) tea.Cmd { return k.who.want(e, ts) },
		List:    paging.New(ctx, source(e.client.TermsAcceptancesOf(group), api.ListOptions{}), api.TermsAcceptanceKey),
		Key:     api.TermsAcceptanceKey, Orders: columns.TermsOrders(),
		Open: pageOf[api.TermsAcceptance](e), Copy: func(t *api.TermsAcceptance) (string, string) { return t.DocID, "document id" },
		New:   func() tea.Cmd { return acceptTerms(e, group, orgName(e, group)) },
		Watch: tk.watched,
		Off: []keymap.State{
			keymap.Off(keymap.Edit, "an acceptance is a record: it is never changed"),
			keymap.Off(keymap.Delete, "an acceptance is a record: it is not withdrawn here")}})
}
func (termsKind) create(e *env, parent, parentName string) tea.Cmd {
	return acceptTerms(e, parent, parentName)
}

// orgName is the name of the organization group, when it is the one open.
func orgName(e *env, group string) string {
	if e.org != nil && e.org.UID == group {
		return e.org.Name
	}
	return group
}

// termsFields are what an acceptance's page shows: the document and its
// version, who accepted it where, and when; names by name once known.
func termsFields(t *api.TermsAcceptance, name func(uid string) string) []detail.Field {
	named := func(uid string) string {
		if n := name(uid); n != "" {
			return n + "  (" + uid + ")"
		}
		return uid
	}
	doc, version := columns.TermsDocument(t.DocID)
	if version == "" {
		version = "— (its id names none)"
	}
	return []detail.Field{{Label: "document", Value: doc}, {Label: "version", Value: version}, {Label: "id", Value: t.DocID},
		{Label: "accepted by", Value: named(t.AcceptedBy)}, {Label: "organization", Value: named(t.OrgUID)},
		{Label: "accepted", When: t.CreateTime}}
}

// termsNames reads the names of who accepted (an identity) and of the
// organization: one the token may not read, or no identity, stays as the
// service gave it.
func termsNames(ctx context.Context, c *api.Client, t *api.TermsAcceptance) (map[string]string, error) {
	out := map[string]string{}
	if g, err := c.GetGroup(ctx, t.OrgUID); err == nil {
		out[t.OrgUID] = g.Name
	} else if !api.IsPermissionDenied(err) && !api.IsNotFound(err) {
		return out, fmt.Errorf("name the organization: %w", err)
	}
	if !uidShape.MatchString(t.AcceptedBy) {
		return out, nil
	}
	if id, err := c.GetIdentity(ctx, t.AcceptedBy); err == nil {
		out[t.AcceptedBy] = columns.AcceptedBy(id)
	} else if !api.IsPermissionDenied(err) && !api.IsNotFound(err) {
		return out, fmt.Errorf("name who accepted: %w", err)
	}
	return out, nil
}

// whoNames are the names of the identities acceptances were made by, as
// the table learns them from its rows (a few; each read once). The map is
// replaced, never written, once shared: a resolver reads the one it took.
type whoNames struct {
	mu    sync.Mutex
	names map[string]string
	asked map[string]bool
}

func newWhoNames() *whoNames { return &whoNames{names: map[string]string{}, asked: map[string]bool{}} }

// maxWho bounds the identities one page of rows reads.
const maxWho = 20

// want reads the names of the identities of ts not asked for yet; the
// table searches again when they come.
func (w *whoNames) want(e *env, ts []*api.TermsAcceptance) tea.Cmd {
	w.mu.Lock()
	var uids []string
	for _, t := range ts {
		if u := t.AcceptedBy; uidShape.MatchString(u) && !w.asked[u] && len(uids) < maxWho {
			w.asked[u] = true
			uids = append(uids, u)
		}
	}
	w.mu.Unlock()
	if len(uids) == 0 {
		return nil
	}
	c, ctx := e.client, e.ctx
	return func() tea.Msg {
		got := map[string]string{}
		for _, u := range uids {
			if id, err := c.GetIdentity(ctx, u); err == nil {
				got[u] = columns.AcceptedBy(id)
			}
		}
		w.mu.Lock()
		w.names = maps.Clone(w.names)
		maps.Copy(w.names, got)
		w.mu.Unlock()
		return table.NamesMsg{}
	}
}

// resolver is the column's names: each resolver reads the map it took.
func (w *whoNames) resolver() columns.Names {
	return func() func(string) string {
		w.mu.Lock()
		m := w.names
		w.mu.Unlock()
		return func(uid string) string { return m[uid] }
	}
}
