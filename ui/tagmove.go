package ui

import (
	"context"
	"fmt"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
	"canopy/views"
	"canopy/views/form"
)

// lookedTag is the tag of the name sent as the form's lookup found it
// (form.Looked), nil for none: the request says whether it created or
// moved the tag.
func lookedTag(ctx context.Context) *api.Tag {
	t, _ := form.Looked(ctx).(*api.Tag)
	return t
}

// tagForm is `n` in a repo: a tag's name and digest. POST tags creates or
// moves (API.md), so the name is looked up as it is typed: an existing
// tag is said, with where it points and where it would go, and moving it
// takes a second enter; u moves it back.
func tagForm(e *env, repo, repoName string) tea.Cmd {
	c := e.client
	sends := api.Tags.Create(repo)
	cfg := form.Config{Title: "New tag in " + safe.Of(repoName), Page: true, Explain: e.explain,
		Fields: []form.Field{
			{Key: "name", Label: "name", Validate: matching(api.TagName, "letters, digits, . _ -"), Max: api.TagName.Max()},
			{Key: "digest", Label: "digest", Placeholder: "sha256:…", Validate: matching(api.Digest, "sha256: and 64 hex digits"), Max: api.Digest.Max()},
		},
		Preview: func(v map[string]string) string {
			return sends.Short() + `  {"name": ` + quoted(v["name"]) + `, "digest": "` + text.Short(v["digest"], 12) + `…"}`
		},
		LookupKey: func(v map[string]string) string {
			if api.TagName.Match(v["name"]) {
				return v["name"]
			}
			return ""
		},
		Lookup: func(ctx context.Context, v map[string]string) (any, error) {
			p, err := c.ListTags(ctx, api.ListOptions{ChildrenOf: repo, Name: v["name"], PageSize: 1,
				IncludeReferrers: true, IncludeEpochs: true, IncludeDates: true})
			if err != nil {
				return nil, fmt.Errorf("look up tag %s: %w", v["name"], err)
			}
			if len(p.Items) == 0 {
				return nil, nil
			}
			return &p.Items[0], nil
		},
		Warn: func(v map[string]string, found any) (string, bool) {
			t, _ := found.(*api.Tag)
			name := safe.String(v["name"])
			switch {
			case t == nil:
				return "no tag " + name + " in " + repoName + " yet: this creates it", false
			case t.Digest == v["digest"]:
				return name + " already points at " + shortDigest(t.Digest) + ": this changes nothing", false
			}
			return name + " exists at " + shortDigest(t.Digest) + ": this moves it to " + shortDigest(v["digest"]) +
				" (" + e.common.Key(keymap.Undo) + " moves it back)", true
		},
	}
	// The note of each send is made in Update, from the tag the lookup
	// found then, and reaches the send and its lookup with it.
	cfg.Begin = func(v map[string]string, looked any) any {
		n := &api.Note{What: "tag " + strconv.Quote(v["name"]) + " of " + repoName, Fields: "digest"}
		if was, _ := looked.(*api.Tag); was != nil {
			n.Change = "moved " + shortDigest(was.Digest) + " → " + shortDigest(v["digest"])
		} else {
			n.Change = "created at " + shortDigest(v["digest"])
		}
		return n
	}
	cfg.Submit = func(ctx context.Context, v map[string]string) (any, error) {
		was, n := lookedTag(ctx), form.Attempt(ctx).(*api.Note)
		t, err := c.CreateTag(api.WithNote(ctx, n), repo, v["name"], v["digest"])
		if err != nil {
			return nil, err
		}
		e.changes.answered(n, t)
		return tagResult{tag: t, was: was}, nil
	}
	cfg.Lost = api.MaybeMade
	cfg.Check = func(ctx context.Context, v map[string]string) (form.Found, error) {
		t, err := c.FindTag(ctx, repo, v["name"])
		return e.tagFound(form.Attempt(ctx).(*api.Note), lookedTag(ctx), v, t, err)
	}
	cfg.Done = func(result any) tea.Cmd {
		result, lost := unlost(result)
		r := result.(tagResult)
		ids := []views.Change{views.Changed(repo)}
		changed := func() tea.Msg { return views.ChangedMsg{Changes: ids} }
		if r.was == nil || r.was.Digest == r.tag.Digest {
			// A new tag: the cursor goes to it, as to a new repo or folder.
			created := func() tea.Msg { return views.ChangedMsg{Changes: ids, Focus: r.tag.UID} }
			var made tea.Cmd
			if r.was == nil { // the same digest again makes no new tag
				made = views.Created(r.tag)
			}
			return tea.Batch(tea.Sequence(made, created), views.Flash(afterLoss(lost)+"created tag "+strconv.Quote(safe.String(r.tag.Name))+" in "+repoName))
		}
		moved := editedMsg{e: tagMove(e, repo, r.tag.Name, repoName), result: r.tag,
			old: map[string]string{"digest": r.was.Digest}, new: map[string]string{"digest": r.tag.Digest},
			flash: afterLoss(lost) + "moved tag " + strconv.Quote(safe.String(r.tag.Name)) + " of " + repoName + " from " +
				shortDigest(r.was.Digest) + " to " + shortDigest(r.tag.Digest) + " (" + e.common.Key(keymap.Undo) + " moves it back)"}
		return tea.Batch(changed, func() tea.Msg { return moved })
	}
	return e.open(func(ctx context.Context) views.Screen {
		cfg.Ctx = ctx
		return form.New(e.common, cfg)
	})
}

