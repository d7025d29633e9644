package ui

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

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

// mappingKind: an external group role mapping, which gives a role on the
// organization to whoever signs in through an identity provider as a
// member of one of its groups. It has no name: the user knows it by its
// group and role. It lives under its provider and is never changed: a new
// one is made, and the old one deleted. Its role, provider and scope are
// uids; names are what the shell learned of them (mappingNames).
type mappingKind struct {
	is[api.ExternalGroupRoleMapping]
	names *mappingNames
}

func (mappingKind) of() string   { return resource.Mapping }
func (mappingKind) shape() shape { return shape{list: colMappings} }

// label: "acme-sre → viewer".
func (k mappingKind) label(m *api.ExternalGroupRoleMapping) string {
	return m.ExternalGroupID + " → " + k.roleOf(m)
}

// roleOf is the name of a mapping's role; one not known yet is its uid's
// last segment, cut short, as the table shows it.
func (k mappingKind) roleOf(m *api.ExternalGroupRoleMapping) string {
	role := k.names.role(m.RoleUID)
	if role == m.RoleUID {
		return text.Short(role[strings.LastIndexByte(role, '/')+1:], 12)
	}
	return role
}
func (k mappingKind) title(m *api.ExternalGroupRoleMapping) safe.Text {
	return "role mapping: " + safe.Of(k.label(m))
}

// folder: the folder of its identity provider.
func (mappingKind) folder(m *api.ExternalGroupRoleMapping) string {
	return api.ParentUID(api.ParentUID(m.UID))
}
func (mappingKind) whole(e *env) (safe.Text, api.ListOptions) {
	return "role mappings of " + safe.Of(e.org.Name), api.ListOptions{DescendantsOf: e.org.UID}
}
func (k mappingKind) table(e *env, ctx context.Context, title safe.Text, o api.ListOptions) views.Screen {
	return mappingsTable(e, ctx, title, o, k.names)
}
func (k mappingKind) fields(m *api.ExternalGroupRoleMapping) []detail.Field {
	return mappingFields(m, k.names)
}

// load reads the mapping again and names its role, provider and scope.
func (k mappingKind) load(ctx context.Context, c *api.Client, listed *api.ExternalGroupRoleMapping) ([]detail.Field, error) {
	m, err := c.GetExternalGroupRoleMapping(ctx, listed.UID)
	if err != nil {
		return nil, fmt.Errorf("get role mapping: %w", err)
	}
	org := api.RootUID(m.UID)
	roles, err := c.RolesOf(ctx, org)
	if err != nil {
		return nil, fmt.Errorf("name its role: %w", err)
	}
	p, err := c.GetIdentityProvider(ctx, m.IdentityProviderUID)
	if err != nil {
		return nil, fmt.Errorf("name its identity provider: %w", err)
	}
	scope, err := c.GetGroup(ctx, m.Scope)
	if err != nil {
		return nil, fmt.Errorf("name its scope: %w", err)
	}
	k.names.learn(roles, []api.IdentityProvider{*p}, map[string]string{scope.UID: scope.Name})
	return mappingFields(m, k.names), nil
}
func (k mappingKind) create(e *env, parent, parentName string) tea.Cmd {
	return newMapping(e, k.names, parent, parentName)
}
func (mappingKind) del(c *api.Client, ctx context.Context, uid string) error {
	return c.DeleteExternalGroupRoleMapping(ctx, uid)
}

// get reads a mapping and learns the names of its role, provider and
// scope not known yet: what names it (canopy open's "opened the role
// mapping acme-sre → viewer", its page's title) reads them, not uids.
func (k mappingKind) get(c *api.Client, ctx context.Context, uid string) (*api.ExternalGroupRoleMapping, error) {
	m, err := c.GetExternalGroupRoleMapping(ctx, uid)
	if err != nil {
		return nil, err
	}
	k.names.named(ctx, c, m)
	return m, nil
}

