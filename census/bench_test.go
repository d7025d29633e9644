package census_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"canopy/api"
	"canopy/census"
)

// The scale of the large demo.
const (
	benchRepos      = 7700
	benchTop        = 10 // top folders, each with 2 folders, each with 2: 70 in all
	benchIdentities = 5000
	benchBindings   = 10000
	benchPage       = 200
)

func benchRand() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }

// hexUID is a uid segment of n hex digits, as the service makes them.
func hexUID(r *rand.Rand, n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[r.IntN(16)]
	}
	return string(b)
}

// benchTags is a page of tags updated over the last four years, one in ten
// deprecated, a few with no time.
func benchTags(r *rand.Rand, n int) []api.Tag {
	tags := make([]api.Tag, n)
	for i := range tags {
		tags[i].Deprecated = r.IntN(10) == 0
		if r.IntN(50) != 0 {
			tags[i].UpdateTime = ago(time.Duration(r.Int64N(int64(4 * 365 * 24 * time.Hour))))
		}
	}
	return tags
}

// benchLayout is an organization of 70 folders nested 3 deep and 7,700
// repos, one in 71 at the top.
func benchLayout(r *rand.Rand) *census.Layout {
	org := hexUID(r, api.RootUIDLen)
	l := &census.Layout{Org: org, Folders: map[string]string{org: "acme"}}
	folders := []string{}
	add := func(parent, name string) string {
		uid := parent + "/" + hexUID(r, 16)
		l.Folders[uid] = name
		folders = append(folders, uid)
		return uid
	}
	for i := range benchTop {
		top := add(org, fmt.Sprintf("team-%02d", i))
		for j := range 2 {
			mid := add(top, fmt.Sprintf("area-%d", j))
			for k := range 2 {
				add(mid, fmt.Sprintf("env-%d", k))
			}
		}
	}
	for i := range benchRepos {
		parent := org
		if n := r.IntN(len(folders) + 1); n < len(folders) {
			parent = folders[n]
		}
		l.Repos = append(l.Repos, census.Repo{UID: parent + "/" + hexUID(r, 16), Name: fmt.Sprintf("image-%04d", i)})
	}
	return l
}

func BenchmarkTagCountAdd(b *testing.B) {
	page := benchTags(benchRand(), benchPage)
	var c census.TagCount
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		c = census.TagCount{}
		c.Add(page, now)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchPage), "ns/tag")
	if c.Tags != benchPage {
		b.Fatalf("counted %d tags, want %d", c.Tags, benchPage)
	}
}

func BenchmarkCountDeprecated(b *testing.B) {
	r := benchRand()
	l := benchLayout(r)
	c := census.NewCache()
	for _, repo := range l.Repos {
		var s census.Scan
		s.Add(benchTags(r, 1+r.IntN(40)), now)
		s.At = now.Add(-time.Duration(r.IntN(3600)) * time.Second)
		c.Put(repo.UID, s)
	}
	var d census.Deprecated
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		d = census.CountDeprecated(l, c)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchRepos), "ns/repo")
	if d.Scanned != benchRepos || d.FoldersWithAny != 70 {
		b.Fatalf("scanned %d repos, %d folders with any; want %d, 70", d.Scanned, d.FoldersWithAny, benchRepos)
	}
}

// benchPeople is 5,000 identities and 10,000 bindings of six roles on the
// organization and its folders; a tenth of the identities never seen.
func benchPeople(r *rand.Rand, l *census.Layout) *census.People {
	p := &census.People{Identities: make([]api.Identity, benchIdentities)}
	for i := range p.Identities {
		id := &p.Identities[i]
		id.UID = l.Org + "/" + hexUID(r, 16)
		if r.IntN(10) != 0 {
			id.LastSeenTime = ago(time.Duration(r.Int64N(int64(2 * 365 * 24 * time.Hour))))
		}
	}
	roles := []*api.Ref{{UID: "owner", Name: census.OwnerRole}, {UID: "editor", Name: "editor"},
		{UID: "viewer", Name: "viewer"}, {UID: "registry.pull", Name: "registry.pull"},
		{UID: "registry.push", Name: "registry.push"}, {UID: l.Org + "/" + hexUID(r, 16), Name: "custom"}}
	groups := []*api.Ref{{UID: l.Org, Name: "acme"}}
	for uid, name := range l.Folders {
		if uid != l.Org {
			groups = append(groups, &api.Ref{UID: uid, Name: name})
		}
	}
	p.Bindings = make([]api.RoleBinding, benchBindings)
	for i := range p.Bindings {
		id := &p.Identities[r.IntN(len(p.Identities)*8/10)] // a fifth never bound
		p.Bindings[i] = api.RoleBinding{
			Identity: &api.BindingIdentity{UID: id.UID},
			Group:    groups[r.IntN(len(groups))],
			Role:     roles[r.IntN(len(roles))],
		}
	}
	return p
}

func BenchmarkCountIdentities(b *testing.B) {
	r := benchRand()
	l := benchLayout(r)
	p := benchPeople(r, l)
	a := census.Asks{Stale: 90 * 24 * time.Hour, Now: now, Bound: census.Bound(p.Bindings)}
	var ids census.Identities
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		ids = census.CountIdentities(p, l.Org, a)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchIdentities), "ns/identity")
	if ids.Total != benchIdentities || ids.Count[census.Owner] == 0 {
		b.Fatalf("got %+v", ids)
	}
}

// BenchmarkPeople is all the overview derives from the people: the bound
// set, the identities' lines, the bindings by role and by folder.
func BenchmarkPeople(b *testing.B) {
	r := benchRand()
	l := benchLayout(r)
	p := benchPeople(r, l)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		a := census.Asks{Stale: 90 * 24 * time.Hour, Now: now, Bound: census.Bound(p.Bindings)}
		census.CountIdentities(p, l.Org, a)
		census.BindingsByRole(p.Bindings)
		census.BindingsByFolder(p.Bindings, l)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchBindings), "ns/binding")
}

func BenchmarkRankAdvisories(b *testing.B) {
	r := benchRand()
	l := benchLayout(r)
	counts := map[string]census.AdvisoryCount{}
	for _, repo := range l.Repos {
		if r.IntN(3) != 0 {
			var c census.AdvisoryCount
			for s := range c.N {
				c.N[s] = r.IntN(20)
			}
			counts[repo.Name] = c
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		census.RankAdvisories(l.Repos, lookup(counts))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchRepos), "ns/repo")
}
