package ui

import (
	"reflect"
	"strings"
	"testing"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/resource"
	"canopy/theme"
	"canopy/views/detail"
	"canopy/views/explorer"
	"canopy/views/tree"
)

// TestEveryKindIsItsDescriptors: the shell's kinds are package resource's,
// one each, named as it names them; a kind with a `:` command has the
// table it opens, and one without says why.
func TestEveryKindIsItsDescriptors(t *testing.T) {
	t.Parallel()
	r := kinds(nil)
	seen := map[string]bool{}
	for _, k := range r.all {
		d, ok := resource.Of(k.noun)
		if !ok {
			t.Errorf("the shell's kind %q has no descriptor", k.noun)
			continue
		}
		seen[d.Noun] = true
		switch {
		case d.Command != "" && (k.command == nil || k.whole == nil || k.table == nil):
			t.Errorf("%s: :%s opens no table here", d.Noun, d.Command)
		case d.Command == "" && d.NoCommand == "":
			t.Errorf("%s: no `:` command, and no word why", d.Noun)
		case d.Plugin != "" && len(d.Gives) > 0 && k.vars == nil:
			t.Errorf("%s: plugins are told it gives %v, but the shell gives none", d.Noun, d.Gives)
		case d.Plugin == "" && d.NoPlugin == "":
			t.Errorf("%s: no plugin runs on it, and no word why", d.Noun)
		}
	}
	for _, d := range resource.Kinds() {
		if !seen[d.Noun] {
			t.Errorf("%s: described, but the shell has no such kind", d.Noun)
		}
	}
}

// someOf is the uid (or, for an advisory, the id) of one resource of each
// kind canopy open shows, read from the emulator.
func someOf(t *testing.T, c *api.Client, org string) map[string]string {
	t.Helper()
	ctx, whole := t.Context(), api.ListOptions{DescendantsOf: org, PageSize: 1}
	first := func(uid string, err error) string {
		t.Helper()
		if err != nil || uid == "" {
			t.Fatalf("no resource to open: %q %v", uid, err)
		}
		return uid
	}
	repos, err := c.ListRepos(ctx, whole)
	repo := first(uidOf(repos, err))
	out := map[string]string{resource.Repo: repo}
	out[resource.Tag] = first(uidOf(c.ListTags(ctx, api.ListOptions{ChildrenOf: repo, PageSize: 1})))
	out[resource.Folder] = first(uidOf(c.ListGroups(ctx, whole)))
	out[resource.Identity] = first(uidOf(c.ListIdentities(ctx, whole)))
	out[resource.Binding] = first(uidOf(c.ListRoleBindings(ctx, whole)))
	out[resource.Subscription] = first(uidOf(c.ListSubscriptions(ctx, whole)))
	out[resource.Provider] = first(uidOf(c.ListIdentityProviders(ctx, whole)))
	out[resource.Invite] = first(uidOf(c.ListGroupInvites(ctx, whole)))
	out[resource.Mapping] = first(uidOf(c.ListExternalGroupRoleMappings(ctx, whole)))
	out[resource.Role] = first(uidOf(c.ListRoles(ctx, whole)))
	adv, err := c.ListAdvisories(ctx, api.ListOptions{PageSize: 1})
	if err != nil || len(adv.Items) == 0 {
		t.Fatalf("no advisory: %v", err)
	}
	out[resource.Advisory] = adv.Items[0].AdvisoryID
	return out
}

// uidOf is the uid of a page's first item.
func uidOf[T any](p *api.Page[T], err error) (string, error) {
	if err != nil || len(p.Items) == 0 {
		return "", err
	}
	return reflect.ValueOf(&p.Items[0]).Elem().FieldByName("UID").String(), nil
}

// TestEveryKindOpens: for every kind, its `:` command opens its table,
// and canopy open shows one (by uid, an advisory by its id); a kind that
// cannot says why in its descriptor (TestEveryKindIsItsDescriptors).
func TestEveryKindOpens(t *testing.T) {
	t.Parallel()
	srv, client := newEmulator(t, emulator.Options{Seed: 1})
	targets := someOf(t, client, srv.OrgUID())
	for _, d := range resource.Kinds() {
		t.Run(d.Noun, func(t *testing.T) {
			t.Parallel()
			if d.Command != "" {
				h, _ := startAt(t, Start{Command: ":" + d.Command})
				k := h.m.env.kinds.byNoun(d.Noun)
				s := h.waitFor(":"+d.Command+" opening its table", func(s string) bool {
					if h.m.env.org == nil || len(h.m.stack) != 2 {
						return false
					}
					title, _ := k.whole(h.m.env)
					return strings.Contains(strings.SplitN(s, "\n", 2)[0], string(title))
				})
				// Rows of many folders say whose, as canopy list does.
				if d.InFolders && !strings.Contains(s, "FOLDER") {
					t.Errorf(":%s: %s live in folders, but the table has no FOLDER column:\n%s", d.Command, d.Nouns, s)
				}
			}
			switch {
			case d.OpenBy != "":
				target := targets[d.Noun]
				h, _ := startAt(t, Start{Open: target})
				h.waitText("opened the " + d.Noun)
				k := h.m.env.kinds.byNoun(d.Noun)
				shown := func(item any) bool { return item != nil && (k.uid(item) == target || k.name(item) == target) }
				if k.node == nil {
					// Not in the tree: its page, on top.
					h.waitFor("the page of the "+d.Noun, func(string) bool {
						p, ok := h.m.top().(*detail.Model)
						return ok && shown(p.Item())
					})
					return
				}
				h.waitFor("the cursor on the "+d.Noun+" in the tree", func(string) bool {
					ex, ok := h.m.top().(*explorer.Model)
					n := (*tree.Node)(nil)
					if ok {
						n = ex.Tree().Selected()
					}
					return n != nil && shown(n.Item)
				})
			case d.NoOpen == "":
				t.Errorf("canopy open shows no %s, and its descriptor does not say why", d.Noun)
			}
		})
	}
}

// TestNoCommandSaysWhy: a kind with no `:` command answers its name with
// its descriptor's reason instead of "unknown command".
func TestNoCommandSaysWhy(t *testing.T) {
	t.Parallel()
	h, _ := startAt(t, Start{})
	h.waitText("platform")
	for _, d := range resource.Kinds() {
		if d.NoCommand == "" {
			continue
		}
		words := strings.Fields(d.Nouns)
		name := words[len(words)-1]
		h.typeText(":" + name)
		h.keys("enter")
		h.waitText(":" + name + " is no command: " + d.NoCommand[:40])
		h.keys("esc") // the line stays open to be put right
	}
}

// TestHelpListsEveryCommand: `?` lists every `:` command, each kind's
// among them, with what it does.
func TestHelpListsEveryCommand(t *testing.T) {
	t.Parallel()
	srv, client := newEmulator(t, emulator.Options{Seed: 1})
	h := startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Theme: theme.Options{Name: theme.Dark}}, 140, 300)
	h.waitText("platform")
	h.keys("?")
	s := h.waitText("Commands", "Mouse")
	for _, d := range resource.Kinds() {
		if d.Command != "" && !strings.Contains(s, ":"+d.Command) {
			t.Errorf("the help does not list :%s", d.Command)
		}
	}
	for _, c := range []string{":overview", ":changes", ":save"} {
		if !strings.Contains(s, c) {
			t.Errorf("the help does not list %s", c)
		}
	}
}
