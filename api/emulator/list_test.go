package emulator

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"canopy/api"
)

func TestPingNeedsNoAuth(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	var p api.PingResponse
	e.ok(e.call("GET", "/ping/v2/ping", "", nil), &p)
	if p.Response == "" {
		t.Fatal("empty ping response")
	}
}

func TestUnauthenticated(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	expired := IdentityToken(issuerGoogle, "104829573610293847561", e.clock.Now().Add(-time.Minute))
	unknown := IdentityToken("https://example.com", "nobody", e.clock.Now().Add(time.Hour))
	for name, tok := range map[string]string{"none": "", "garbage": "not-a-token", "expired": expired, "unknown identity": unknown} {
		t.Run(name, func(t *testing.T) {
			// Every path but ping, known or not, and every method.
			for _, c := range []struct{ method, path string }{
				{"GET", "/iam/v2/groups"}, {"GET", "/no/such/path"}, {"DELETE", "/registry/v2/nothing/here"},
				{"POST", "/iam/v2/groups/" + e.org}, {"GET", "/"},
			} {
				s := wantErr(t, e.call(c.method, c.path, tok, nil), http.StatusUnauthorized, api.CodeUnauthenticated)
				if !strings.HasPrefix(s.Message, "Unauthenticated: ") {
					t.Errorf("%s %s: message %q", c.method, c.path, s.Message)
				}
			}
		})
	}
	// With a token, an unknown path is the gateway's bare 404; ping needs none.
	wantNoRoute(t, e.call("GET", "/no/such/path", adminTok, nil))
	if r := e.call("GET", "/ping/v2/ping", "", nil); r.status != http.StatusOK {
		t.Errorf("ping without a token: %d", r.status)
	}
}

func TestPageSizeDefaultAndClamp(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	big := e.repoUID("aws-cli") // over a thousand visible tags
	for _, tc := range []struct {
		size string
		want int
	}{{"", 50}, {"0", 50}, {"7", 7}, {"200", 200}, {"500", 200}} {
		q := url.Values{"uidp.children_of": {big}}
		if tc.size != "" {
			q.Set("page_size", tc.size)
		}
		p := e.list("/registry/v2/tags", "tags", q)
		if len(p.Items) != tc.want || p.NextPageToken == "" {
			t.Errorf("page_size=%q: %d items (token %q), want %d", tc.size, len(p.Items), p.NextPageToken, tc.want)
		}
	}
	s := wantErr(t, e.get("/registry/v2/tags?page_size=-1"), 400, api.CodeInvalidArgument)
	if f := fieldOf(t, s); f != "page_size" {
		t.Errorf("field %q", f)
	}
}

// walk pages through a list and returns every uid in order.
func walk(t *testing.T, e *env, path, plural string, q url.Values) ([]string, int) {
	t.Helper()
	var all []string
	total := -1
	for range 1000 {
		p := e.list(path, plural, q)
		if total < 0 {
			fmt.Sscan(p.TotalCount, &total)
		}
		all = append(all, uids(p.Items)...)
		if p.NextPageToken == "" {
			return all, total
		}
		q.Set("page_token", p.NextPageToken)
	}
	t.Fatal("paging did not end")
	return nil, 0
}

func TestPagingCoversEverythingInOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	big := e.repoUID("aws-cli") // over a thousand visible tags
	for _, order := range []string{"", "uid", "name", "name desc", "created_at desc", "create_time", "update_time asc", "updateTime desc"} {
		t.Run(order, func(t *testing.T) {
			q := url.Values{"uidp.children_of": {big}, "page_size": {"200"}}
			if order != "" {
				q.Set("order_by", order)
			}
			got, total := walk(t, e, "/registry/v2/tags", "tags", q)
			if len(got) != total || total < 1000 {
				t.Fatalf("walked %d, totalCount %d (want > 1000 and equal)", len(got), total)
			}
			seen := map[string]bool{}
			for _, u := range got {
				if seen[u] {
					t.Fatalf("duplicate %s", u)
				}
				seen[u] = true
			}
			// One big page gives the same order as the cursor walk.
			q.Del("page_token")
			var want []string
			for skip := 0; skip < total; skip += 200 {
				q.Set("skip", fmt.Sprint(skip))
				want = append(want, uids(e.list("/registry/v2/tags", "tags", q).Items)...)
			}
			if !slices.Equal(got, want) {
				t.Fatal("cursor walk and skip walk disagree on order")
			}
		})
	}
}