// Several of one provider go in one request.
func (mappingKind) batchOf(m *api.ExternalGroupRoleMapping) string { return api.ParentUID(m.UID) }
func (mappingKind) delBatch(c *api.Client, ctx context.Context, provider string, uids []string) ([]string, error) {
	out, err := c.BatchDeleteExternalGroupRoleMappings(ctx, provider, uids)
	if err != nil {
		return nil, err
	}
	deleted := make([]string, len(out.Mappings))
	for i, m := range out.Mappings {
		deleted[i] = m.UID
	}
	return deleted, nil
}
func (k mappingKind) lost(_ *env, cfg *dialog.Config, ms []*api.ExternalGroupRoleMapping) {
	if len(ms) > 1 {
		cfg.Lines = append(cfg.Lines, "Members of these groups stop getting these roles at their next sign-in.")
		return
	}
	m := ms[0]
	through := "their identity provider"
	if p := k.names.provider(m.IdentityProviderUID); p != m.IdentityProviderUID {
		through = p
	}
	cfg.Lines = append(cfg.Lines, safe.Of("Members of "+m.ExternalGroupID+" stop getting "+k.roleOf(m)+
		" at their next sign-in through "+through+"."))
}

// colMappings is the collection of mappings, as list paths end.
const colMappings = "externalGroupRoleMappings"

func mappingsTable(e *env, ctx context.Context, title safe.Text, o api.ListOptions, names *mappingNames) views.Screen {
	return table.New(e.common, table.Config[api.ExternalGroupRoleMapping]{Title: title, Refused: e.orders.of(colMappings),
		Columns: columns.Mappings(e.common, names.resolvers()),
		Loaded:  func([]*api.ExternalGroupRoleMapping) tea.Cmd { return names.want(e) },
		List:    paging.New(ctx, source(e.client.ListExternalGroupRoleMappings, o), api.ExternalGroupRoleMappingKey),
		Key:     api.ExternalGroupRoleMappingKey, Orders: columns.MappingOrders(),
		Open: pageOf[api.ExternalGroupRoleMapping](e), Copy: uidCopy(api.ExternalGroupRoleMappingKey),
		New:    func() tea.Cmd { return newMapping(e, names, scopeOf(o), whereOf(string(title))) },
		Watch:  kindFor[api.ExternalGroupRoleMapping](e.kinds).watched,
		Off:    mappingsOff(e.common.Keys),
		Delete: rowDelete[api.ExternalGroupRoleMapping](e)})
}

// mappingsOff: a mapping is never changed.
func mappingsOff(keys *keymap.KeyMap) []keymap.State {
	return []keymap.State{keymap.Off(keymap.Edit, "a role mapping cannot be changed: "+keys.Key(keymap.New)+
		" makes the new one, then "+keys.Key(keymap.Delete)+" deletes this one")}
}

// mappingFields are what a mapping's page shows below its uid, each uid
// with its name when known.
func mappingFields(m *api.ExternalGroupRoleMapping, names *mappingNames) []detail.Field {
	named := func(name, uid string) string {
		if name == uid {
			return uid
		}
		return name + "  (" + uid + ")"
	}
	return []detail.Field{
		{Label: "provider", Value: named(names.provider(m.IdentityProviderUID), m.IdentityProviderUID)},
		{Label: "group", Value: m.ExternalGroupID},
		{Label: "role", Value: named(names.role(m.RoleUID), m.RoleUID)},
		{Label: "scope", Value: named(names.scope(m.Scope), m.Scope)},
		{Label: "created", When: m.CreateTime},
	}
}

