package census_test

import (
	"slices"
	"testing"
	"time"

	"canopy/api"
	"canopy/census"
)

func TestAsksIs(t *testing.T) {
	a := census.Asks{Stale: 90 * 24 * time.Hour, Now: now, Bound: map[string]bool{"bound": true}}
	// Each identity's answers to NeverSeen, NotSeen, Unbound and Owner (a
	// question of bindings, never of identities).
	for name, tt := range map[string]struct {
		id   api.Identity
		want [census.IdentityLines]bool
	}{
		"never seen, bound":           {api.Identity{UID: "bound"}, [4]bool{true, false, false, false}},
		"seen recently, bound":        {api.Identity{UID: "bound", LastSeenTime: ago(time.Hour)}, [4]bool{}},
		"seen just Stale ago":         {api.Identity{UID: "u", LastSeenTime: ago(a.Stale)}, [4]bool{false, false, true, false}},
		"seen longer ago than Stale":  {api.Identity{UID: "u", LastSeenTime: ago(a.Stale + time.Millisecond)}, [4]bool{false, true, true, false}},
		"seen in the future, unbound": {api.Identity{UID: "u", LastSeenTime: ago(-time.Hour)}, [4]bool{false, false, true, false}},
	} {
		var got [census.IdentityLines]bool
		for line := range got {
			got[line] = a.Is(line, &tt.id)
		}
		if got != tt.want {
			t.Errorf("%s: Is = %v, want %v", name, got, tt.want)
		}
	}
	if !(census.Asks{}).Is(census.Unbound, &api.Identity{UID: "bound"}) {
		t.Error("with no Bound set, every identity is unbound")
	}
}

func TestBoundAndIsOwnerAt(t *testing.T) {
	bs := []api.RoleBinding{bind("a", orgRef, viewerRole), bind("", orgRef, ownerRole), bind("b", baseRef, ownerRole)}
	if got := census.Bound(bs); len(got) != 2 || !got["a"] || !got["b"] {
		t.Errorf("Bound = %v, want a and b (a binding with no identity skipped)", got)
	}
	for name, b := range map[string]api.RoleBinding{
		"owner at a sub-folder":            bind("a", baseRef, ownerRole),
		"viewer at the org":                bind("a", orgRef, viewerRole),
		"a role named otherwise, same uid": bind("a", orgRef, &api.Ref{UID: "owner-uid", Name: "Owner"}),
		"no group":                         bind("a", nil, ownerRole),
		"no role":                          bind("a", orgRef, nil),
	} {
		if census.IsOwnerAt(&b, "org1") {
			t.Errorf("%s: IsOwnerAt = true", name)
		}
	}
	if b := bind("a", orgRef, ownerRole); !census.IsOwnerAt(&b, "org1") {
		t.Error("owner at the org: IsOwnerAt = false")
	}
}

func TestCountIdentities(t *testing.T) {
	ids := []api.Identity{
		{UID: "never"}, // never seen, unbound
		{UID: "owner", LastSeenTime: ago(time.Hour)},            // owner at the org, twice
		{UID: "sub", LastSeenTime: ago(200 * 24 * time.Hour)},   // stale, owner of a folder only
		{UID: "viewer", LastSeenTime: ago(24 * time.Hour)},      // viewer at the org
		{UID: "lost", LastSeenTime: ago(1000 * 24 * time.Hour)}, // stale, unbound
	}
	all := []api.RoleBinding{
		bind("owner", orgRef, ownerRole), bind("owner", orgRef, ownerRole), bind("sub", baseRef, ownerRole),
		bind("viewer", orgRef, viewerRole), bind("", orgRef, ownerRole), bind("x", nil, nil),
	}
	tests := []struct {
		name     string
		ids      []api.Identity
		bindings []api.RoleBinding
		want     census.Identities
	}{
		{"nobody", nil, nil, census.Identities{}},
		{"no bindings", ids, nil, census.Identities{Total: 5, Count: [census.IdentityLines]int{1, 2, 5, 0}}},
		{"all", ids, all, census.Identities{Total: 5, Count: [census.IdentityLines]int{1, 2, 2, 1}, OwnerRole: "owner-uid"}},
		{"owner of a folder only", ids, all[2:4], census.Identities{Total: 5, Count: [census.IdentityLines]int{1, 2, 3, 0}}},
		{"an owner not listed as identity", nil, all[:1], census.Identities{Count: [census.IdentityLines]int{0, 0, 0, 1}, OwnerRole: "owner-uid"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &census.People{Identities: tt.ids, Bindings: tt.bindings}
			a := census.Asks{Stale: 90 * 24 * time.Hour, Now: now, Bound: census.Bound(tt.bindings)}
			if got := census.CountIdentities(p, "org1", a); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestBindingsByRole(t *testing.T) {
	admin := &api.Ref{UID: "org1/admin-uid", Name: "admin"}
	bs := []api.RoleBinding{
		bind("a", orgRef, ownerRole), bind("b", orgRef, viewerRole), bind("c", baseRef, viewerRole),
		bind("d", baseRef, admin), bind("e", nil, ownerRole), bind("f", orgRef, nil), bind("g", baseRef, viewerRole),
	}
	want := []census.Bar{{"viewer-uid", "viewer", 3, 0}, {"owner-uid", "owner", 2, 0}, {"org1/admin-uid", "admin", 1, 0}}
	if got := census.BindingsByRole(bs); !slices.Equal(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	if got := census.BindingsByRole(nil); len(got) != 0 {
		t.Errorf("no bindings: got %v", got)
	}
}

func TestBindingsByFolder(t *testing.T) {
	l := layout()
	apps := &api.Ref{UID: "org1/a", Name: "apps"}
	bs := []api.RoleBinding{
		bind("a", orgRef, ownerRole), bind("b", baseRef, viewerRole), bind("c", baseRef, ownerRole),
		bind("d", apps, viewerRole), bind("e", orgRef, nil), bind("f", nil, ownerRole), bind("g", &api.Ref{UID: "org1/x"}, ownerRole),
	}
	tests := []struct {
		name    string
		folders map[string]string
		want    []census.Bar
	}{
		{"org named in the layout", l.Folders, []census.Bar{
			{"org1", "acme (organization)", 2, 0}, {"org1/p/b", "platform/base", 2, 0},
			{"org1/a", "apps", 1, 0}, {"org1/x", "x", 1, 0},
		}},
		{"org named by the binding", map[string]string{}, []census.Bar{
			{"org1", "acme-ref (organization)", 2, 0}, {"org1/p/b", "p/b", 2, 0},
			{"org1/a", "a", 1, 0}, {"org1/x", "x", 1, 0},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := census.BindingsByFolder(bs, &census.Layout{Org: "org1", Folders: tt.folders})
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v\nwant %v", got, tt.want)
			}
		})
	}
}
