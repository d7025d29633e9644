package ui

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/views"
	"canopy/views/form"
	"canopy/views/safe"
	"canopy/views/text"
)

// tagSeen remembers what the lookup found for each tag name typed, so
// that the request sent says whether it created or moved the tag (the
// lookup runs in one command, the send in another).
type tagSeen struct {
	mu    sync.Mutex
	found map[string]*api.Tag
}

func (s *tagSeen) put(name string, t *api.Tag) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.found[name] = t
}

func (s *tagSeen) get(name string) *api.Tag {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.found[name]
}

// tagForm is `n` in a repo: a tag's name and digest. POST tags creates or
// moves (API.md), so the name is looked up as it is typed: an existing
// tag is said, with where it points and where it would go, and moving it
// takes a second enter; u moves it back.
func (e *env) tagForm(repo, repoName string) tea.Cmd {
	c := e.client
	seen := &tagSeen{found: map[string]*api.Tag{}}
	path := "/registry/v2/tags/" + repo
	cfg := form.Config{Title: "New tag in " + repoName, Page: true, Explain: e.explain,
		Fields: []form.Field{
			{Key: "name", Label: "name", Validate: matching(tagNameRE, "letters, digits, . _ -")},
			{Key: "digest", Label: "digest", Placeholder: "sha256:…", Validate: matching(digestRE, "sha256: and 64 hex digits")},
		},
		Preview: func(v map[string]string) string {
			return "POST " + shortPath(path) + `  {"name": ` + quoted(v["name"]) + `, "digest": "` + text.Short(v["digest"], 12) + `…"}`
		},
		LookupKey: func(v map[string]string) string {
			if tagNameRE.MatchString(v["name"]) {
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
			var t *api.Tag
			if len(p.Items) > 0 {
				t = &p.Items[0]
			}
			seen.put(v["name"], t)
			return t, nil
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
				" (u moves it back)", true
		},
	}
	cfg.Submit = func(ctx context.Context, v map[string]string) (any, error) {
		was := seen.get(v["name"])
		n := &note{method: "POST", path: path, what: "tag " + strconv.Quote(v["name"]) + " of " + repoName, fields: "digest"}
		if was != nil {
			n.change = "moved " + shortDigest(was.Digest) + " → " + shortDigest(v["digest"])
		} else {
			n.change = "created at " + shortDigest(v["digest"])
		}
		e.changes.expect(n)
		t, err := c.CreateTag(ctx, repo, v["name"], v["digest"])
		if err != nil {
			return nil, err
		}
		e.changes.answered(n, t)
		return tagResult{tag: t, was: was}, nil
	}
	cfg.Done = func(result any) tea.Cmd {
		r := result.(tagResult)
		ids := []string{repo}
		changed := func() tea.Msg { return views.ChangedMsg{IDs: ids} }
		if r.was == nil || r.was.Digest == r.tag.Digest {
			return tea.Batch(changed, views.Flash("created tag "+strconv.Quote(safe.String(r.tag.Name))+" in "+repoName))
		}
		moved := editedMsg{e: e.tagMove(repo, r.tag.Name, repoName), result: r.tag,
			old: map[string]string{"digest": r.was.Digest}, new: map[string]string{"digest": r.tag.Digest},
			flash: "moved tag " + strconv.Quote(safe.String(r.tag.Name)) + " of " + repoName + " from " + shortDigest(r.was.Digest) +
				" to " + shortDigest(r.tag.Digest) + " (u moves it back)"}
		return tea.Batch(changed, func() tea.Msg { return moved })
	}
	return e.open(func(ctx context.Context) views.Screen {
		cfg.Ctx = ctx
		return form.New(e.common, cfg)
	})
}

// tagResult is a tag sent, and the tag of that name before, if any.
type tagResult struct {
	tag *api.Tag
	was *api.Tag
}

// tagMove is moving a tag as an edit, so that u moves it back (POST with
// the old digest).
func (e *env) tagMove(repo, name, repoName string) edit {
	c := e.client
	return edit{mask: "digest", method: "POST", path: "/registry/v2/tags/" + repo, name: name, noun: "tag", reload: []string{repo},
		patch: func(ctx context.Context, v map[string]string) (any, error) {
			return c.CreateTag(ctx, repo, name, v["digest"])
		}}
}

// shortDigest is a digest as "sha256:" and its first 12 hex digits.
func shortDigest(d string) string { return safe.String(text.Short(d, 12)) }
