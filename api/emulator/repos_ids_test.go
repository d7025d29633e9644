package emulator

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"testing"

	"canopy/api"
)

// TestReposByIDs: uidp.ids keeps the repos of exactly those uids, within
// the scope asked, in the list's order, and pages them like any filter.
func TestReposByIDs(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	python, nginx := e.repoUID("python"), e.repoUID("nginx")
	// The other organization's python: named by uid, outside the scope.
	both := e.list("/registry/v2/repos", "repos", url.Values{"name": {"python"}})
	other := slices.DeleteFunc(uids(both.Items), func(u string) bool { return u == python })
	if len(other) != 1 {
		t.Fatalf("python outside %s: %v", e.org, other)
	}
	ids := []string{nginx, python, other[0], e.org + "/0000000000000000"}

	in := e.list("/registry/v2/repos", "repos", url.Values{"uidp.descendants_of": {e.org}, "uidp.ids": ids, "page_size": {"200"}})
	want := []string{nginx, python}
	if got := uids(in.Items); !sameSet(got, want) || in.TotalCount != "2" || in.NextPageToken != "" {
		t.Fatalf("ids in %s: %v (total %s, token %q), want %v", e.org, got, in.TotalCount, in.NextPageToken, want)
	}
	anywhere := e.list("/registry/v2/repos", "repos", url.Values{"uidp.ids": ids, "page_size": {"200"}})
	if got := uids(anywhere.Items); !sameSet(got, append(want, other[0])) {
		t.Fatalf("ids anywhere: %v", got)
	}
	// A page of one, then the token: the same two, each once.
	first := e.list("/registry/v2/repos", "repos", url.Values{"uidp.descendants_of": {e.org}, "uidp.ids": ids, "page_size": {"1"}})
	if len(first.Items) != 1 || first.NextPageToken == "" {
		t.Fatalf("first page of one: %v, token %q", uids(first.Items), first.NextPageToken)
	}
	second := e.list("/registry/v2/repos", "repos", url.Values{"uidp.descendants_of": {e.org}, "uidp.ids": ids, "page_size": {"1"},
		"page_token": {first.NextPageToken}})
	if got := append(uids(first.Items), uids(second.Items)...); !sameSet(got, want) || second.NextPageToken != "" {
		t.Fatalf("paged: %v, last token %q", got, second.NextPageToken)
	}
	none := e.list("/registry/v2/repos", "repos", url.Values{"uidp.ids": {e.org + "/ffffffffffffffff"}})
	if len(none.Items) != 0 || none.TotalCount != "0" {
		t.Fatalf("an unknown uid: %v", uids(none.Items))
	}
}

// sameSet reports whether got holds want's uids, each once, in any order.
func sameSet(got, want []string) bool {
	return len(got) == len(want) && !slices.ContainsFunc(want, func(u string) bool { return !slices.Contains(got, u) })
}

// TestOfUIDsIsTheScan: a list by exact uids, each looked up in the uid
// index (ofUIDs), is the scan's answer (filtered) item for item, in every
// order, scope and mask over the seeded groups, repos and tags: with uids
// outside the scope, unknown, repeated, empty or a prefix of another, and
// with a further filter.
func TestOfUIDsIsTheScan(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	st := e.srv.st
	// The scan and the index are compared over every tag: a store makes a
	// repo's tags when first asked for, so make them all first.
	st.makeAllTags()
	rng := rand.New(rand.NewPCG(1, 2))
	checkOfUIDs(t, "groups", st.groups, rng, func(g *api.Group) string { return g.Name })
	checkOfUIDs(t, "repos", st.repos, rng, func(r *repoRec) string { return r.Name })
	checkOfUIDs(t, "tags", st.tags, rng, st.tagName)
}

