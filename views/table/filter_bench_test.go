package table_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"

	"canopy/api"
	"canopy/views"
	"canopy/views/paging"
	"canopy/views/search"
	"canopy/views/table"
	"canopy/views/viewstest"
)

// filterCases are the names of the benchmark's two tables and the
// patterns typed into each: tag names (1.2.3-dev, latest-12), and names of
// the shape the fuzzy issue measures, org/folder/repo:1.2.3-r4 (a table that
// spans an organization's repositories), with its patterns.
var filterCases = []struct {
	names    string
	rename   func(i int) string
	patterns []string
}{
	{"tags", nil, []string{"l12", "1.5dev"}},
	{"paths", pathName, []string{"ngx", "pstgr", "ngx1.2", "o"}},
}

var (
	pathOrgs    = []string{"acme", "globex", "hooli", "umbrella", "soylent", "vandelay"}
	pathFolders = []string{"platform/base-images", "apps/web", "apps/mobile-backend", "data/ml", "data/etl",
		"infra/monitoring", "infra/ci", "security/scanners", "teams/payments/api", "teams/search", "sandbox", "legacy"}
	pathRepos = []string{"nginx", "python", "node", "go", "postgres", "redis", "grafana", "prometheus",
		"alpine", "ubuntu", "debian", "busybox", "mysql", "mongo", "rabbitmq", "elasticsearch", "kibana",
		"traefik", "vault", "consul", "etcd", "httpd", "memcached", "openjdk", "golang", "rust", "ruby",
		"php", "haproxy", "nginx-unprivileged", "cert-manager", "coredns", "kube-proxy", "fluent-bit"}
	pathSuffixes = []string{"", "", "", "", "-dev", "-r4", "-r1", "-slim", "-alpine", "-rc1", "-fips", "-debug"}
)

// pathName is the i-th name of the shape org/folder/repo:1.2.3-r4.
func pathName(i int) string {
	h := splitmix(uint64(i) + 1<<40)
	pick := func(l []string, k uint64) string { return l[splitmix(h+k)%uint64(len(l))] }
	return fmt.Sprintf("%s/%s/%s:%d.%d.%d%s", pick(pathOrgs, 1), pick(pathFolders, 2), pick(pathRepos, 3),
		h%4, h>>8%30, h>>16%40, pick(pathSuffixes, 4))
}

// renamedTags is a loaded list of n synthetic tags whose names are
// rename(i) (nil: the tags' own names, shared with the other benchmarks).
func renamedTags(b *testing.B, n int, rename func(int) string) *paging.List[api.Tag] {
	if rename == nil {
		return loadedTags(b, n)
	}
	src := func(_ context.Context, req paging.Request) (paging.Result[api.Tag], error) {
		start, err := startOf(req)
		if err != nil {
			return paging.Result[api.Tag]{}, err
		}
		start = min(start, n)
		end := min(start+min(req.Size, paging.DefaultPageSize), n)
		res := paging.Result[api.Tag]{Total: int64(n), Skipped: req.Skip, Items: make([]api.Tag, 0, end-start)}
		for i := start; i < end; i++ {
			t := synthTag(i)
			t.Name = rename(i)
			res.Items = append(res.Items, t)
		}
		if end < n {
			res.Next = strconv.Itoa(end)
		}
		return res, nil
	}
	l := paging.New(context.Background(), src, tagKey)
	loadAll(b, l, l.Start(), func(msg paging.PageMsg) tea.Cmd {
		_, cmd := l.Update(msg)
		return cmd
	})
	return l
}

// typeKey sends one key to the table's filter line and feeds the filter's
// answer back, as the program would: the first part (rows whose name
// matches), and with whole the second (rows that match on other columns).
func typeKey(m *table.Model[api.Tag], r rune, whole bool) {
	viewstest.Drive(m.Update(tea.KeyPressMsg{Code: r, Text: string(r)}),
		func(msg tea.Msg) bool { _, ok := msg.(search.ResultMsg); return ok },
		func(msg tea.Msg) tea.Cmd {
			if cmd := m.Update(msg); whole {
				return cmd
			}
			return nil
		})
}

var keyEsc = tea.KeyPressMsg{Code: tea.KeyEscape}

// BenchmarkTableFilter is the product path of `/` on a tag table with 10⁶
// loaded rows, from a key to the answer taken by the table: the names
// snapshot and the ranking. The cases:
//
//   - first: the first key after `/`, until the rows whose name matches
//     are shown (the best matches: the answer). `/` starts building the
//     names, which a user's first key finds made; that build is untimed.
//   - typed-ahead: `/` and the first key at once, the names built inside
//     the key's answer.
//   - extend: the pattern's last key over the matches of the rest.
//   - +columns: on until the rows that match only on the other searchable
//     columns (digest, status) are added below the name matches.
//
// fuzzy.Find over the same names, for the same query (the first letter
// for first and typed-ahead, the pattern for extend), runs in the same
// benchmark for the ratio the fuzzy issue sets (≤ 1/4). The setup of the extend cases is
// untimed but long: run with -benchtime 20x.
func BenchmarkTableFilter(b *testing.B) {
	const n = 1_000_000
	c := common()
	for _, fc := range filterCases {
		l := renamedTags(b, n, fc.rename)
		names := make([]string, 0, n)
		l.Each(func(_ int, t *api.Tag) bool { names = append(names, t.Name); return true })
		b.Run(fc.names, func(b *testing.B) { benchTableFilter(b, c, l, names, fc.patterns) })
	}
}

func benchTableFilter(b *testing.B, c views.Common, l *paging.List[api.Tag], names, patterns []string) {
	open := func() *table.Model[api.Tag] {
		m := table.New(c, tagConfig(c, l))
		m.SetSize(benchWidth, benchHeight)
		return m
	}
	slash := func(m *table.Model[api.Tag], prepare bool) {
		m.Update(keyEsc)
		cmd := m.Update(tea.KeyPressMsg{Code: '/', Text: "/"})
		if prepare {
			viewstest.Drive(cmd, func(tea.Msg) bool { return false }, nil)
		}
	}
	find := func(q string) {
		b.Run("fuzzy.Find/"+q, func(b *testing.B) {
			for b.Loop() {
				fuzzy.Find(q, names)
			}
		})
	}
	for _, p := range patterns {
		// The query after the timed key: p's first letter (first,
		// typed-ahead), p (extend).
		find(p[:1])
		if len(p) > 1 {
			find(p)
		}
		b.Run("typed-ahead/"+p, func(b *testing.B) {
			m := open()
			for b.Loop() {
				slash(m, false)
				typeKey(m, rune(p[0]), false)
			}
			if !strings.Contains(m.View(), "/1,000,000") {
				b.Fatalf("no filter shown:\n%s", m.View())
			}
		})
		for _, whole := range []bool{false, true} {
			suffix := map[bool]string{false: "", true: "+columns"}[whole]
			b.Run("first"+suffix+"/"+p, func(b *testing.B) {
				m := open()
				for b.Loop() {
					b.StopTimer()
					slash(m, true)
					b.StartTimer()
					typeKey(m, rune(p[0]), whole)
				}
			})
			if len(p) < 2 {
				continue
			}
			b.Run("extend"+suffix+"/"+p, func(b *testing.B) {
				m := open()
				last := rune(p[len(p)-1])
				for b.Loop() {
					b.StopTimer()
					slash(m, true)
					for _, r := range p[:len(p)-1] {
						typeKey(m, r, true)
					}
					b.StartTimer()
					typeKey(m, last, whole)
				}
			})
		}
	}
}