// tagFound is what became of a tag sent whose answer was lost, from the
// tag of that name the server has now (t, nil for none) and the one the
// send replaced (was): at the digest sent it is done; absent, or still
// where it was, it was not (enter sends again); elsewhere, the digest
// found is offered to edit from (the form looks the name up again before
// it sends, so the next send moves the tag from there).
func (e *env) tagFound(n *api.Note, was *api.Tag, v map[string]string, t *api.Tag, err error) (form.Found, error) {
	name := safe.String(v["name"])
	switch {
	case err != nil:
		e.changes.settle(n, "lookup failed")
		return form.Found{}, err
	case t != nil && t.Digest == v["digest"]:
		e.changes.settle(n, "found it at the digest sent")
		return form.Found{Verdict: form.Made, Says: "the server has " + name + " at " + shortDigest(t.Digest),
			Result: foundAfterLoss{tagResult{tag: t, was: was}}}, nil
	case t == nil && was == nil:
		e.changes.settle(n, "found not created")
		return form.Found{Verdict: form.Absent, Says: "the server has no tag " + name}, nil
	case t == nil:
		e.changes.settle(n, "found it gone")
		return form.Found{Verdict: form.Other, Says: "the server no longer has tag " + name}, nil
	case was != nil && t.Digest == was.Digest:
		e.changes.settle(n, "found it not moved")
		return form.Found{Verdict: form.Absent, Says: "the server still has " + name + " at " + shortDigest(t.Digest)}, nil
	}
	e.changes.settle(n, "found it at another digest")
	return form.Found{Verdict: form.Other, Says: "the server has " + name + " at " + shortDigest(t.Digest),
		Values: map[string]string{"digest": t.Digest}}, nil
}

// tagResult is a tag sent, and the tag of that name before, if any.
type tagResult struct {
	tag *api.Tag
	was *api.Tag
}

// tagMove is moving a tag as an edit, so that u moves it back (POST with
// the old digest).
func tagMove(e *env, repo, name, repoName string) edit {
	c := e.client
	return edit{mask: "digest", name: name, noun: "tag", reload: []views.Change{views.Changed(repo)},
		patch: func(ctx context.Context, v map[string]string) (any, error) {
			return c.CreateTag(ctx, repo, name, v["digest"])
		},
		current: func(ctx context.Context) (map[string]string, any, error) {
			t, err := c.FindTag(ctx, repo, name)
			if t == nil || err != nil {
				return nil, nil, err
			}
			return map[string]string{"digest": t.Digest}, t, nil
		}}
}

// shortDigest is a digest as "sha256:" and its first 12 hex digits.
func shortDigest(d string) string { return safe.String(text.Short(d, 12)) }
