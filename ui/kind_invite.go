package ui

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/resource"
	"canopy/safe"
	"canopy/text"
	"canopy/views"
	"canopy/views/columns"
	"canopy/views/detail"
	"canopy/views/dialog"
	"canopy/views/form"
	"canopy/views/paging"
	"canopy/views/table"
)

// inviteKind: a code that joins whoever redeems it to a folder with a
// role. It has no name: the user knows it by its role and who may redeem
// it. Its code is said once, in the answer to its create, so the page of
// a new invite opens with it.
type inviteKind struct{ is[api.GroupInvite] }

func (inviteKind) of() string                       { return resource.Invite }
func (inviteKind) shape() shape                     { return shape{list: "groupInvites"} }
func (inviteKind) label(g *api.GroupInvite) string  { return inviteName(g) }
func (inviteKind) folder(g *api.GroupInvite) string { return api.ParentUID(g.UID) }
func (inviteKind) page(e *env) detail.Page          { return invitePage(e) }
func (inviteKind) title(g *api.GroupInvite) safe.Text {
	return "invite: " + safe.Of(inviteName(g))
}
func (inviteKind) whole(e *env) (safe.Text, api.ListOptions) {
	return "invites of " + safe.Of(e.org.Name), api.ListOptions{DescendantsOf: e.org.UID}
}
func (inviteKind) table(e *env, ctx context.Context, title safe.Text, o api.ListOptions) views.Screen {
	return invitesTable(e, ctx, title, o)
}

// copy: the code, while the page of a new invite has it; else the uid. It
// is a secret.
func (inviteKind) copy(g *api.GroupInvite) (string, string) {
	if g.Code != "" {
		return g.Code, "invite code"
	}
	return "", ""
}
func (inviteKind) copiesSecret() bool { return true }
func (inviteKind) create(e *env, parent, parentName string) tea.Cmd {
	return newInvite(e, parent, parentName)
}
func (inviteKind) del(c *api.Client, ctx context.Context, uid string) error {
	return c.DeleteGroupInvite(ctx, uid)
}
func (inviteKind) get(c *api.Client, ctx context.Context, uid string) (*api.GroupInvite, error) {
	return c.GetGroupInvite(ctx, uid)
}
func (inviteKind) lost(_ *env, cfg *dialog.Config, gs []*api.GroupInvite) {
	var its safe.Text = "Its code joins"
	if len(gs) > 1 {
		its = "Their codes join"
	}
	cfg.Lines = append(cfg.Lines, its+" no one any more; who joined with it keeps their role.")
}

// inviteName is "viewer for ana@example.com", "owner for anyone".
func inviteName(g *api.GroupInvite) string {
	role := g.RoleUID
	if g.Role != nil && g.Role.Name != "" {
		role = g.Role.Name
	}
	return role + " for " + columns.InviteFor(g)
}

func invitesTable(e *env, ctx context.Context, title safe.Text, o api.ListOptions) views.Screen {
	return table.New(e.common, table.Config[api.GroupInvite]{Title: title, Refused: e.orders.of("groupInvites"),
		Columns: columns.InvitesIn(e.common, e.folderColumn(o)), Loaded: loadedIn(e, o, api.GroupInviteKey),
		List: paging.New(ctx, source(e.client.ListGroupInvites, o), api.GroupInviteKey), Key: api.GroupInviteKey,
		Orders: columns.InviteOrders(), Open: pageOf[api.GroupInvite](e), Copy: uidCopy(api.GroupInviteKey),
		New:    func() tea.Cmd { return invitesNew(e, o, whereOf(string(title))) },
		Watch:  kindFor[api.GroupInvite](e.kinds).watched,
		Delete: rowDelete[api.GroupInvite](e)})
}

// invitesNew is n in an invite table: in a table spanning folders (the
// organization's invites) the folder is asked first, in a folder's own
// the invite is to that folder.
func invitesNew(e *env, o api.ListOptions, where string) tea.Cmd {
	if !spansFolders(o) {
		return newInvite(e, scopeOf(o), where)
	}
	return whichFolder(e, "New invite: to which folder?", scopeOf(o), nil, func(uid, where string) func(context.Context) views.Screen {
		return inviteForm(e, uid, where)
	})
}

// invitePage is an invite's page: its folder by path once read (the uid
// until then), and when it expires said from the shell's clock.
func invitePage(e *env) detail.Page {
	c, common := e.client, e.common
	return detail.NamedPage(api.GroupInviteKey, func(g *api.GroupInvite, name func(string) string) []detail.Field {
		return inviteFields(g, name, common.Clock())
	}, func(ctx context.Context, g *api.GroupInvite) (map[string]string, error) {
		folder := api.ParentUID(g.UID)
		path, err := readFolderPath(ctx, c, folder)
		if err != nil || path == "" {
			return nil, err
		}
		return map[string]string{folder: path}, nil
	})
}

