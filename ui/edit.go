package ui

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/views"
	"canopy/views/form"
	"canopy/views/safe"
)

// edit is one editable part of a resource: the fields it shows, the update
// mask it sends, and how the values go into the resource.
type edit struct {
	mask   string
	fields []form.Field
	// patch sends the values (by field key) and returns the new resource.
	patch func(ctx context.Context, values map[string]string) (any, error)
	path  string // the resource's path, for the preview
	name  string // the resource's name, for the flash
}

// editedMsg says an edit went through: the new resource, and what to undo
// it with.
type editedMsg struct {
	e        edit
	result   any
	old, new map[string]string
}

// undoneMsg is the answer to an undo.
type undoneMsg struct {
	e      edit
	result any
	err    error
}

// Validation of API.md's patterns.
var (
	nonEmpty = func(s string) error {
		if strings.TrimSpace(s) == "" {
			return errors.New("required")
		}
		return nil
	}
	httpsURL = regexp.MustCompile(`^https://[^\s/$.?#].[^\s]*$`)
)

// description is API.md's description pattern: at most 512 printable
// characters.
func description(s string) error {
	if n := utf8.RuneCountInString(s); n > 512 {
		return fmt.Errorf("at most 512 characters (%d)", n)
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("printable characters only (%U)", r)
		}
	}
	return nil
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
func tiers() []string {
	return []string{"", "CATALOG_TIER_APPLICATION", "CATALOG_TIER_BASE", "CATALOG_TIER_FIPS", "CATALOG_TIER_AI",
		"CATALOG_TIER_DEVTOOLS", "CATALOG_TIER_COMMERCIAL"}
}

// edits lists the updatable parts of a resource, the main one first.
func (e *env) edits(item any) []edit {
	c := e.client
	switch it := item.(type) {
	case *api.Repo:
		r := *it
		send := func(ctx context.Context, mask string, set func(*api.Repo)) (any, error) {
			next := r
			set(&next)
			return c.PatchRepo(ctx, next, mask)
		}
		path := "/registry/v2/repos/" + r.UID
		return []edit{
			{mask: api.FieldDescription, path: path, name: r.Name,
				fields: []form.Field{{Key: "description", Label: "description", Value: r.Description, Validate: description}},
				patch: func(ctx context.Context, v map[string]string) (any, error) {
					return send(ctx, api.FieldDescription, func(x *api.Repo) { x.Description = v["description"] })
				}},
			{mask: api.FieldCatalogTier, path: path, name: r.Name,
				fields: []form.Field{{Key: "catalogTier", Label: "tier", Value: r.CatalogTier, Choices: tiers()}},
				patch: func(ctx context.Context, v map[string]string) (any, error) {
					return send(ctx, api.FieldCatalogTier, func(x *api.Repo) { x.CatalogTier = v["catalogTier"] })
				}},
			{mask: api.FieldBundles, path: path, name: r.Name,
				fields: []form.Field{{Key: "bundles", Label: "bundles", Value: joined(r.Bundles), Placeholder: "comma separated"}},
				patch: func(ctx context.Context, v map[string]string) (any, error) {
					return send(ctx, api.FieldBundles, func(x *api.Repo) { x.Bundles = list(v["bundles"]) })
				}},
			{mask: api.FieldAliases, path: path, name: r.Name,
				fields: []form.Field{{Key: "aliases", Label: "aliases", Value: joined(r.Aliases), Placeholder: "comma separated"}},
				patch: func(ctx context.Context, v map[string]string) (any, error) {
					return send(ctx, api.FieldAliases, func(x *api.Repo) { x.Aliases = list(v["aliases"]) })
				}},
		}
	case *api.Group:
		g := *it
		path := "/iam/v2/groups/" + g.UID
		return []edit{
			{mask: api.FieldDescription, path: path, name: g.Name,
				fields: []form.Field{{Key: "description", Label: "description", Value: g.Description, Validate: description}},
				patch: func(ctx context.Context, v map[string]string) (any, error) {
					next := g
					next.Description = v["description"]
					return c.PatchGroup(ctx, next, api.FieldDescription)
				}},
			{mask: api.FieldName, path: path, name: g.Name,
				fields: []form.Field{{Key: "name", Label: "name", Value: g.Name, Validate: nonEmpty}},
				patch: func(ctx context.Context, v map[string]string) (any, error) {
					next := g
					next.Name = v["name"]
					return c.PatchGroup(ctx, next, api.FieldName)
				}},
		}
	case *api.Identity:
		id := *it
		path := "/iam/v2/identities/" + id.UID
		cm := api.ClaimMatch{}
		if id.ClaimMatch != nil {
			cm = *id.ClaimMatch
		}
		return []edit{
			{mask: api.FieldDescription, path: path, name: id.Name,
				fields: []form.Field{{Key: "description", Label: "description", Value: id.Description, Validate: description}},
				patch: func(ctx context.Context, v map[string]string) (any, error) {
					next := id
					next.Description = v["description"]
					return c.PatchIdentity(ctx, next, api.FieldDescription)
				}},
			{mask: api.FieldClaimMatch, path: path, name: id.Name,
				fields: []form.Field{
					{Key: "claimMatch.issuer", Label: "issuer", Value: cm.Issuer, Validate: nonEmpty, Placeholder: "https://…"},
					{Key: "claimMatch.subject", Label: "subject", Value: cm.Subject, Validate: nonEmpty},
				},
				patch: func(ctx context.Context, v map[string]string) (any, error) {
					next := id
					next.ClaimMatch = &api.ClaimMatch{Issuer: v["claimMatch.issuer"], Subject: v["claimMatch.subject"]}
					return c.PatchIdentity(ctx, next, api.FieldClaimMatch)
				}},
		}
	}
	return nil
}

