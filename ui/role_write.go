package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/lazyregexp"
	"canopy/resource"
	"canopy/safe"
	"canopy/views"
	"canopy/views/capabilities"
	"canopy/views/form"
)

// Custom roles, written: n makes one in the organization (its
// capabilities picked first, then its name and description), e changes
// its name or description in place and its capabilities in the picker,
// d deletes it. The service's own roles are not changed: their e and d
// are offered off, saying why, and n starts a custom role from one's
// capabilities.

// capsKey is the form field of a role's capabilities: their short names,
// comma separated, in the catalogue's order.
const capsKey = "capabilities"

// capsMax bounds the field: every capability's short name fits.
const capsMax = 8192

// capabilityOptions are the catalogue as the picker and the page show it,
// with any of held it lacks (a deprecated one a role still has) last,
// kept as the role has it.
func capabilityOptions(held []string) []capabilities.Option {
	var out []capabilities.Option
	known := map[string]bool{}
	for _, c := range api.Capabilities() {
		known[c.Name] = true
		out = append(out, capabilities.Option{Name: c.Name, Short: c.Short, Domain: c.Domain, Allows: c.Allows})
	}
	for _, h := range held {
		if !known[h] {
			known[h] = true
			out = append(out, capabilities.Option{Name: h, Short: h, Domain: "not in the catalogue",
				Allows: "held by the role; no new role may be given it"})
		}
	}
	return out
}

// capsText is capabilities (enum names) as the form shows them: short
// names in the catalogue's order, then those it lacks, as they are.
func capsText(names []string) string {
	has := map[string]bool{}
	for _, n := range names {
		has[n] = true
	}
	var out []string
	for _, c := range api.Capabilities() {
		if has[c.Name] {
			out = append(out, c.Short)
			delete(has, c.Name)
		}
	}
	for _, n := range names {
		if has[n] {
			out = append(out, n)
			delete(has, n)
		}
	}
	return strings.Join(out, ", ")
}

// enumName is how the enum writes a value; one the catalogue lacks is
// sent as written, for the service to judge.
var enumName = lazyregexp.New(`^CAP_[A-Z0-9_]+$`)