// inviteFields are what an invite's page shows below its uid: the code
// first when this answer has it (only a create's does), then the folder
// it joins people to (name: its path, "" while unknown).
func inviteFields(g *api.GroupInvite, name func(uid string) string, now time.Time) []detail.Field {
	var fs []detail.Field
	if g.Code != "" {
		fs = append(fs, detail.Field{Section: "CODE: SHOWN ONCE, COPY IT NOW"}, detail.Field{Label: "code", Value: g.Code},
			detail.Field{Section: "INVITE"})
	}
	folder := api.ParentUID(g.UID)
	if path := name(folder); path != "" {
		folder = path
	}
	role := detail.Field{Label: "role", Value: g.RoleUID}
	if g.Role != nil {
		role.Value = g.Role.Name + "  (" + g.RoleUID + ")"
	}
	expires := detail.Field{Label: "expires", Value: "—"}
	if t := g.ExpirationTime; !t.IsZero() {
		expires.Value = columns.Expires(t, now) + " (" + text.Stamp(t.Time()) + ")"
	}
	return append(fs, detail.Field{Label: "folder", Value: folder}, role, detail.Field{Label: "for", Value: columns.InviteFor(g)},
		expires, detail.Field{Label: "single use", Value: yesNo(g.SingleUse)},
		detail.Field{Label: "key id", Value: g.KeyID}, detail.Field{Label: "created", When: g.CreateTime})
}

// newInvite is the form of a new invite to a folder (inviteForm), opened
// now.
func newInvite(e *env, parent, parentName string) tea.Cmd {
	if st := e.common.Change(keymap.New); !st.Enabled {
		return views.FlashError(st.Reason)
	}
	return e.open(inviteForm(e, parent, parentName))
}

// inviteForm is the form of a new invite to a folder: the role it grants,
// who may redeem it, how long it lasts, and whether once only. Its answer
// opens as a page, which has the code.
func inviteForm(e *env, parent, parentName string) func(context.Context) views.Screen {
	c, org := e.client, e.org.UID
	return e.createScreen("invite", parentName, creation{parent: parent,
		sends: api.GroupInvites.Create(parent), named: "roleUid", show: true,
		fields: []form.Field{
			{Key: "roleUid", Label: "role", Value: "viewer", Placeholder: "the role it grants", Validate: required},
			{Key: "email", Label: "for", Placeholder: "an email address, or empty for anyone with the code", Validate: email},
			{Key: "ttl", Label: "lasts", Value: "7d", Placeholder: "7d, 12h, 30m", Validate: lasting},
			{Key: "singleUse", Label: "single use", Value: "true", Choices: []string{"true", "false"}, ChoiceLabel: choiceYesNo},
		},
		submit: func(ctx context.Context, v map[string]string) (any, error) {
			role, err := roleNamed(ctx, c, org, "roleUid", strings.TrimSpace(v["roleUid"]))
			if err != nil {
				return nil, err
			}
			ttl, _ := duration(v["ttl"]) // checked as typed
			return c.CreateGroupInvite(ctx, parent, api.NewGroupInvite{RoleUID: role, Email: strings.TrimSpace(v["email"]),
				TTL: api.Duration(ttl), SingleUse: v["singleUse"] == "true"})
		}})
}

// email accepts an empty value (anyone) or an address.
func email(s string) error {
	if s == "" {
		return nil
	}
	if at := strings.IndexByte(s, '@'); at <= 0 || at == len(s)-1 || strings.ContainsAny(s, " \t") {
		return errors.New("an email address, or empty for anyone")
	}
	return nil
}

// lasting accepts a duration the invite lasts.
func lasting(s string) error {
	if _, err := duration(s); err != nil {
		return err
	}
	return nil
}

// maxDays bounds what the form takes (the server says how long an invite
// may last; this only keeps the number a number).
const maxDays = 36500

// duration reads "7d", "12h", "30m" (or any Go duration): more than none.
func duration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	d, err := time.ParseDuration(s)
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, e := strconv.Atoi(days)
		if e == nil && n > maxDays {
			e = strconv.ErrRange
		}
		d, err = time.Duration(n)*24*time.Hour, e
	}
	switch {
	case err != nil && errors.Is(err, strconv.ErrRange), err == nil && d > maxDays*24*time.Hour:
		return 0, fmt.Errorf("at most %d days", maxDays)
	case err != nil || d <= 0:
		return 0, fmt.Errorf("how long: 7d, 12h, 30m")
	}
	return d, nil
}
