package ui

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/safe"
	"canopy/views"
	"canopy/views/form"
)

// edit is one editable part of a resource: the fields it shows, the update
// mask it sends, and how the values go into the resource.
type edit struct {
	mask   string
	fields []form.Field
	// patch sends the values (by field key) and returns the new resource.
	patch func(ctx context.Context, values map[string]string) (any, error)
	// sends is the request (with its mask), for the preview; a tag moved
	// back (POST) is not previewed.
	sends api.Request
	name  string // the resource's name, for the flash
	noun  string // what the resource is: "repo"
	// reload are the collections to load again after an undo (the
	// answer alone does not update them: a tag's repo).
	reload []views.Change
	// current reads the fields' values as the server has them now, and
	// the resource (nil values: it is gone), to learn what became of an
	// edit whose answer was lost; values reads them from a resource (the
	// answer to the edit).
	current func(ctx context.Context) (map[string]string, any, error)
	values  func(result any) map[string]string
	// choose, when set, is where the edit starts instead of its form in
	// place: a screen that picks the new value (a binding's role from the
	// roles) and then opens the form, starting from start's values (old
	// are still the resource's).
	choose func(e *env, ed edit) tea.Cmd
	start  map[string]string
	// secret: the value sent is a secret (a client secret), typed as
	// dots, never shown, noted nor kept, and no read returns it: the edit
	// cannot be checked after a lost answer, nor undone.
	secret bool
}

// label is what an edit changes, in the words its fields show ("tier",
// "subject pattern"); the mask path is for the request.
func (ed edit) label() string {
	if len(ed.fields) == 0 {
		return ed.mask // a tag moved back: its digest
	}
	labels := make([]string, len(ed.fields))
	for i, f := range ed.fields {
		labels[i] = f.Label
	}
	return strings.Join(labels, " and ")
}

// editedMsg says an edit went through: the new resource, and what to undo
// it with.
type editedMsg struct {
	e        edit
	result   any
	old, new map[string]string
	flash    string // what to say, when not "<label> of <name> changed"
	// lostUndo is the lost answer of the last undo of this edit, when no
	// lookup could tell what became of it: the next u looks first.
	lostUndo error
}

// undoneMsg is the answer to an undo.
type undoneMsg struct {
	edit   *editedMsg
	result any
	err    error
	// After a lost answer: the lost answer, and what a lookup found (or
	// why it could not).
	lost    error
	found   *form.Found
	lookErr error
}

