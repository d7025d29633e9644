package detail

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/keymap"
	"canopy/safe"
	"canopy/text"
)

// Kind is what the pane knows of one kind of resource. The shell's
// registry gives each kind its own (Fetch.Kind), so the pane asks it
// rather than switching over types.
type Kind struct {
	UID func(item any) string
	// Title is the resource's name as the header shows it.
	Title func(item any) safe.Text
	// Copy is what `y` copies and what that is; nil (or nothing) copies
	// the uid. CopySecret: what Copy gives is a secret, which the status
	// line must not show.
	Copy       func(item any) (text, what string)
	CopySecret bool
	// Bindable: `b` binds a role on one (with Fetch.Bind).
	Bindable bool
	// Keys are keys of the kind's own on one's page, each with what it
	// does or why not (a role's delete; a built-in role's edit, off);
	// nil: none.
	Keys func(item any) []keymap.State
	Page Page
}

// Page is how the page of a kind is written, and what it loads lazily.
// The kinds the pane knows well have their own (RepoPage, TagPage…), each
// given where it gets what it loads; any other kind shows its fields
// (FieldsPage).
type Page struct {
	write func(m *Model, s *sheet, item any)
	// keys are the page's own keys (WithKeys), nil for none.
	keys Keys
	// lazy: the page has parts to load; load loads them (in a command),
	// and relate starts what loads beside them (a tag's relations, a
	// repo's counts), in Update.
	lazy   bool
	load   func(ctx context.Context, item any, out *extrasMsg)
	relate func(m *Model, e *extras, item any) tea.Cmd
	// image is the image whose advisories `a` opens (a repo's name, a
	// tag's repo's once known), the pull reference `Y` copies (a tag's)
	// and what that is, and the other artifact names `a` asks for beside
	// the image's (a tag's versioned packages); nil for kinds of no image.
	image func(m *Model, item any) imageOf
	// repo is what a repo's page was given (RepoPage), read beyond the
	// page's own functions too: by the readme's render (its budget) and by
	// a count's answer (Counted); zero for other pages.
	repo RepoSources
	// check has the service try the resource against the world outside
	// (see WithCheck); nil for a page without.
	check *pageCheck
	// resolved is where the page reads what its image had resolved (a
	// repo's, a tag's), nil for a page without (see withResolved).
	resolved *ResolvedSources
}

// imageOf is what a page knows of the image its resource is of.
type imageOf struct {
	name, ref, what string
	more            []string
}

// pageOf is a page written from a resource of its own type.
func pageOf[T any](write func(m *Model, s *sheet, it *T)) Page {
	return Page{write: func(m *Model, s *sheet, item any) {
		if it, ok := item.(*T); ok {
			write(m, s, it)
		}
	}}
}

// loadOf, relateOf and imageOfIt are a page's parts for a resource of its
// own type: the page's one type check is in each, not in every page.
func loadOf[T any](load func(ctx context.Context, it *T, out *extrasMsg)) func(context.Context, any, *extrasMsg) {
	return func(ctx context.Context, item any, out *extrasMsg) {
		if it, ok := item.(*T); ok {
			load(ctx, it, out)
		}
	}
}

func relateOf[T any](relate func(m *Model, e *extras, it *T) tea.Cmd) func(*Model, *extras, any) tea.Cmd {
	return func(m *Model, e *extras, item any) tea.Cmd {
		if it, ok := item.(*T); ok {
			return relate(m, e, it)
		}
		return nil
	}
}

func imageOfIt[T any](image func(m *Model, it *T) imageOf) func(*Model, any) imageOf {
	return func(m *Model, item any) imageOf {
		if it, ok := item.(*T); ok {
			return image(m, it)
		}
		return imageOf{}
	}
}

// Field is one line of a plain page: a label and the server's text (made
// safe when written), or a time; a Field with a Section starts a section.
type Field struct {
	Label, Value string
	When         api.Time
	Section      string
}

// FieldsPage is the page of a kind the pane has no page of its own for:
// the uid, then the fields the kind lists.
func FieldsPage[T any](uid func(*T) string, fields func(*T) []Field) Page {
	return pageOf(func(_ *Model, s *sheet, it *T) {
		s.field("uid", safe.Of(uid(it)))
		writeFields(s, fields(it))
	})
}