func TestOrderIsSorted(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	p := e.list("/registry/v2/repos", "repos", url.Values{"uidp.descendants_of": {e.org}, "order_by": {"name desc"}, "page_size": {"200"}})
	var names []string
	for _, it := range p.Items {
		names = append(names, it["name"].(string))
	}
	if !slices.IsSortedFunc(names, func(a, b string) int { return strings.Compare(b, a) }) || len(names) < 50 {
		t.Fatalf("not sorted by name desc: %v", names)
	}
	p = e.list("/registry/v2/repos", "repos", url.Values{"uidp.descendants_of": {e.org}, "order_by": {"created_at desc"}, "page_size": {"200"}})
	var times []string
	for _, it := range p.Items {
		times = append(times, it["createTime"].(string))
	}
	if !slices.IsSortedFunc(times, func(a, b string) int { return strings.Compare(b, a) }) {
		t.Fatalf("not sorted by create time desc: %v", times)
	}
}

func TestOrderByUnknownField(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	for _, ob := range []string{"size", "name sideways", "name asc desc"} {
		s := wantErr(t, e.get("/registry/v2/repos?order_by="+url.QueryEscape(ob)), 400, api.CodeInvalidArgument)
		if f := fieldOf(t, s); f != "order_by" || !strings.HasPrefix(s.Message, "Invalid argument: ") {
			t.Errorf("order_by=%q: field %q message %q", ob, f, s.Message)
		}
	}
}

func TestSkip(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	python := e.repoUID("python")
	base := url.Values{"uidp.children_of": {python}, "order_by": {"name"}, "page_size": {"10"}}
	all, total := walk(t, e, "/registry/v2/tags", "tags", url.Values{"uidp.children_of": {python}, "order_by": {"name"}, "page_size": {"200"}})

	q := cloneQ(base)
	q.Set("skip", "25")
	p := e.list("/registry/v2/tags", "tags", q)
	if p.Skipped != 25 || !slices.Equal(uids(p.Items), all[25:35]) {
		t.Fatalf("skip alone: skipped %d, items %v", p.Skipped, uids(p.Items))
	}
	// skip with a token skips from the cursor.
	q = cloneQ(base)
	q.Set("page_token", p.NextPageToken)
	q.Set("skip", "5")
	p = e.list("/registry/v2/tags", "tags", q)
	if p.Skipped != 5 || !slices.Equal(uids(p.Items), all[40:50]) {
		t.Fatalf("skip with token: skipped %d", p.Skipped)
	}
	// Past the end: skipped says how many were actually skipped.
	q = cloneQ(base)
	q.Set("skip", fmt.Sprint(total-3))
	p = e.list("/registry/v2/tags", "tags", q)
	if len(p.Items) != 3 || p.NextPageToken != "" {
		t.Fatalf("near the end: %d items, token %q", len(p.Items), p.NextPageToken)
	}
	q.Set("skip", fmt.Sprint(total+10))
	p = e.list("/registry/v2/tags", "tags", q)
	if len(p.Items) != 0 || p.Skipped != total || p.TotalCount != fmt.Sprint(total) {
		t.Fatalf("past the end: %d items, skipped %d, total %s", len(p.Items), p.Skipped, p.TotalCount)
	}
}

func cloneQ(q url.Values) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = slices.Clone(v)
	}
	return out
}

func TestTokenRestarts(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1, PageTokenLifetime: time.Hour})
	python := e.repoUID("python")
	q := url.Values{"uidp.children_of": {python}, "page_size": {"20"}, "order_by": {"name"}}
	first := e.list("/registry/v2/tags", "tags", q)
	q.Set("page_token", first.NextPageToken)
	second := e.list("/registry/v2/tags", "tags", q)
	if slices.Equal(uids(first.Items), uids(second.Items)) {
		t.Fatal("a fresh token did not advance")
	}
	t.Run("different order", func(t *testing.T) {
		q := cloneQ(q)
		q.Set("order_by", "name desc")
		fresh := e.list("/registry/v2/tags", "tags", url.Values{"uidp.children_of": {python}, "page_size": {"20"}, "order_by": {"name desc"}})
		if got := e.list("/registry/v2/tags", "tags", q); !slices.Equal(uids(got.Items), uids(fresh.Items)) {
			t.Fatal("a token used with another order did not restart")
		}
	})
	t.Run("different filter", func(t *testing.T) {
		q := cloneQ(q)
		q.Set("include_referrers", "true")
		got := e.list("/registry/v2/tags", "tags", q)
		if got.Items[0]["uid"] == second.Items[0]["uid"] {
			t.Fatal("a token used with another filter did not restart")
		}
	})
	t.Run("expired", func(t *testing.T) {
		e.clock.Add(2 * time.Hour)
		got := e.list("/registry/v2/tags", "tags", q)
		if !slices.Equal(uids(got.Items), uids(first.Items)) {
			t.Fatal("an expired token did not restart from the first page")
		}
	})
}