func list(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func joined(ss []string) string { return strings.Join(ss, ", ") }

// tiers are the catalog tiers a repo may have.
// tierLabel is a catalog tier as tables show it: "application", or "none".
func tierLabel(t string) string {
	if t == "" {
		return "none"
	}
	return api.TierWord(t)
}

func tiers() []string { return append([]string{""}, api.CatalogTiers()...) }

// formOf makes the form of an edit: preview, send, explain, and, once
// through, the new version everywhere and a way to undo.
func (e *env) formOf(ctx context.Context, ed edit) form.Config {
	old := map[string]string{}
	for _, f := range ed.fields {
		old[f.Key] = f.Value
	}
	fields := ed.fields
	if ed.start != nil {
		fields = slices.Clone(fields)
		for i, f := range fields {
			if v, ok := ed.start[f.Key]; ok {
				fields[i].Value = v
			}
		}
	}
	cfg := form.Config{Title: "edit " + safe.Of(ed.label()) + " of " + safe.Of(ed.name), Fields: fields, Ctx: ctx,
		Preview: func(v map[string]string) string { return preview(ed, old, v) },
		// The note of each send is made in Update, from the values as
		// they are then, and reaches the send and its lookup with them.
		Begin: func(v map[string]string, _ any) any {
			return editSent{note: editNote(ed, old, v, ""), from: maps.Clone(old)}
		},
		Submit: func(ctx context.Context, v map[string]string) (any, error) {
			return e.sendNoted(ctx, ed, form.Attempt(ctx).(editSent).note, v)
		},
		Explain: e.explain,
		Lost:    api.MaybeMade,
		Check: func(ctx context.Context, v map[string]string) (form.Found, error) {
			sent := form.Attempt(ctx).(editSent)
			return e.checkEdit(ctx, ed, sent.from, v, sent.note)
		},
		// Edited from what the server has: that is what an undo goes
		// back to, and what the preview compares with. (The form is not
		// sending when it rebases: nothing reads old meanwhile.)
		Rebase: func(v map[string]string) { maps.Copy(old, v) },
		Done: func(result any) tea.Cmd {
			result, lost := unlost(result)
			msg := editedMsg{e: ed, result: result, old: old, new: ed.values(result)}
			if ed.secret {
				msg.flash = fmt.Sprintf("%s of %s set (it is never shown nor kept, so it cannot be undone)", ed.label(), safe.String(ed.name))
			}
			if lost {
				msg.flash = "no answer, but the server has the new value: " + fmt.Sprintf("%s of %s changed (%s undoes): %s", ed.label(),
					safe.String(ed.name), e.common.Key(keymap.Undo), ed.changeText(msg.old, msg.new))
			}
			return func() tea.Msg { return msg }
		}}
	if ed.choose != nil {
		cfg.Flow = func() tea.Cmd { return ed.choose(e, ed) }
	}
	if ed.secret {
		// Nothing can be read back to settle a lost answer: the form says
		// it is unknown and sends nothing again.
		cfg.Check, cfg.Rebase = nil, nil
	}
	return cfg
}

// sendEdit sends an edit's values, saying in :changes what it changes
// (why: "undo of " for an undo); the note is for a lookup to settle.
func (e *env) sendEdit(ctx context.Context, ed edit, from, to map[string]string, why string) (*api.Note, any, error) {
	n := editNote(ed, from, to, why)
	res, err := e.sendNoted(ctx, ed, n, to)
	return n, res, err
}

// editSent is one send of an edit's form: its note, and the values it
// changes from (an undo goes back to them; a lookup compares with them).
type editSent struct {
	note *api.Note
	from map[string]string
}

// editNote is what an edit from one set of values to another means, for
// :changes (why: "undo of " for an undo).
func editNote(ed edit, from, to map[string]string, why string) *api.Note {
	change := ed.changeText(from, to)
	if ed.secret {
		change = "set (not shown)"
	}
	return &api.Note{What: why + ed.noun + " " + strconv.Quote(ed.name), Fields: ed.mask, Change: change}
}

// sendNoted sends an edit's values under its note.
func (e *env) sendNoted(ctx context.Context, ed edit, n *api.Note, to map[string]string) (any, error) {
	res, err := ed.patch(api.WithNote(ctx, n), to)
	if err == nil {
		e.changes.answered(n, res)
	}
	return res, err
}

// fieldError is a form's value refused before anything is sent (a role
// named that no role has): the form says why beside the field.
type fieldError struct{ key, why string }

func (e *fieldError) Error() string { return e.key + ": " + e.why }

// valuesIn are the values of the fields of the edit of mask among eds.
func valuesIn(eds []edit, mask string) map[string]string {
	out := map[string]string{}
	for _, ed := range eds {
		if ed.mask == mask {
			for _, f := range ed.fields {
				out[f.Key] = f.Value
			}
		}
	}
	return out
}

// preview is the request an edit sends: path, mask, and old → new.
func preview(ed edit, old, v map[string]string) string {
	var changes []string
	for _, f := range ed.fields {
		switch {
		case ed.secret && v[f.Key] == "":
			changes = append(changes, "no secret: a public client, signing in with PKCE")
		case ed.secret:
			changes = append(changes, "a new secret (not shown)")
		case old[f.Key] != v[f.Key]:
			changes = append(changes, change(old[f.Key], v[f.Key]))
		}
	}
	if len(changes) == 0 {
		changes = append(changes, "unchanged")
	}
	return ed.sends.Short() + "  " + strings.Join(changes, ", ")
}

// quoted shows a value in quotes, made safe: no Go escaping on top of
// the sanitizer's own visible markers (a \u200d stays one backslash).
func quoted(s string) string { return `"` + short(safe.String(s)) + `"` }

// change is `"old" → "new"`, each cut to 40 characters around where they
// first differ, so that a change at the end of a long value shows
// ("…rcontent.com" → "…rcontent.comx"), not two identical starts.
func change(old, new string) string {
	a, b := []rune(safe.String(old)), []rune(safe.String(new))
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	from := 0
	if max(len(a), len(b)) > 40 && p > 20 {
		from = p - 20 // keep some of what they share before the difference
	}
	cut := func(r []rune) string {
		s := string(r[min(from, len(r)):])
		if from > 0 {
			s = "…" + s
		}
		return `"` + short(s) + `"`
	}
	return cut(a) + " → " + cut(b)
}

func short(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		return string([]rune(s)[:40]) + "…"
	}
	return s
}

// explain sorts a failed change's reasons for a form: BadRequest field
// violations go to their field (claimMatch's to both of its inputs), a
// name already taken to the name, the rest to the form. No answer means
// the outcome is unknown.
func (e *env) explain(err error) (map[string]string, []string) {
	if api.MaybeMade(err) {
		// The form then looks up what the server has, and says it.
		return nil, []string{"no answer (" + safe.String(api.LostCause(err)) + "): unknown whether the change was made"}
	}
	var refused *fieldError
	if errors.As(err, &refused) {
		return map[string]string{refused.key: refused.why}, nil
	}
	fields := map[string]string{}
	for _, v := range api.FieldViolations(err) {
		// The server may name a field by its proto path (claim_match.issuer)
		// or its JSON one (claimMatch.issuer): the form keys are JSON paths.
		key := jsonPath(v.Field)
		fields[key] = safe.String(v.Description)
		if key == "claimMatch" {
			// The whole claim match: every member the form shows.
			for _, m := range claimMembers() {
				fields[claimKey(m)] = fields[key]
			}
			delete(fields, key)
		}
	}
	if apiErr, ok := api.AsError(err); ok && apiErr.Code == api.CodeAlreadyExists && len(fields) == 0 {
		fields["name"] = safe.String(strings.TrimPrefix(apiErr.Message, "Already exists: ")) + " — choose another name"
	}
	if len(fields) > 0 {
		return fields, nil
	}
	return fields, e.failure(err)
}

// changeText is `"old" → "new"` for the fields that changed, in the
// order of the edit's fields: the order label names them in ("azure
// tenant and azure clients"), so each change reads beside its name. A
// value of no field (a tag moved back has none) follows, by key.
func (ed edit) changeText(old, new map[string]string) string {
	keys := make([]string, 0, len(old))
	for _, f := range ed.fields {
		if _, ok := old[f.Key]; ok {
			keys = append(keys, f.Key)
		}
	}
	var rest []string
	for k := range old {
		if !slices.Contains(keys, k) {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	keys = append(keys, rest...)
	var parts []string
	for _, k := range keys {
		if old[k] != new[k] {
			parts = append(parts, change(old[k], new[k]))
		}
	}
	if len(parts) == 0 {
		return "unchanged"
	}
	return strings.Join(parts, ", ")
}