// writeFields writes a plain page's fields.
func writeFields(s *sheet, fields []Field) {
	for _, f := range fields {
		switch {
		case f.Section != "":
			s.section(safe.String(f.Section))
		case !f.When.IsZero():
			s.when(f.Label, f.When)
		default:
			s.field(f.Label, safe.Of(f.Value))
		}
	}
}

// LoadedPage is FieldsPage for a kind whose list leaves parts out (a
// provider's token state) or names others by uid (its default role): the
// page shows the listed fields at once, then the fields load reads (the
// resource from the server, names looked up) once they come; r reads
// them again.
func LoadedPage[T any](uid func(*T) string, fields func(*T) []Field, load func(ctx context.Context, it *T) ([]Field, error)) Page {
	listed := FieldsPage(uid, fields)
	p := pageOf(func(m *Model, s *sheet, it *T) {
		e := m.cache[m.uid]
		if e == nil || !e.fetched || e.err != nil {
			listed.write(m, s, it)
			s.section("FROM THE SERVER")
			m.lazy(s)
			return
		}
		s.field("uid", safe.Of(uid(it)))
		writeFields(s, e.fields)
	})
	p.lazy = true
	p.load = loadOf(func(ctx context.Context, it *T, out *extrasMsg) { out.fields, out.err = load(ctx, it) })
	return p
}

