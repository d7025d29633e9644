package emulator

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"canopy/api"
)

// walkAs reads every page of a list as token.
func (e *env) walkAs(token, path, plural string, q url.Values) (items []string, total string) {
	e.t.Helper()
	q = cloneValues(q)
	q.Set("page_size", "200")
	for {
		p := e.listAs(token, path, plural, q)
		items = append(items, uids(p.Items)...)
		total = p.TotalCount
		if p.NextPageToken == "" {
			return items, total
		}
		q.Set("page_token", p.NextPageToken)
	}
}

func cloneValues(q url.Values) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = slices.Clone(v)
	}
	return out
}

// TestScopedRegistryListsUseTheOrganization: a caller whose registry access
// is on one organization lists tags and repos without a uidp filter exactly
// as the admin lists that organization's (served from its index, not a
// scan); an owner of the other organization sees only that one.
func TestScopedRegistryListsUseTheOrganization(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	carol := e.tokenFor(issuerGoogle, "109283746501928374650") // viewer on acme
	dave := e.tokenFor(issuerGoogle, "100200300400500600700")  // owner on globex
	globex := ""
	for _, g := range e.list("/iam/v2/groups", "groups", url.Values{"uidp.in_root": {"true"}}).Items {
		if g["name"] == "globex.example" {
			globex = g["uid"].(string)
		}
	}
	for _, path := range []string{"/registry/v2/tags", "/registry/v2/repos"} {
		plural := path[strings.LastIndexByte(path, '/')+1:]
		for _, q := range []url.Values{
			{}, {"order_by": {"name desc"}}, {"order_by": {"created_at desc"}, "skip": {"333"}},
			{"name": {"latest"}}, {"name": {"python"}, "order_by": {"update_time"}},
			{"include_referrers": {"true"}, "include_epochs": {"true"}, "order_by": {"update_time desc"}},
		} {
			for _, who := range []struct {
				name, token, org string
			}{{"carol", carol, e.org}, {"dave", dave, globex}} {
				got, gotTotal := e.walkAs(who.token, path, plural, q)
				scoped := cloneValues(q)
				scoped.Set("uidp.descendants_of", who.org)
				want, wantTotal := e.walkAs(adminTok, path, plural, scoped)
				if !slices.Equal(got, want) || gotTotal != wantTotal {
					t.Errorf("%s %s?%s: %d items (total %s), want the %d (total %s) of its organization",
						who.name, path, q.Encode(), len(got), gotTotal, len(want), wantTotal)
				}
			}
		}
	}
}

// TestNameFilterInEveryScope: the name index answers exactly what a scan
// of the scope would, in every scope and order.
func TestNameFilterInEveryScope(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	python := e.repoUID("python")
	base := e.groupUID("base-images")
	for _, scope := range []url.Values{
		{}, {"uidp.descendants_of": {e.org}}, {"uidp.descendants_of": {base}}, {"uidp.children_of": {python}},
	} {
		for _, order := range []string{"uid", "name desc", "created_at desc", "update_time"} {
			q := cloneValues(scope)
			q.Set("order_by", order)
			all, _ := e.walkAs(adminTok, "/registry/v2/tags", "tags", q)
			for _, name := range []string{"latest", "3.12", "latest-dev", "no-such-tag"} {
				var want []string
				for _, uid := range all {
					if id, ok := e.srv.st.tags.find(uid); ok && e.srv.st.tagName(&e.srv.st.tags.items[id]) == name {
						want = append(want, uid)
					}
				}
				q.Set("name", name)
				got, total := e.walkAs(adminTok, "/registry/v2/tags", "tags", q)
				if !slices.Equal(got, want) || total != strconv.Itoa(len(want)) {
					t.Errorf("tags?%s: %d (total %s), want %d", q.Encode(), len(got), total, len(want))
				}
			}
		}
	}
}

