package detail

import (
	"context"

	"canopy/api"
	"canopy/safe"
)

// testKind stands in for the shell's registry in these tests: the kinds
// the pane is shown here, with the pages the shell gives them, loading
// nothing.
func testKind(item any) *Kind { return kindsWith(pageSources{})(item) }

// pageSources are what the pages of kindsWith load with.
type pageSources struct {
	repo     RepoSources
	tag      TagSources
	bindings func(ctx context.Context, identityUID string) ([]api.RoleBinding, error)
	advisory AdvisorySources
}

// kindsWith is testKind with pages that load from src.
func kindsWith(src pageSources) func(item any) *Kind {
	return func(item any) *Kind { return kindOf(item, src) }
}

func kindOf(item any, src pageSources) *Kind {
	named := func(uid, name string) *Kind {
		return &Kind{UID: func(any) string { return uid }, Title: func(any) safe.Text { return safe.Of(name) }}
	}
	var k *Kind
	switch it := item.(type) {
	case *api.Repo:
		k = named(it.UID, it.Name)
		k.Page = RepoPage(src.repo)
	case *api.Tag:
		k = named(it.UID, it.Name)
		k.Page = TagPage(src.tag)
		k.Copy = func(any) (string, string) { return it.Digest, "digest" }
	case *api.Identity:
		k = named(it.UID, it.Name)
		k.Page, k.Bindable = IdentityPage(src.bindings), true
	case *api.Group:
		k = named(it.UID, it.Name)
		k.Page, k.Bindable = GroupPage(), true
	case *api.Role:
		k = named(it.UID, it.Name)
		k.Page, k.Bindable = RolePage(RoleSources{}), true
	case *api.RoleBinding:
		k = named(it.UID, "binding")
		k.Page = BindingPage()
	case *api.Advisory:
		k = named(it.UID, it.AdvisoryID)
		k.Page = AdvisoryPage(src.advisory)
	case *api.Document:
		k = named(it.ID, "advisory document: "+it.ID)
		k.Page = DocumentPage()
	case *api.VulnerabilityMetadata:
		k = named(it.ID, it.ID)
		k.Page = VulnerabilityPage()
	case *api.Subscription:
		k = named(it.UID, it.Sink)
		k.Page = SubscriptionPage()
	}
	return k
}
