package detail

import (
	"canopy/api"
	"canopy/safe"
)

// testKind stands in for the shell's registry in these tests: the kinds
// the pane is shown here, with the pages the shell gives them.
func testKind(item any) *Kind {
	named := func(uid, name string) *Kind {
		return &Kind{UID: func(any) string { return uid }, Title: func(any) safe.Text { return safe.Of(name) }}
	}
	var k *Kind
	switch it := item.(type) {
	case *api.Repo:
		k = named(it.UID, it.Name)
		k.Page = RepoPage()
	case *api.Tag:
		k = named(it.UID, it.Name)
		k.Page = TagPage()
		k.Copy = func(any) (string, string) { return it.Digest, "digest" }
	case *api.Identity:
		k = named(it.UID, it.Name)
		k.Page, k.Bindable = IdentityPage(), true
	case *api.Group:
		k = named(it.UID, it.Name)
		k.Page, k.Bindable = GroupPage(), true
	case *api.Role:
		k = named(it.UID, it.Name)
		k.Page, k.Bindable = RolePage(), true
	case *api.RoleBinding:
		k = named(it.UID, "binding")
		k.Page = BindingPage()
	case *api.Advisory:
		k = named(it.UID, it.AdvisoryID)
		k.Page = AdvisoryPage()
	case *api.Subscription:
		k = named(it.UID, it.Sink)
		k.Page = SubscriptionPage()
	}
	return k
}
