package columns

import (
	"slices"
	"testing"

	"canopy/api"
)

// ByFolder: the scope's own first, then by path segment by segment (a
// folder's subfolders right after it, case aside), unknown paths last.
func TestAssociationsByFolder(t *testing.T) {
	t.Parallel()
	paths := map[string]string{"o/1": "platform", "o/2": "apps", "o/3": "apps/payments", "o/4": "apps-legacy",
		"o/5": "Data/ml", "o/6": "", "o/7": "data"}
	var items []api.AccountAssociation
	for _, uid := range []string{"o/6", "o/1", "o/4", "o/3", "o", "o/5", "o/2", "o/7"} {
		items = append(items, api.AccountAssociation{UID: uid})
	}
	ByFolder(items, "o", func(uid string) string { return paths[uid] })
	var got []string
	for _, a := range items {
		got = append(got, a.UID)
	}
	if want := []string{"o", "o/2", "o/3", "o/4", "o/7", "o/5", "o/1", "o/6"}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}
