package overview

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"canopy/api"
	"canopy/census"
)

// largeCaches are counts of the large demo's size: 7,700 repos in 70
// folders (three deep), each counted, and their advisories.
func largeCaches() (*census.Layout, Caches) {
	rng := rand.New(rand.NewPCG(1, 2))
	l := &census.Layout{Org: "org", Folders: map[string]string{"org": "acme"}}
	var folders []string
	for i := range 70 {
		parent := "org"
		if i >= 10 {
			parent = folders[rng.IntN(len(folders))]
		}
		uid := fmt.Sprintf("%s/f%d", parent, i)
		if len(uid) > 40 { // three deep at most
			uid = fmt.Sprintf("org/f%d", i)
		}
		folders = append(folders, uid)
		l.Folders[uid] = fmt.Sprintf("folder-%d", i)
	}
	c := Caches{Tags: census.NewCache(), Advisories: census.NewAdvisoryCache()}
	at := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	for i := range 7700 {
		r := census.Repo{UID: fmt.Sprintf("%s/r%d", folders[rng.IntN(len(folders))], i), Name: fmt.Sprintf("image-%d", i)}
		l.Repos = append(l.Repos, r)
		var s census.Scan
		s.Tags, s.Deprecated, s.At = 130, rng.IntN(20), at
		for w := range census.Weeks {
			s.Updated[w], s.Deprecations[w] = int32(rng.IntN(5)), int32(rng.IntN(2))
		}
		c.Tags.Put(r.UID, s)
		var a census.AdvisoryCount
		for st := range census.Statuses {
			a.N[st] = rng.IntN(4)
		}
		c.Advisories.Put(r.Name, a, at)
	}
	return l, c
}

func largePeople(l *census.Layout) *census.People {
	rng := rand.New(rand.NewPCG(3, 4))
	p := &census.People{}
	roles := []*api.Ref{{UID: "owner", Name: "owner"}, {UID: "viewer", Name: "viewer"}, {UID: "editor", Name: "editor"}}
	for i := range 5000 {
		id := api.Identity{UID: fmt.Sprintf("org/i%d", i), Name: fmt.Sprint("id-", i)}
		if i%3 > 0 {
			id.LastSeenTime = api.TimeOf(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(-time.Duration(rng.IntN(400)) * 24 * time.Hour))
		}
		p.Identities = append(p.Identities, id)
	}
	for i := range 10000 {
		g := l.Repos[rng.IntN(len(l.Repos))].UID
		g = api.ParentUID(g)
		p.Bindings = append(p.Bindings, api.RoleBinding{UID: fmt.Sprintf("%s/b%d", g, i),
			Identity: &api.BindingIdentity{UID: fmt.Sprintf("org/i%d", rng.IntN(5000))},
			Group:    &api.Ref{UID: g, Name: "g"}, Role: roles[rng.IntN(len(roles))]})
	}
	return p
}

// BenchmarkFirstPaint is the overview's first frame: made, started and
// drawn before any answer (its requests are not run).
func BenchmarkFirstPaint(b *testing.B) {
	o := newOrg(1, 1)
	for b.Loop() {
		ctx, cancel := context.WithCancel(context.Background())
		m := New(ctx, common(), Config{Title: "overview", Source: o.source(), Stale: time.Hour})
		_ = m.Init()
		m.SetSize(200, 60)
		_ = m.View()
		cancel()
	}
}

// BenchmarkRebuildLarge is what the overview does at most once a tick
// (120 ms) while counts come in, at the large demo's size: every count added up,
// ranked and laid out again, then a frame drawn.
func BenchmarkRebuildLarge(b *testing.B) {
	l, caches := largeCaches()
	m := New(b.Context(), common(), Config{Title: "overview", Source: newOrg(1, 1).source(), Caches: caches, Stale: 90 * 24 * time.Hour})
	m.layout, m.people = l, largePeople(l)
	m.SetSize(200, 60)
	m.rebuild()
	for b.Loop() {
		// While scans run, tag and advisory counts change; people do not.
		m.stale = tagsPart | advisoriesPart
		m.rebuild()
		_ = m.View()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(l.Repos)), "ns/repo")
}