// checkIndexes verifies every index of c against its live items: each list
// holds exactly the items of its scope, in its field's order, with the
// right class counts.
func checkIndexes[T any](t *testing.T, what string, c *coll[T]) {
	t.Helper()
	want := map[*scopeIdx][]int32{}
	for i := range c.items {
		if c.dead[i] {
			continue
		}
		c.scopesOf(int32(i), false, func(s *scopeIdx) { want[s] = append(want[s], int32(i)) })
	}
	for i := range c.items {
		for _, m := range c.mains {
			if !c.dead[i] && c.inScope(&c.items[i], m) {
				want[c.desc[m]] = append(want[c.desc[m]], int32(i))
			}
		}
	}
	check := func(name string, s *scopeIdx) {
		ids := want[s]
		if s.view != 0 {
			// A main scope: the global lists' entries of its kinds.
			if n := c.size(s); n != len(ids) {
				t.Fatalf("%s %s (main): %d items counted, %d there", what, name, n, len(ids))
			}
			return
		}
		for f := range numFields {
			l := c.list(s, f)
			got := l.all()
			if len(got) != len(ids) {
				t.Fatalf("%s %s field %d: %d ids, want %d", what, name, f, len(got), len(ids))
			}
			for i := 1; i < len(got); i++ {
				if c.cmpIDs(f, got[i-1], got[i]) >= 0 {
					t.Fatalf("%s %s field %d: out of order at %d", what, name, f, i)
				}
			}
			if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(ids))) {
				t.Fatalf("%s %s field %d: other ids than its scope's", what, name, f)
			}
			for cl := range numKinds {
				n := 0
				for _, id := range got {
					if c.classOf(id) == uint8(cl) {
						n++
					}
				}
				if got := l.visibleBefore(1<<cl, l.Len()); c.acc.class != nil && got != n {
					t.Fatalf("%s %s field %d: %d of class %d counted, %d there", what, name, f, got, cl, n)
				}
			}
		}
	}
	check("global", c.global)
	for _, m := range []map[string]*scopeIdx{c.desc, c.children, c.byName} {
		for k, s := range m {
			check(k, s)
		}
	}
}

// TestIndexesStayConsistent: after tags and repos are created, moved,
// renamed and deleted (a repo with its tags in one batch), every index
// still holds exactly its scope's items in order.
func TestIndexesStayConsistent(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	python, node := e.repoUID("python"), e.repoUID("node")
	web := e.groupUID("web")
	digest := func(i int) string { return "sha256:" + strings.Repeat(strconv.Itoa(i%10), 64) }
	var r api.Repo
	e.ok(e.call("POST", "/registry/v2/repos/"+web, adminTok, api.Repo{Name: "doomed"}), &r)
	for i := range 700 { // more than a block
		e.ok(e.call("POST", "/registry/v2/tags/"+r.UID, adminTok, map[string]string{"name": "1.0." + strconv.Itoa(i), "digest": digest(i)}), nil)
		e.ok(e.call("POST", "/registry/v2/tags/"+python, adminTok, map[string]string{"name": "zz-" + strconv.Itoa(i), "digest": digest(i)}), nil)
		e.clock.Add(1)
	}
	e.ok(e.call("POST", "/registry/v2/tags/"+python, adminTok, map[string]string{"name": "latest", "digest": digest(3)}), nil)
	tags := e.list("/registry/v2/tags", "tags", url.Values{"uidp.children_of": {node}, "page_size": {"200"}})
	for _, uid := range uids(tags.Items)[:150] {
		e.ok(e.call("DELETE", "/registry/v2/tags/"+uid, adminTok, nil), nil)
	}
	e.ok(e.call("PATCH", "/registry/v2/repos/"+python+"?updateMask=name", adminTok, api.Repo{Name: "python3"}), nil)
	e.ok(e.call("DELETE", "/registry/v2/repos/"+r.UID, adminTok, nil), nil)
	checkIndexes(t, "tags", e.srv.st.tags)
	checkIndexes(t, "repos", e.srv.st.repos)
	if n := e.list("/registry/v2/tags", "tags", url.Values{"uidp.children_of": {r.UID}}).TotalCount; n != "0" {
		t.Errorf("tags of the deleted repo: %s", n)
	}
}
