package ui

import (
	"context"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/resource"
	"canopy/safe"
	"canopy/views"
	"canopy/views/detail"
	"canopy/views/form"
	"canopy/views/tree"
)

// gotoMsg asks the shell to show a uid in the tree.
type gotoMsg struct {
	uid  string
	path []string // the tree's node ids down to what is shown, for what is not a folder
	say  string   // what the status line says once it is shown
}

// createForm opens the form of a creation: noun is what it makes, where
// the place it goes in, as the user knows it.
func (e *env) createForm(noun, where string, c creation) tea.Cmd {
	if st := e.common.Change(keymap.New); !st.Enabled {
		return views.FlashError(st.Reason)
	}
	return e.open(e.createScreen(noun, where, c))
}

// createScreen builds the form of a creation: createForm opens it at once,
// a creation whose fields follow a choice made first (an association's
// provider) once it is made.
func (e *env) createScreen(noun, where string, c creation) func(ctx context.Context) views.Screen {
	cfg := form.Config{Fields: c.fields, Title: "New " + safe.Of(noun) + " in " + safe.Of(where), Page: true, Explain: e.explain,
		Preview: func(v map[string]string) string {
			if c.sendsFor != nil {
				return c.sendsFor(v).Short()
			}
			return c.sends.Short()
		}, Lost: api.MaybeMade}
	// The note of each send is made in Update and reaches the send and
	// its lookup with it.
	var last *api.Note // the last send's, for Done (both in Update)
	cfg.Begin = func(v map[string]string, _ any) any {
		last = &api.Note{What: "new " + noun + " " + strconv.Quote(v[c.named]) + " in " + where}
		return last
	}
	cfg.Submit = func(ctx context.Context, v map[string]string) (any, error) {
		n := form.Attempt(ctx).(*api.Note)
		res, err := c.submit(api.WithNote(ctx, n), v)
		if err == nil {
			e.changes.answered(n, res)
		}
		return res, err
	}
	if c.find != nil {
		// Without a way to look (an invite has no name), a lost answer
		// is said as such and the form never sends again.
		cfg.Check = func(ctx context.Context, v map[string]string) (form.Found, error) {
			res, err := c.find(ctx, v)
			return e.createdFound(form.Attempt(ctx).(*api.Note), res, err)
		}
	}
	cfg.Done = func(result any) tea.Cmd {
		result, lost := unlost(result)
		ids := []views.Change{views.ChangedIn(resource.Must(noun).Nouns, c.parent), views.Changed(c.parent)}
		name, uid := "?", ""
		if k := e.kinds.of(result); k != nil {
			name, uid = k.name(result), k.uid(result)
		}
		var show tea.Cmd
		if c.show && !lost {
			show = openLater(func(ctx context.Context) views.Screen { return detail.NewPage(ctx, e.common, e.fetch(ctx), result) })
		}
		said := views.Flash(afterLoss(lost) + "created " + noun + " " + strconv.Quote(safe.String(name)) + " in " + where)
		if last != nil && len(last.Differs) > 0 {
			// Made, but not as asked: said as plainly as a failure.
			said = views.FlashError(afterLoss(lost) + "created " + noun + " " + strconv.Quote(safe.String(name)) + " in " + where +
				", but not as sent: " + safe.String(differsText(last.Differs)))
		}
		// The counts take what was made before the screens load again.
		return tea.Batch(said, tea.Sequence(views.Created(result),
			func() tea.Msg { return views.ChangedMsg{Changes: ids, Focus: uid} }), show)
	}
	return func(ctx context.Context) views.Screen {
		cfg.Ctx = ctx
		return form.New(e.common, cfg)
	}
}

// afterDelete tells the screens a delete went through: the rows and
// nodes go (the collections that held them count one less), and what
// else changed with them loads again (an identity's bindings, the
// bindings shown in an identity's detail).
func afterDelete(msg deletedMsg) tea.Cmd {
	ids := []views.Change{views.Logged()}
	for _, uid := range msg.settled.Done {
		ids = append(ids, msg.related[uid]...)
	}
	done := msg.settled.Done
	return tea.Batch(func() tea.Msg { return views.DeletedMsg{UIDs: done} },
		func() tea.Msg { return views.ChangedMsg{Changes: ids} })
}

// createIn is `n` on a tree node: what it holds gets a new member (a
// collection's parent folder, a folder, a repo).
func (e *env) createIn(n *tree.Node) tea.Cmd {
	if k := e.kinds.byCollection[n.Kind]; n.Kind.IsCollection() && k != nil && k.create != nil && n.Parent != nil {
		return k.create(e, n.Parent.ID, placeOf(n.Parent))
	}
	if k := e.kinds.of(n.Item); k != nil && k.inside != nil {
		return k.inside(e, n)
	}
	return nil
}

// placeOf names a folder node by its path under the organization
// ("apps/web"); the organization by its name.
func placeOf(n *tree.Node) string {
	var parts []string
	for p := n; p != nil; p = p.Parent {
		if p.Kind != nil && p.Kind.Group && p.Parent != nil {
			parts = append([]string{string(p.Label)}, parts...)
		}
	}
	if len(parts) == 0 {
		return string(n.Label)
	}
	return strings.Join(parts, "/")
}
