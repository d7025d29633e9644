package columns

import (
	"canopy/api"
	"canopy/lazyregexp"
	"canopy/safe"
	"canopy/views"
	"canopy/views/table"
)

// Terms acceptances: each a legal document accepted for the organization,
// by whom and when. A document's id carries its version by convention
// ("guardener-tos.v1"): the table shows the two apart.

// Terms are the columns of a terms acceptance table; who names the
// identity each acceptance was made by (nil, or a uid it does not know:
// what the service said).
func Terms(c views.Common, who Names) []table.Column[api.TermsAcceptance] {
	by := func(resolve func(string) string) func(*api.TermsAcceptance) safe.Text {
		return func(t *api.TermsAcceptance) safe.Text {
			if resolve != nil {
				if n := resolve(t.AcceptedBy); n != "" {
					return safe.Of(n)
				}
			}
			return safe.Of(t.AcceptedBy)
		}
	}
	resolver := func() func(string) string {
		if who == nil {
			return nil
		}
		return who()
	}
	return []table.Column[api.TermsAcceptance]{
		{Title: "DOCUMENT", Flex: 2, Min: 14, Max: 40, Cell: func(t *api.TermsAcceptance) safe.Text {
			doc, _ := TermsDocument(t.DocID)
			return safe.Of(doc)
		}},
		{Title: "VERSION", Width: 7, Cell: func(t *api.TermsAcceptance) safe.Text {
			if _, v := TermsDocument(t.DocID); v != "" {
				return safe.Of(v)
			}
			return "—"
		}},
		{Title: "ACCEPTED BY", Flex: 2, Min: 12, Max: 40, Search: true,
			Cell: func(t *api.TermsAcceptance) safe.Text { return by(resolver())(t) },
			Snap: func() func(*api.TermsAcceptance) safe.Text { return by(resolver()) }},
		{Title: "ACCEPTED", Width: 8, Right: true, Order: "created_at", Cell: func(t *api.TermsAcceptance) safe.Text { return age(c, t.CreateTime) }},
	}
}

// AcceptedBy is an identity as ACCEPTED BY names who accepted terms, in
// :terms, its accept dialog and canopy list terms alike: by name, and
// email when it has one ("alice <alice@acme.example>").
func AcceptedBy(id *api.Identity) string {
	if id.Email != "" {
		return id.Name + " <" + id.Email + ">"
	}
	return id.Name
}

// TermsOrders is the `s` cycle of acceptances: newest first, then oldest.
func TermsOrders() []table.Order {
	return []table.Order{{Label: "newest first", OrderBy: api.OrderCreatedDesc}, {Label: "oldest first", OrderBy: api.OrderCreated}}
}

// versioned is a document id with its version last: "guardener-tos.v1".
var versioned = lazyregexp.New(`^(.+)\.v([0-9]+)$`)

// TermsDocument is a document id's document and version ("guardener-tos",
// "1"); an id with no version in it is its own document, of version "".
func TermsDocument(id string) (doc, version string) {
	if m := versioned.FindStringSubmatch(id); m != nil {
		return m[1], m[2]
	}
	return id, ""
}
