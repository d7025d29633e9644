package api

// Resource is what generic code asks of any resource the service answers
// with, whatever its kind: no caller needs to know the type to read them.
// The getters are named as protobuf's generated ones are, since the types'
// fields already hold the plain names.
type Resource interface {
	// GetUID is its uid, "" for what has none (an ecosystem's count).
	GetUID() string
	// GetName is the name the service gives it, "" for a kind without
	// one (a role binding, a subscription, an invite, a mapping).
	GetName() string
	// GetParent is the uid of what it lives under (a repo's folder, a
	// tag's repo), "" at the top or outside the hierarchy.
	GetParent() string
}

func (g *Group) GetUID() string    { return g.UID }
func (g *Group) GetName() string   { return g.Name }
func (g *Group) GetParent() string { return ParentUID(g.UID) }

func (r *Repo) GetUID() string    { return r.UID }
func (r *Repo) GetName() string   { return r.Name }
func (r *Repo) GetParent() string { return ParentUID(r.UID) }

func (t *Tag) GetUID() string    { return t.UID }
func (t *Tag) GetName() string   { return t.Name }
func (t *Tag) GetParent() string { return ParentUID(t.UID) }

func (i *Identity) GetUID() string    { return i.UID }
func (i *Identity) GetName() string   { return i.Name }
func (i *Identity) GetParent() string { return ParentUID(i.UID) }

func (r *Role) GetUID() string    { return r.UID }
func (r *Role) GetName() string   { return r.Name }
func (r *Role) GetParent() string { return ParentUID(r.UID) }

func (b *RoleBinding) GetUID() string    { return b.UID }
func (b *RoleBinding) GetName() string   { return "" }
func (b *RoleBinding) GetParent() string { return ParentUID(b.UID) }

// An advisory is named by its id (CGA-…).
func (a *Advisory) GetUID() string    { return a.UID }
func (a *Advisory) GetName() string   { return a.AdvisoryID }
func (a *Advisory) GetParent() string { return ParentUID(a.UID) }

func (s *Subscription) GetUID() string    { return s.UID }
func (s *Subscription) GetName() string   { return "" }
func (s *Subscription) GetParent() string { return ParentUID(s.UID) }

func (a *Artifact) GetUID() string    { return a.UID }
func (a *Artifact) GetName() string   { return a.Name }
func (a *Artifact) GetParent() string { return ParentUID(a.UID) }

// A version is named by its number.
func (v *ArtifactVersion) GetUID() string    { return v.UID }
func (v *ArtifactVersion) GetName() string   { return v.Version }
func (v *ArtifactVersion) GetParent() string { return ParentUID(v.UID) }

// An ecosystem's count has no uid: its ecosystem is its name.
func (e *EcosystemCount) GetUID() string    { return "" }
func (e *EcosystemCount) GetName() string   { return e.Ecosystem }
func (e *EcosystemCount) GetParent() string { return "" }

func (p *IdentityProvider) GetUID() string    { return p.UID }
func (p *IdentityProvider) GetName() string   { return p.Name }
func (p *IdentityProvider) GetParent() string { return ParentUID(p.UID) }

func (g *GroupInvite) GetUID() string    { return g.UID }
func (g *GroupInvite) GetName() string   { return "" }
func (g *GroupInvite) GetParent() string { return ParentUID(g.UID) }

// A mapping has no name: canopy labels it by its group and role. It lives
// under its identity provider.
func (m *ExternalGroupRoleMapping) GetUID() string    { return m.UID }
func (m *ExternalGroupRoleMapping) GetName() string   { return "" }
func (m *ExternalGroupRoleMapping) GetParent() string { return ParentUID(m.UID) }

// Every kind canopy shows is a Resource.
var (
	_ Resource = (*Group)(nil)
	_ Resource = (*Repo)(nil)
	_ Resource = (*Tag)(nil)
	_ Resource = (*Identity)(nil)
	_ Resource = (*Role)(nil)
	_ Resource = (*RoleBinding)(nil)
	_ Resource = (*Advisory)(nil)
	_ Resource = (*Subscription)(nil)
	_ Resource = (*Artifact)(nil)
	_ Resource = (*ArtifactVersion)(nil)
	_ Resource = (*EcosystemCount)(nil)
	_ Resource = (*IdentityProvider)(nil)
	_ Resource = (*GroupInvite)(nil)
	_ Resource = (*ExternalGroupRoleMapping)(nil)
)