// GroupPage is a folder's (or the organization's) page.
func GroupPage() Page {
	return pageOf(func(_ *Model, s *sheet, it *api.Group) {
		s.field("uid", safe.Of(it.UID))
		s.field("description", safe.Of(it.Description))
		s.given("kind", it.Kind)
		s.given("status", it.Status)
		if api.ParentUID(it.UID) == "" {
			s.own("verified", fmt.Sprint(it.Verified))
		}
		if len(it.ResourceLimits) > 0 {
			keys := make([]string, 0, len(it.ResourceLimits))
			for k := range it.ResourceLimits {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			parts := make([]string, len(keys))
			for i, k := range keys {
				parts[i] = safe.String(k) + " " + text.Count(int(it.ResourceLimits[k]))
			}
			s.field("limits", safe.Of(strings.Join(parts, ", ")))
		}
		s.times(it.CreateTime, it.UpdateTime)
	})
}

// RepoPage is a repo's page, with its readme loaded lazily and its tags
// and advisories counted beside it, from src.
func RepoPage(src RepoSources) Page {
	p := pageOf(func(m *Model, s *sheet, r *api.Repo) { m.renderRepo(s, r, src) })
	p.repo = src
	p.image = imageOfIt(func(_ *Model, r *api.Repo) imageOf { return imageOf{name: r.Name} })
	p.lazy = src.Readme != nil || src.Stats != nil
	p.load = loadOf(func(ctx context.Context, r *api.Repo, out *extrasMsg) {
		if src.Readme == nil {
			return
		}
		readme, err := src.Readme(ctx, r.UID)
		out.readme, out.err = &readme, err
	})
	if src.Stats != nil {
		p.relate = relateOf(func(m *Model, e *extras, r *api.Repo) tea.Cmd { return m.relateRepo(e, r, src) })
	}
	return withResolved(p, src.Resolved)
}

// TagPage is a tag's page, with its image's architectures loaded lazily
// and its relations (siblings, advisories) beside them, from src.
func TagPage(src TagSources) Page {
	p := pageOf(func(m *Model, s *sheet, t *api.Tag) {
		m.renderTag(s, t, src)
		m.renderResolved(s)
	})
	p.image = imageOfIt(func(m *Model, t *api.Tag) imageOf {
		var img imageOf
		img.name, img.ref, img.what = m.tagRepo(t, src)
		if e := m.cache[m.uid]; e != nil && e.related != nil {
			for _, a := range e.related.Advisories {
				if a.ArtifactName != img.name && !slices.Contains(img.more, a.ArtifactName) && len(img.more) < maxAdvisoryNames-1 {
					img.more = append(img.more, a.ArtifactName)
				}
			}
		}
		return img
	})
	p.lazy = src.Image != nil
	p.load = loadOf(func(ctx context.Context, t *api.Tag, out *extrasMsg) {
		if src.Image == nil {
			return
		}
		out.image, out.err = src.Image(ctx, api.ParentUID(t.UID), t.Digest)
	})
	if src.Related == nil {
		return withResolved(p, src.Resolved)
	}
	p.relate = relateOf(func(m *Model, e *extras, t *api.Tag) tea.Cmd {
		// What is known shows at once; the search completes in its own
		// command, so the image does not wait for it.
		if src.Known != nil {
			if known := src.Known(t); known != nil {
				e.related = known
			}
		}
		e.relating = true
		owner, uid := m, m.uid
		return src.Related(m.ctx, t, func(rel Related, err error) tea.Msg {
			return relatedMsg{owner: owner, uid: uid, related: &rel, err: err}
		})
	})
	return withResolved(p, src.Resolved)
}

// IdentityPage is an identity's page, with its role bindings loaded
// lazily by bindings (nil: the page shows none).
func IdentityPage(bindings func(ctx context.Context, identityUID string) ([]api.RoleBinding, error)) Page {
	p := pageOf(func(m *Model, s *sheet, id *api.Identity) { m.renderIdentity(s, id, bindings != nil) })
	p.lazy = bindings != nil
	p.load = loadOf(func(ctx context.Context, id *api.Identity, out *extrasMsg) {
		out.bindings, out.err = bindings(ctx, id.UID)
	})
	return p
}

// BindingPage is a role binding's page.
func BindingPage() Page { return pageOf((*Model).renderBinding) }

// SubscriptionPage is a subscription's page: it is its sink, with no name
// and no times.
func SubscriptionPage() Page {
	return pageOf(func(_ *Model, s *sheet, it *api.Subscription) {
		s.field("uid", safe.Of(it.UID))
		s.field("sink", safe.Of(it.Sink))
	})
}

// ArtifactPage is a library's page.
func ArtifactPage() Page {
	return pageOf(func(_ *Model, s *sheet, it *api.Artifact) {
		s.field("uid", safe.Of(it.UID))
		s.field("description", safe.Of(it.Description))
		s.field("ecosystem", ecosystem(it.Ecosystem))
		s.field("latest", safe.Of(it.LatestVersion))
		s.own("versions", text.Count(int(it.VersionCount)))
		s.times(it.CreateTime, it.UpdateTime)
	})
}

// EcosystemPage is the page of the libraries of one ecosystem: a grouping
// the tree shows, with its count.
func EcosystemPage() Page {
	return pageOf(func(m *Model, s *sheet, it *api.EcosystemCount) {
		s.field("ecosystem", ecosystem(it.Ecosystem))
		if it.TotalCount > 0 {
			s.own("artifacts", text.Count(int(it.TotalCount)))
		}
		s.b.WriteByte('\n')
		s.wrapped("", m.common.Theme.Muted.Render(m.common.Key(keymap.Open)+" opens its artifacts as a full-screen table; "+
			m.common.Key(keymap.Expand)+" expands it here"))
	})
}

// VersionPage is the page of one version of a library.
func VersionPage() Page {
	return pageOf(func(_ *Model, s *sheet, it *api.ArtifactVersion) {
		s.field("uid", safe.Of(it.UID))
		s.field("artifact", safe.Of(it.Name))
		s.field("description", safe.Of(it.Description))
		if it.SizeBytes > 0 {
			s.own("size", text.Bytes(int64(it.SizeBytes)))
		}
		s.times(it.CreateTime, it.UpdateTime)
	})
}

// kind is the kind of item, nil for what the pane shows but is no
// resource (a summary, a failure) or when the shell gave no registry.
func (m *Model) kind(item any) *Kind {
	if m.fetch.Kind == nil || item == nil {
		return nil
	}
	return m.fetch.Kind(item)
}

// uidOf is the item's uid (a summary's or failure's own key).
func (m *Model) uidOf(item any) string {
	switch it := item.(type) {
	case *Summary:
		return "summary:" + string(it.Title)
	case *Failure:
		return "failure:" + string(it.What)
	}
	if k := m.kind(item); k != nil {
		return k.UID(item)
	}
	return ""
}

// titleOf is the item's name as the header shows it.
func (m *Model) titleOf(item any) safe.Text {
	switch it := item.(type) {
	case *Summary:
		return it.Title
	case *Failure:
		return "failed: " + it.What
	}
	if k := m.kind(item); k != nil {
		return k.Title(item)
	}
	return ""
}

// copyOf is what `y` copies: what the kind says (a tag's digest), else
// the uid.
func (m *Model) copyOf(item any) (string, string) {
	k := m.kind(item)
	if k == nil {
		return "", ""
	}
	if k.Copy != nil {
		if text, what := k.Copy(item); text != "" {
			return text, what
		}
	}
	if uid := k.UID(item); uid != "" {
		return uid, "uid"
	}
	return "", ""
}