func checkOfUIDs[T any](t *testing.T, what string, c *coll[T], rng *rand.Rand, name func(*T) string) {
	t.Helper()
	every := c.global.lists[fieldUID].all()
	if len(every) == 0 {
		t.Fatalf("%s: no items seeded", what)
	}
	uidOf := func(id int32) string { return c.acc.uid(&c.items[id]) }
	scopes := map[string]*scopeIdx{"global": c.global, "in root": c.children[""], "unknown": c.scope("no/such", "", false)}
	for _, m := range []map[string]*scopeIdx{c.desc, c.children} {
		for _, k := range slices.Sorted(maps.Keys(m))[:min(len(m), 4)] {
			scopes[fmt.Sprintf("%p %s", m, k)] = m[k]
		}
	}
	for scopeName, s := range scopes {
		for f := range numFields {
			for _, classes := range []uint8{maskAll, 1 << classNormal} {
				l, mask := c.listIn(s, f, classes)
				// Half of a random sample of the items, some of the scope's,
				// and uids no item has.
				var asked []string
				for range 40 {
					asked = append(asked, uidOf(every[rng.IntN(len(every))]))
				}
				if l.Len() > 0 {
					for range 20 {
						asked = append(asked, uidOf(l.at(rng.IntN(l.Len()))))
					}
				}
				first := uidOf(every[0])
				asked = append(asked, asked[0], "", first+"/", first[:len(first)-1], "no/such/uid")
				wanted := map[string]bool{}
				for _, uid := range asked {
					wanted[uid] = true
				}
				named := name(&c.items[every[rng.IntN(len(every))]])
				for _, keep := range []func(*T) bool{nil, func(it *T) bool { return name(it) == named }} {
					scan := c.filtered(l, mask, both(keep, func(it *T) bool { return wanted[c.acc.uid(it)] })).all()
					got := c.ofUIDs(l, f, mask, asked, keep).all()
					if !slices.Equal(got, scan) {
						t.Errorf("%s in %s, field %d, classes %b, name filter %t: %d items by uid, the scan %d",
							what, scopeName, f, classes, keep != nil, len(got), len(scan))
					}
				}
			}
		}
	}
}

// TestReposByIDsIsTheListOfThoseUIDs: through HTTP, in every scope, order
// and page size, to the admin and to a caller of one organization, the
// repos of uidp.ids are the list's repos of those uids, in its order, with
// its total, paged by its tokens.
func TestReposByIDsIsTheListOfThoseUIDs(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	carol := e.tokenFor(issuerGoogle, "109283746501928374650") // viewer on acme
	every, _ := e.walkAs(adminTok, "/registry/v2/repos", "repos", url.Values{})
	rng := rand.New(rand.NewPCG(3, 4))
	var asked []string
	for range 60 {
		asked = append(asked, every[rng.IntN(len(every))])
	}
	asked = append(asked, asked[0], asked[1], e.org+"/0000000000000000", e.org)
	wanted := map[string]bool{}
	for _, uid := range asked {
		wanted[uid] = true
	}
	for _, q := range []url.Values{
		{}, {"uidp.descendants_of": {e.org}}, {"uidp.descendants_of": {e.groupUID("base-images")}},
		{"uidp.children_of": {e.org}}, {"uidp.in_root": {"true"}}, {"uidp.descendants_of": {"no-such-group"}},
		{"name": {"python"}}, {"order_by": {"name desc"}}, {"order_by": {"created_at"}, "uidp.descendants_of": {e.org}},
		{"order_by": {"update_time desc"}, "uidp.children_of": {e.groupUID("base-images")}},
	} {
		for _, who := range []struct{ name, token string }{{"admin", adminTok}, {"carol", carol}} {
			byIDs := cloneValues(q)
			byIDs["uidp.ids"] = asked
			if r := e.call("GET", "/registry/v2/repos?"+q.Encode(), who.token, nil); r.status != http.StatusOK {
				// Refused (another organization's group): refused by uid too, alike.
				if by := e.call("GET", "/registry/v2/repos?"+byIDs.Encode(), who.token, nil); by.status != r.status ||
					by.apiStatus(t).Code != r.apiStatus(t).Code {
					t.Errorf("%s: repos?%s refused with %d, by uid answered %d", who.name, q.Encode(), r.status, by.status)
				}
				continue
			}
			all, _ := e.walkAs(who.token, "/registry/v2/repos", "repos", q)
			want := slices.DeleteFunc(all, func(uid string) bool { return !wanted[uid] })
			for _, size := range []string{"200", "7"} {
				byIDs.Set("page_size", size)
				var got []string
				total := ""
				for {
					p := e.listAs(who.token, "/registry/v2/repos", "repos", byIDs)
					got, total = append(got, uids(p.Items)...), p.TotalCount
					if p.NextPageToken == "" {
						break
					}
					byIDs.Set("page_token", p.NextPageToken)
				}
				byIDs.Del("page_token")
				if !slices.Equal(got, want) || total != strconv.Itoa(len(want)) {
					t.Errorf("%s: repos?%s by %d uids, pages of %s: %v (total %s), want %v", who.name, q.Encode(), len(asked), size, got, total, want)
				}
			}
		}
	}
}
