package ui

import (
	"context"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/resource"
	"canopy/safe"
	"canopy/views"
	"canopy/views/columns"
	"canopy/views/detail"
	"canopy/views/paging"
	"canopy/views/table"
)

// What a repo's or a tag's image had resolved lately: its page sums it up
// (RESOLVED), and `v` there lists it, a row a vulnerability and day, each
// opening its advisory.

// resolvedDays is how many days back a page asks about.
const resolvedDays = 90

// resolvedSources are where repo and tag pages read what their image had
// resolved.
func (e *env) resolvedSources() *detail.ResolvedSources {
	return &detail.ResolvedSources{Ask: e.askResolved, Open: e.openResolved}
}

// resolvedImage is the image of a repo or a tag as the service names it: its
// repo's name ("" while the shell does not know it: its uid then) and the
// tag ("" for a repo: the service's default, latest).
func (e *env) resolvedImage(item any) (repoUID, repo, tag string) {
	switch it := item.(type) {
	case *api.Repo:
		return it.UID, it.Name, ""
	case *api.Tag:
		return api.ParentUID(it.UID), e.tagRepo(it, nil), it.Name
	}
	return "", "", ""
}

// askResolved reads what the image of item had resolved, in the command
// it returns (called in Update, which reads the names the shell knows).
func (e *env) askResolved(ctx context.Context, item any, reply func(detail.Resolved, error) tea.Msg) tea.Cmd {
	repoUID, repo, tag := e.resolvedImage(item)
	c, till := e.client, e.common.Clock()
	return func() tea.Msg { return reply(readResolved(ctx, c, repoUID, repo, tag, till)) }
}

// readResolved reads what an image had resolved in the resolvedDays up to
// till; a repo whose name is not known is read first.
func readResolved(ctx context.Context, c *api.Client, repoUID, repo, tag string, till time.Time) (detail.Resolved, error) {
	if repo == "" {
		r, err := c.GetRepo(ctx, repoUID)
		if err != nil {
			return detail.Resolved{}, fetchError("the tag's repo", err)
		}
		repo = r.Name
	}
	q := api.ResolvedQuery{Image: api.ImageRef{Repo: repo}, Start: till.AddDate(0, 0, -resolvedDays), End: till}
	if tag != "" {
		q.Image.Tags = []string{tag}
	}
	reports, err := c.ListResolvedVulnsReports(ctx, q)
	if err != nil {
		return detail.Resolved{}, fetchError("resolved vulnerabilities", err)
	}
	return detail.Resolved{Image: imageName(repo, tag), Since: q.Start, Till: q.End, Reports: reports}, nil
}

// imageName is an image as canopy writes it: "python:3.12", and a repo's
// "python:latest" (what the service reads of a repo without tags).
func imageName(repo, tag string) string {
	if tag == "" {
		tag = "latest"
	}
	return repo + ":" + tag
}

// openResolved opens the table of what the image of item had resolved.
func (e *env) openResolved(item any) tea.Cmd {
	repoUID, repo, tag := e.resolvedImage(item)
	c, till := e.client, e.common.Clock()
	title := "resolved in " + safe.Of(imageName(repo, tag))
	if repo == "" {
		title = "resolved in the image of the tag " + safe.Of(tag)
	}
	title += safe.Of(fmt.Sprintf(", last %d days", resolvedDays))
	return e.open(func(ctx context.Context) views.Screen {
		src := func(ctx context.Context, req paging.Request) (paging.Result[columns.ResolvedRow], error) {
			if req.Token != "" || req.Skip > 0 {
				return paging.Result[columns.ResolvedRow]{}, nil // one page holds them all
			}
			r, err := readResolved(ctx, c, repoUID, repo, tag, till)
			if err != nil {
				return paging.Result[columns.ResolvedRow]{}, err
			}
			rows := columns.ResolvedRows(r.Reports)
			return paging.Result[columns.ResolvedRow]{Items: rows, Total: int64(len(rows))}, nil
		}
		return table.New(e.common, table.Config[columns.ResolvedRow]{Title: title, Columns: columns.Resolved(e.common),
			List: paging.New(ctx, src, columns.ResolvedKey), Key: columns.ResolvedKey,
			Orders: []table.Order{{Label: "newest first"}},
			Open:   func(r *columns.ResolvedRow) tea.Cmd { return e.advisoryPage(r.ID) },
			Copy:   func(r *columns.ResolvedRow) (string, string) { return r.ID, "advisory id" }})
	})
}

// advisoryPage looks an advisory up by its id and opens its page.
func (e *env) advisoryPage(id string) tea.Cmd {
	k := e.kinds.byNoun(resource.Advisory)
	ctx, c, org := e.ctx, e.client, ""
	if e.org != nil {
		org = e.org.UID
	}
	return tea.Sequence(views.Flash("looking up "+safe.String(id)+"…"), func() tea.Msg {
		items, err := k.find(ctx, c, org, id)
		switch {
		case err != nil:
			return views.FlashMsg{Text: safe.String(err.Error()), Error: true}
		case len(items) == 0:
			return views.FlashMsg{Text: "no advisory of the feed has the id " + safe.String(id), Error: true}
		}
		item := items[0]
		return openMsg{screenAsk{build: func(ctx context.Context) views.Screen {
			return detail.NewPage(ctx, e.common, e.fetch(ctx), item)
		}}}
	})
}