// parseCaps reads the field back into enum names, once each.
func parseCaps(s string) ([]string, error) {
	var out, unknown []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		name := f
		if c, ok := api.CapabilityOf(f); ok {
			name = c.Name
		} else if !enumName.MatchString(f) {
			unknown = append(unknown, f)
			continue
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	switch {
	case len(unknown) > 0:
		return nil, fmt.Errorf("no capability is named %s", safe.String(strings.Join(unknown, ", ")))
	case len(out) == 0:
		return nil, errors.New("a role grants one capability at least")
	}
	return out, nil
}

// capsCanon is the field as a role reads back: whatever order or names
// (short or enum) were typed, the same set reads the same.
func capsCanon(s string) string {
	names, err := parseCaps(s)
	if err != nil {
		return s
	}
	return capsText(names)
}

func validCaps(s string) error {
	_, err := parseCaps(s)
	return err
}

// builtInWhy says why a built-in role is not changed (verb: "changed",
// "deleted"), and what to do instead.
func builtInWhy(keys *keymap.KeyMap, r *api.Role, verb string) string {
	return safe.String(r.Name) + " is built in: the service's own roles are not " + verb + " (" +
		keys.Key(keymap.New) + " makes a custom role starting from its capabilities)"
}

// builtInOff are the keys a built-in role does not offer, with why.
func builtInOff(keys *keymap.KeyMap, r *api.Role) []keymap.State {
	if !r.BuiltIn() {
		return nil
	}
	return []keymap.State{keymap.Off(keymap.Edit, builtInWhy(keys, r, "changed")), keymap.Off(keymap.Delete, builtInWhy(keys, r, "deleted"))}
}

// newRole opens the picker of a new custom role's capabilities in the
// organization (from: the role whose capabilities it starts with, nil for
// none); enter on it opens the form of the rest.
func newRole(e *env, from *api.Role) tea.Cmd {
	if st := e.common.Change(keymap.New); !st.Enabled {
		return views.FlashError(st.Reason)
	}
	if e.org == nil {
		return views.FlashError("no organization is open")
	}
	org, orgName := e.org.UID, e.org.Name
	title := "Capabilities of a new role in " + safe.Of(orgName)
	var start []string
	if from != nil {
		start = slices.Clone(from.Capabilities)
		title += ", starting from " + safe.Of(from.Name) + "'s"
	}
	return e.open(func(context.Context) views.Screen {
		return capabilities.New(e.common, capabilities.Config{Title: title, Options: capabilityOptions(start), Chosen: start, AtLeast: 1,
			Accept: func(chosen []string) tea.Cmd { return newRoleForm(e, org, orgName, chosen) }})
	})
}

// newRoleForm is the form of a new role in the organization, its
// capabilities as picked (they can still be typed).
func newRoleForm(e *env, org, orgName string, chosen []string) tea.Cmd {
	c := e.client
	role := func(v map[string]string) (api.NewRole, error) {
		caps, err := parseCaps(v[capsKey])
		if err != nil {
			return api.NewRole{}, &fieldError{key: capsKey, why: err.Error()}
		}
		return api.NewRole{Name: strings.TrimSpace(v["name"]), Description: v["description"], Capabilities: caps}, nil
	}
	return e.createForm(resource.Role, orgName, creation{parent: org, sends: api.Roles.Create(org), named: "name",
		fields: []form.Field{
			{Key: "name", Label: "name", Placeholder: "how people will choose it", Validate: required, Max: 128},
			{Key: "description", Label: "description", Placeholder: "what it is for", Validate: description, Max: api.DescriptionMax},
			{Key: capsKey, Label: "capabilities", Value: capsText(chosen), Validate: validCaps, Max: capsMax},
		},
		submit: func(ctx context.Context, v map[string]string) (any, error) {
			r, err := role(v)
			if err != nil {
				return nil, err
			}
			return c.CreateRole(ctx, org, r)
		},
		find: func(ctx context.Context, v map[string]string) (any, error) {
			r, err := role(v)
			if err != nil {
				return nil, err
			}
			return found(c.FindRole(ctx, org, r))
		}})
}

// roleEdits are a custom role's parts, one at a time: its description and
// name in place, its capabilities in the picker (replaced whole). A
// built-in role has none.
func roleEdits(c *api.Client, it *api.Role) []edit {
	if it.BuiltIn() {
		return nil
	}
	r := *it
	one := func(mask string, f form.Field, set func(*api.Role, string)) edit {
		return edit{mask: mask, sends: api.Roles.Patch(r.UID, mask), name: r.Name, noun: "role", fields: []form.Field{f},
			patch: func(ctx context.Context, v map[string]string) (any, error) {
				next := r
				set(&next, v[f.Key])
				return c.UpdateRole(ctx, next, mask)
			}}
	}
	caps := one(api.FieldCapabilities, form.Field{Key: capsKey, Label: "capabilities", Value: capsText(r.Capabilities), Validate: validCaps, Max: capsMax},
		func(n *api.Role, v string) { n.Capabilities, _ = parseCaps(v) })
	caps.choose = func(e *env, ed edit) tea.Cmd { return pickCapabilities(e, ed, r) }
	return []edit{
		one(api.FieldDescription, form.Field{Key: "description", Label: "description", Value: r.Description, Validate: description, Max: api.DescriptionMax},
			func(n *api.Role, v string) { n.Description = v }),
		one(api.FieldName, form.Field{Key: "name", Label: "name", Value: r.Name, Validate: required, Max: 128},
			func(n *api.Role, v string) { n.Name = strings.TrimSpace(v) }),
		caps,
	}
}

// pickCapabilities is a role's capabilities edited: the picker, from what
// it grants, then the form that sends the new set (what it adds and drops
// in its preview), undoable like any edit.
func pickCapabilities(e *env, ed edit, r api.Role) tea.Cmd {
	if st := e.common.Change(keymap.Edit); !st.Enabled {
		return views.FlashError(st.Reason)
	}
	return e.open(func(context.Context) views.Screen {
		return capabilities.New(e.common, capabilities.Config{Title: "Capabilities of " + safe.Of(r.Name), Options: capabilityOptions(r.Capabilities),
			Chosen: r.Capabilities, AtLeast: 1, Accept: func(chosen []string) tea.Cmd {
				add, drop := capsDiff(r.Capabilities, chosen)
				if len(add)+len(drop) == 0 {
					return views.Flash("the capabilities of " + safe.String(r.Name) + " are unchanged: nothing sent")
				}
				ed.choose, ed.start = nil, map[string]string{capsKey: capsText(chosen)}
				return e.open(func(ctx context.Context) views.Screen {
					cfg := e.formOf(ctx, ed)
					cfg.Page = true
					cfg.Preview = func(v map[string]string) string {
						now, err := parseCaps(v[capsKey])
						if err != nil {
							return ed.sends.Short()
						}
						add, drop := capsDiff(r.Capabilities, now)
						return ed.sends.Short() + "  " + capsChange(add, drop)
					}
					return form.New(e.common, cfg)
				})
			}})
	})
}

// capsDiff is what going from was to now adds and drops, as enum names.
func capsDiff(was, now []string) (add, drop []string) {
	for _, n := range now {
		if !slices.Contains(was, n) {
			add = append(add, n)
		}
	}
	for _, w := range was {
		if !slices.Contains(now, w) {
			drop = append(drop, w)
		}
	}
	return add, drop
}

// capsChange says a change of capabilities by their short names:
// "+ tag.create, + tag.delete, − repo.list".
func capsChange(add, drop []string) string {
	var parts []string
	for _, a := range strings.Split(capsText(add), ", ") {
		if a != "" {
			parts = append(parts, "+ "+safe.String(a))
		}
	}
	for _, d := range strings.Split(capsText(drop), ", ") {
		if d != "" {
			parts = append(parts, "− "+safe.String(d))
		}
	}
	if len(parts) == 0 {
		return "unchanged"
	}
	return strings.Join(parts, ", ")
}