// newMapping is the form of a new mapping in an organization: which of
// its identity providers (a choice among those the shell knows, else a
// name typed), the group as the provider names it, and the role by name;
// the scope is the organization, the one a mapping takes.
func newMapping(e *env, names *mappingNames, parent, where string) tea.Cmd {
	if e.org == nil {
		return views.FlashError("no organization is open")
	}
	c, org, orgName := e.client, e.org.UID, e.org.Name
	provider := form.Field{Key: "provider", Label: "provider", Placeholder: "the name of an identity provider", Validate: required}
	if uids := names.providersOf(org); len(uids) > 0 {
		provider.Value, provider.Choices = uids[0], uids
		provider.ChoiceLabel = func(uid string) string { return safe.String(names.provider(uid)) }
	}
	resolve := func(ctx context.Context, v map[string]string) (string, api.NewExternalGroupRoleMapping, error) {
		p, err := providerNamed(ctx, c, org, names, strings.TrimSpace(v["provider"]))
		if err != nil {
			return "", api.NewExternalGroupRoleMapping{}, err
		}
		role, err := roleNamed(ctx, c, org, "roleUid", strings.TrimSpace(v["roleUid"]))
		if err != nil {
			return "", api.NewExternalGroupRoleMapping{}, err
		}
		return p, api.NewExternalGroupRoleMapping{ExternalGroupID: v["externalGroupId"], RoleUID: role, Scope: org}, nil
	}
	return e.createForm(resource.Mapping, where, creation{parent: parent,
		sends: api.ExternalGroupRoleMappings.Create("<provider uid>"), named: "externalGroupId",
		// Under the provider chosen (or named, once its uid is known).
		sendsFor: func(v map[string]string) api.Request {
			if uid := names.providerUID(org, strings.TrimSpace(v["provider"])); uid != "" {
				return api.ExternalGroupRoleMappings.Create(uid)
			}
			return api.ExternalGroupRoleMappings.Create("<provider uid>")
		},
		fields: []form.Field{provider,
			{Key: "externalGroupId", Label: "external group", Placeholder: "the group as the provider's groups claim names it",
				Validate: required, Max: 256},
			{Key: "roleUid", Label: "role", Value: "viewer", Placeholder: "the role its members get", Validate: required},
			{Key: "scope", Label: "scope", Value: org, Choices: []string{org},
				ChoiceLabel: func(string) string {
					return safe.String(orgName) + " (the organization: the one scope a mapping takes)"
				}},
		},
		submit: func(ctx context.Context, v map[string]string) (any, error) {
			p, m, err := resolve(ctx, v)
			if err != nil {
				return nil, err
			}
			return c.CreateExternalGroupRoleMapping(ctx, p, m)
		},
		find: func(ctx context.Context, v map[string]string) (any, error) {
			p, m, err := resolve(ctx, v)
			if err != nil {
				return nil, err
			}
			return found(c.FindExternalGroupRoleMapping(ctx, p, m))
		}})
}

// providerNamed is the uid of the identity provider of the organization
// with that name (or uid); a name no provider has is refused beside the
// form's field, naming a few. What is read is learned for the columns.
func providerNamed(ctx context.Context, c *api.Client, org string, names *mappingNames, name string) (string, error) {
	var all []api.IdentityProvider
	for p, err := range api.NewCursor(c.ListIdentityProviders, api.ListOptions{DescendantsOf: org, PageSize: api.MaxPageSize},
		api.IdentityProviderKey).All(ctx) {
		if err != nil {
			return "", fmt.Errorf("list identity providers: %w", err)
		}
		all = append(all, p)
	}
	names.learn(nil, all, nil)
	var known []string
	for _, p := range all {
		if p.UID == name || p.Name == name {
			return p.UID, nil
		}
		known = append(known, p.Name)
	}
	if len(known) > 5 {
		known = append(known[:5], "…")
	}
	return "", &fieldError{key: "provider", why: "no identity provider is named " + strconv.Quote(safe.String(name)) +
		" (" + safe.String(strings.Join(known, ", ")) + ")"}
}

// mappingNames are the names of what mappings hold by uid (roles,
// identity providers, the organization they apply to), learned for the
// organizations whose mappings were shown: a table asks for them with its
// first rows (want), a page and a create learn more. The maps are
// replaced, never written, once shared (see namer.learn): the columns'
// resolvers read the ones they took, off the UI loop too.
type mappingNames struct {
	mu        sync.Mutex
	roles     map[string]string
	providers map[string]string
	scopes    map[string]string
	// byName are each organization's providers, by name; read and busy
	// the organizations whose names were read, or are being read.
	byName     map[string][]string
	read, busy map[string]bool
}

func newMappingNames() *mappingNames {
	return &mappingNames{roles: map[string]string{}, providers: map[string]string{}, scopes: map[string]string{},
		byName: map[string][]string{}, read: map[string]bool{}, busy: map[string]bool{}}
}

// lookup is the name of uid in the map pick chooses, the uid while it is
// not known.
func (n *mappingNames) lookup(pick func(*mappingNames) map[string]string, uid string) string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if name, ok := pick(n)[uid]; ok && name != "" {
		return name
	}
	return uid
}

func (n *mappingNames) role(uid string) string {
	return n.lookup(func(n *mappingNames) map[string]string { return n.roles }, uid)
}
func (n *mappingNames) provider(uid string) string {
	return n.lookup(func(n *mappingNames) map[string]string { return n.providers }, uid)
}
func (n *mappingNames) scope(uid string) string {
	return n.lookup(func(n *mappingNames) map[string]string { return n.scopes }, uid)
}

// providersOf are the uids of an organization's identity providers, by
// name, as last read (none before).
func (n *mappingNames) providersOf(org string) []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.byName[org])
}