func TestCamelCaseParameters(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	snake := e.list("/iam/v2/groups", "groups", url.Values{"uidp.descendants_of": {e.org}, "page_size": {"3"}, "order_by": {"name desc"}})
	camel := e.list("/iam/v2/groups", "groups", url.Values{"uidp.descendantsOf": {e.org}, "pageSize": {"3"}, "orderBy": {"name desc"}})
	if !slices.Equal(uids(snake.Items), uids(camel.Items)) || len(camel.Items) != 3 {
		t.Fatalf("snake %v camel %v", uids(snake.Items), uids(camel.Items))
	}
	q := url.Values{"uidp.descendantsOf": {e.org}, "pageSize": {"3"}, "orderBy": {"name desc"}, "pageToken": {camel.NextPageToken}}
	next := e.list("/iam/v2/groups", "groups", q)
	if slices.Contains(uids(next.Items), uids(camel.Items)[0]) {
		t.Fatal("pageToken was ignored")
	}
}

func TestHierarchyFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	roots := e.list("/iam/v2/groups", "groups", url.Values{"uidp.in_root": {"true"}})
	if roots.TotalCount != "2" {
		t.Fatalf("in_root: %s organizations, want 2", roots.TotalCount)
	}
	children := e.list("/iam/v2/groups", "groups", url.Values{"uidp.children_of": {e.org}, "page_size": {"200"}})
	desc := e.list("/iam/v2/groups", "groups", url.Values{"uidp.descendants_of": {e.org}, "page_size": {"200"}})
	for _, u := range uids(children.Items) {
		if !api.IsChild(u, e.org) {
			t.Errorf("children_of gave %s", u)
		}
	}
	for _, u := range uids(desc.Items) {
		if !api.IsDescendant(u, e.org) {
			t.Errorf("descendants_of gave %s", u)
		}
	}
	if len(children.Items) == 0 || len(desc.Items) <= len(children.Items) {
		t.Fatalf("children %d, descendants %d", len(children.Items), len(desc.Items))
	}
	// Repos of a folder by children_of, and of its subtree by descendants_of.
	platform := e.groupUID("platform")
	direct := e.list("/registry/v2/repos", "repos", url.Values{"uidp.children_of": {platform}, "page_size": {"200"}})
	below := e.list("/registry/v2/repos", "repos", url.Values{"uidp.descendants_of": {platform}, "page_size": {"200"}})
	if len(direct.Items) == 0 || len(below.Items) <= len(direct.Items) {
		t.Fatalf("platform repos: direct %d, below %d", len(direct.Items), len(below.Items))
	}
}

func TestNameFilter(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	all := e.list("/registry/v2/repos", "repos", url.Values{"name": {"python"}})
	if all.TotalCount != "2" {
		t.Fatalf("name=python in every org: %s, want 2", all.TotalCount)
	}
	one := e.list("/registry/v2/repos", "repos", url.Values{"name": {"python"}, "uidp.descendants_of": {e.org}})
	if one.TotalCount != "1" || one.Items[0]["name"] != "python" {
		t.Fatalf("name=python in acme: %+v", one)
	}
	none := e.list("/registry/v2/repos", "repos", url.Values{"name": {"pyth"}})
	if none.TotalCount != "0" || len(none.Items) != 0 || none.NextPageToken != "" {
		t.Fatalf("name is exact, got %+v", none)
	}
}

func TestTagsHiddenByDefault(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	big := e.repoUID("aws-cli") // over a thousand visible tags
	count := func(q url.Values) (map[uint8]int, int) {
		q.Set("uidp.children_of", big)
		q.Set("page_size", "200")
		got := map[uint8]int{}
		n := 0
		for range 100 {
			p := e.list("/registry/v2/tags", "tags", q)
			for _, it := range p.Items {
				got[tagClass(it["name"].(string))]++
				n++
			}
			if p.NextPageToken == "" {
				break
			}
			q.Set("page_token", p.NextPageToken)
		}
		return got, n
	}
	def, n := count(url.Values{})
	if def[classReferrer]+def[classEpoch]+def[classDate] != 0 || n < 1000 {
		t.Fatalf("default list: %v (of %d)", def, n)
	}
	for param, class := range map[string]uint8{"include_referrers": classReferrer, "include_epochs": classEpoch, "include_dates": classDate} {
		got, _ := count(url.Values{param: {"true"}})
		if got[class] == 0 || got[classNormal] != def[classNormal] {
			t.Errorf("%s: %v", param, got)
		}
	}
	all, _ := count(url.Values{"includeReferrers": {"true"}, "includeEpochs": {"true"}, "includeDates": {"true"}})
	if all[classReferrer] == 0 || all[classEpoch] == 0 || all[classDate] == 0 {
		t.Errorf("all included (camelCase): %v", all)
	}
}