// formOf makes the form of an edit: preview, send, explain, and, once
// through, the new version everywhere and a way to undo.
func (e *env) formOf(ctx context.Context, ed edit) form.Config {
	old := map[string]string{}
	for _, f := range ed.fields {
		old[f.Key] = f.Value
	}
	return form.Config{Title: "edit " + ed.mask + " of " + safe.String(ed.name), Fields: ed.fields, Ctx: ctx,
		Preview: func(v map[string]string) string { return preview(ed, old, v) },
		Submit:  ed.patch, Explain: explain,
		Done: func(result any) tea.Cmd {
			return func() tea.Msg { return editedMsg{e: ed, result: result, old: old, new: valuesOf(ed.mask, result)} }
		}}
}

// valuesOf reads the fields of an edit back from the server's answer.
func valuesOf(mask string, result any) map[string]string {
	out := map[string]string{}
	// Only the fields are read: no request is made without a client.
	for _, ed := range (&env{}).edits(result) {
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
		if old[f.Key] != v[f.Key] {
			changes = append(changes, strconv.Quote(short(old[f.Key]))+" → "+strconv.Quote(short(v[f.Key])))
		}
	}
	if len(changes) == 0 {
		changes = append(changes, "unchanged")
	}
	return "PATCH " + shortPath(ed.path) + "?updateMask=" + ed.mask + "  " + strings.Join(changes, ", ")
}

// shortPath keeps a uid's last segment: /registry/v2/repos/…/121222eda7a9eba3.
func shortPath(p string) string {
	parts := strings.Split(p, "/")
	if len(parts) > 5 {
		return strings.Join(parts[:4], "/") + "/…/" + parts[len(parts)-1]
	}
	return p
}

func short(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		return string([]rune(s)[:40]) + "…"
	}
	return s
}

// explain sorts a failed change's reasons for a form: BadRequest field
// violations go to their field (claimMatch's to both of its inputs), the
// rest to the form. No answer means the outcome is unknown.
func explain(err error) (map[string]string, []string) {
	var te *api.TransportError
	if errors.As(err, &te) || errors.Is(err, context.DeadlineExceeded) {
		return nil, []string{"no answer from the server in time: unknown whether the change was made — esc, then r to refresh and see (" +
			safe.String(shortPath(err.Error())) + ")"}
	}
	fields := map[string]string{}
	for _, v := range api.FieldViolations(err) {
		fields[v.Field] = safe.String(v.Description)
		if v.Field == "claimMatch" {
			fields["claimMatch.issuer"], fields["claimMatch.subject"] = fields[v.Field], fields[v.Field]
			delete(fields, v.Field)
		}
	}
	var general []string
	if len(fields) == 0 {
		lines, _ := failure(err)
		general = lines
	}
	return fields, general
}

// undo sends the values before the last edit, with the same mask.
func (e *env) undo(ctx context.Context, last *editedMsg) tea.Cmd {
	ed, old := last.e, last.old
	return func() tea.Msg {
		res, err := ed.patch(ctx, old)
		return undoneMsg{e: ed, result: res, err: err}
	}
}

// updated tells every screen about a resource's new version.
func updated(item any) tea.Cmd {
	return func() tea.Msg { return views.UpdatedMsg{Item: item} }
}