// providerUID is the uid of the organization's identity provider of that
// name or uid, as known now ("" when none is known by it).
func (n *mappingNames) providerUID(org, name string) string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if name == "" {
		return ""
	}
	for uid, pn := range n.providers {
		if api.ParentUID(uid) == org && (uid == name || pn == name) {
			return uid
		}
	}
	return ""
}

// resolvers are the columns' names: each resolver reads the map it took.
func (n *mappingNames) resolvers() columns.MappingNames {
	of := func(pick func(*mappingNames) map[string]string) columns.Names {
		return func() func(string) string {
			n.mu.Lock()
			m := pick(n)
			n.mu.Unlock()
			return func(uid string) string { return m[uid] }
		}
	}
	return columns.MappingNames{Roles: of(func(n *mappingNames) map[string]string { return n.roles }),
		Providers: of(func(n *mappingNames) map[string]string { return n.providers }),
		Scopes:    of(func(n *mappingNames) map[string]string { return n.scopes })}
}

// named learns the names of m's role, identity provider and scope that
// are not known yet, as far as they can be read: one that cannot stays a
// uid, as it does before any is read.
func (n *mappingNames) named(ctx context.Context, c *api.Client, m *api.ExternalGroupRoleMapping) {
	var roles []api.Role
	var providers []api.IdentityProvider
	scopes := map[string]string{}
	if n.role(m.RoleUID) == m.RoleUID {
		roles, _ = c.RolesOf(ctx, api.RootUID(m.UID))
	}
	if n.provider(m.IdentityProviderUID) == m.IdentityProviderUID {
		if p, err := c.GetIdentityProvider(ctx, m.IdentityProviderUID); err == nil {
			providers = append(providers, *p)
		}
	}
	if m.Scope != "" && n.scope(m.Scope) == m.Scope {
		if g, err := c.GetGroup(ctx, m.Scope); err == nil {
			scopes[g.UID] = g.Name
		}
	}
	n.learn(roles, providers, scopes)
}

// learn adds names (each map a new copy).
func (n *mappingNames) learn(roles []api.Role, providers []api.IdentityProvider, scopes map[string]string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(roles) > 0 {
		n.roles = maps.Clone(n.roles)
		for _, r := range roles {
			n.roles[r.UID] = r.Name
		}
	}
	if len(providers) > 0 {
		n.providers = maps.Clone(n.providers)
		for _, p := range providers {
			n.providers[p.UID] = p.Name
		}
	}
	if len(scopes) > 0 {
		n.scopes = maps.Clone(n.scopes)
		maps.Copy(n.scopes, scopes)
	}
}

// want reads the names of the open organization's roles and identity
// providers, once (again after a failure, with the next rows or r); the
// table searches again when they come.
func (n *mappingNames) want(e *env) tea.Cmd {
	if e.org == nil {
		return nil
	}
	org, orgName := e.org.UID, e.org.Name
	n.mu.Lock()
	if n.read[org] || n.busy[org] {
		n.mu.Unlock()
		return nil
	}
	n.busy[org] = true
	n.mu.Unlock()
	n.learn(nil, nil, map[string]string{org: orgName})
	ctx, c := e.ctx, e.client
	return func() tea.Msg {
		roles, err := c.RolesOf(ctx, org)
		var providers []api.IdentityProvider
		if err == nil {
			for p, e := range api.NewCursor(c.ListIdentityProviders, api.ListOptions{DescendantsOf: org, PageSize: api.MaxPageSize},
				api.IdentityProviderKey).All(ctx) {
				if err = e; err != nil {
					break
				}
				providers = append(providers, p)
			}
		}
		if err == nil {
			n.learn(roles, providers, nil)
		}
		n.mu.Lock()
		n.busy[org], n.read[org] = false, err == nil
		if err == nil {
			slices.SortFunc(providers, func(a, b api.IdentityProvider) int { return strings.Compare(a.Name, b.Name) })
			uids := make([]string, len(providers))
			for i, p := range providers {
				uids[i] = p.UID
			}
			n.byName[org] = uids
		}
		n.mu.Unlock()
		if err != nil {
			return views.FlashMsg{Text: "role mappings: the names of roles and identity providers: " + safe.String(err.Error()) +
				" (the uids show; r tries again)", Error: true}
		}
		return table.NamesMsg{}
	}
}
