package ui

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/lazyregexp"
	"canopy/safe"
	"canopy/text"
	"canopy/views"
	"canopy/views/columns"
	"canopy/views/dialog"
	"canopy/views/form"
)

// Accepting terms: n on :terms asks which documents, by their ids (each
// with its version); nothing is sent yet. A dialog then names exactly
// each document and version and who accepts them for which organization,
// and says which are accepted already; y sends the acceptance once. When
// its answer is lost, the acceptances are read before anything is sent
// again: all there is done, else it is said not made and r may send it.

// documentID is a document's id: a word of letters, digits and . _ -.
var documentID = lazyregexp.New(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// documentIDs checks the ids typed: at least one, each once.
func documentIDs(s string) error {
	ids := list(s)
	if len(ids) == 0 {
		return fmt.Errorf("required: the ids of the documents, with their versions (guardener-tos.v1)")
	}
	for i, id := range ids {
		switch {
		case !documentID.MatchString(id):
			return fmt.Errorf("%q is not a document id", id)
		case slices.Contains(ids[:i], id):
			return fmt.Errorf("%s twice", id)
		}
	}
	return nil
}

// termsChosen is what the accept form gives its Done: the ids to confirm.
type termsChosen []string

// acceptTerms is the form that asks which documents org accepts.
func acceptTerms(e *env, org, orgName string) tea.Cmd {
	if st := e.common.Change(keymap.New); !st.Enabled {
		return views.FlashError(st.Reason)
	}
	if api.ParentUID(org) != "" {
		return views.FlashError("terms are accepted by an organization, for its folders too")
	}
	cfg := form.Config{Title: "Accept terms for " + safe.Of(orgName), Page: true, Explain: e.explain,
		Fields: []form.Field{{Key: "documentIds", Label: "documents", Placeholder: "ids with their versions: guardener-tos.v1, …",
			Validate: documentIDs}},
		Preview: func(v map[string]string) string {
			return api.AcceptRequest(org).Short() + "  documentIds: " + safe.String(strings.Join(list(v["documentIds"]), ", ")) +
				" (asked first)"
		},
		// Nothing is sent here: the dialog asks first, and sends.
		Submit: func(_ context.Context, v map[string]string) (any, error) {
			return termsChosen(list(v["documentIds"])), nil
		},
		Done: func(result any) tea.Cmd {
			ids, _ := result.(termsChosen)
			return openLater(func(ctx context.Context) views.Screen {
				return dialog.New(ctx, e.common, acceptDialog(e, org, orgName, ids))
			})
		}}
	return e.open(func(ctx context.Context) views.Screen {
		cfg.Ctx = ctx
		return form.New(e.common, cfg)
	})
}

// acceptDialog names each document and version accepted, by whom, for
// which organization; its facts say which are accepted already.
func acceptDialog(e *env, org, orgName string, ids []string) dialog.Config {
	c, who := e.client, e.identity
	outcome := e.outcomeOf("accepted")
	cfg := dialog.Config{Verb: "accept", AutoClose: true,
		Outcome: func(err error) ([]string, dialog.Result) {
			lines, r := outcome(err)
			return saidOnce(lines), r
		},
		Title: "Accept " + safe.Of(counted(api.Count{N: int64(len(ids)), Exact: true}, "document", "documents")) +
			" for " + safe.Of(orgName) + "?"}
	for _, id := range ids {
		doc, version := columns.TermsDocument(id)
		line := safe.Of(doc) + ", version " + safe.Of(version) + "  (" + safe.Of(id) + ")"
		if version == "" {
			line = safe.Of(id) + "  (its id names no version)"
		}
		cfg.Lines = append(cfg.Lines, "• "+line)
	}
	as := "the identity this session signed in as"
	if who != "" {
		as = who
	}
	cfg.Lines = append(cfg.Lines, "Accepting records that "+safe.Of(orgName)+" agrees to them, as "+safe.Of(as)+
		": a record canopy does not withdraw.")
	cfg.Facts = func(ctx context.Context) ([]safe.Text, error) {
		got, err := c.AcceptedOf(ctx, org, ids)
		if err != nil {
			return nil, err
		}
		var out []safe.Text
		for _, id := range ids {
			if t, ok := got[id]; ok {
				by := t.AcceptedBy
				if uidShape.MatchString(by) {
					if who, err := c.GetIdentity(ctx, by); err == nil {
						by = columns.AcceptedBy(who)
					}
				}
				out = append(out, safe.Of(id)+" is accepted already, "+safe.Of(text.When(t.CreateTime.Time(), e.common.Clock()))+
					" by "+safe.Of(by)+".")
			}
		}
		if len(out) == 0 {
			out = append(out, "None of them is accepted yet.")
		}
		return out, nil
	}
	label := "accept " + safe.Of(strings.Join(ids, ", "))
	cfg.Items = []dialog.Item{{Key: org, Label: label, Run: func(ctx context.Context) (any, error) {
		return e.sendAccept(ctx, org, orgName, ids)
	}}}
	k := kindFor[api.TermsAcceptance](e.kinds)
	cfg.Done = func(s dialog.Settled) tea.Msg {
		return views.ChangedMsg{Changes: []views.Change{k.changedIn(org), views.Logged()}}
	}
	return cfg
}

// sendAccept sends the acceptance once. After a lost answer, it reads
// what the organization has accepted: every document there is done;
// else it was not made, and the dialog's r may send it again.
func (e *env) sendAccept(ctx context.Context, org, orgName string, ids []string) (any, error) {
	c := e.client
	quoted := make([]string, len(ids))
	for i, id := range ids {
		quoted[i] = strconv.Quote(id)
	}
	n := &api.Note{What: "terms " + strings.Join(quoted, ", ") + " for " + orgName, Fields: "documentIds"}
	out, err := c.AcceptTerms(api.WithNote(ctx, n), org, ids)
	if err == nil {
		e.changes.answered(n, out)
		return out, nil
	}
	if !api.MaybeMade(err) {
		return nil, err
	}
	got, lookErr := c.AcceptedOf(ctx, org, ids)
	says := "the server has every one accepted"
	if len(got) < len(ids) {
		says = fmt.Sprintf("the server has %d of the %d accepted", len(got), len(ids))
	}
	return nil, e.lookedUp(n, err, lookErr == nil && len(got) == len(ids), says, "accepted", lookErr)
}

// saidOnce drops the lines of a failure's explanation that only repeat
// one before them: a server whose message says "field: description" in
// full gives the same again as a field violation, said once here.
func saidOnce(lines []string) []string {
	var out []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t != "" && slices.ContainsFunc(out, func(o string) bool { return strings.Contains(o, t) }) {
			continue
		}
		out = append(out, l)
	}
	return out
}
