package filter

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sahilm/fuzzy"
)

// The benchmarks run over benchN names of the shape canopy lists in a
// registry, org/folder/repo:1.2.3-r4, built deterministically (seeded
// math/rand/v2): 6 organizations, 12 folders, 60 repositories, versions
// major.minor.patch and suffixes such as -dev, -r4, -slim. The material is
// chosen so that the previous pattern of BenchmarkNarrow, "ngi", matches
// about 10% of the names (nginx and the other repositories holding n…g…i).
//
//	go test ./views/filter -run '^$' -bench . -count 5

const benchN = 1_000_000

var (
	benchOrgs    = []string{"acme", "globex", "hooli", "umbrella", "soylent", "vandelay"}
	benchFolders = []string{"platform/base-images", "apps/web", "apps/mobile-backend", "data/ml", "data/etl",
		"infra/monitoring", "infra/ci", "security/scanners", "teams/payments/api", "teams/search",
		"sandbox", "legacy"}
	benchRepos = []string{"nginx", "python", "node", "go", "postgres", "redis", "grafana", "prometheus",
		"alpine", "ubuntu", "debian", "busybox", "mysql", "mongo", "rabbitmq", "elasticsearch", "kibana",
		"traefik", "vault", "consul", "etcd", "httpd", "memcached", "openjdk", "golang", "rust", "ruby",
		"php", "haproxy", "nginx-unprivileged", "cert-manager", "coredns", "kube-proxy", "fluent-bit",
		"jenkins", "sonarqube", "minio", "zookeeper", "kafka", "cassandra", "mariadb", "influxdb",
		"telegraf", "loki", "tempo", "jaeger", "envoy", "istio-proxy", "argo-cd", "flux", "harbor",
		"keycloak", "nextcloud", "wordpress", "drupal", "tomcat", "wildfly", "dotnet-sdk", "pytorch",
		"tensorflow"}
	benchSuffixes = []string{"", "", "", "", "-dev", "-r4", "-r1", "-slim", "-alpine", "-rc1", "-fips", "-debug"}
)

// benchNames returns the benchN names, built once.
var benchNames = sync.OnceValue(func() []string {
	r := rand.New(rand.NewPCG(2024, 10))
	names := make([]string, benchN)
	var b strings.Builder
	for i := range names {
		b.Reset()
		b.WriteString(benchOrgs[r.IntN(len(benchOrgs))])
		b.WriteByte('/')
		b.WriteString(benchFolders[r.IntN(len(benchFolders))])
		b.WriteByte('/')
		b.WriteString(benchRepos[r.IntN(len(benchRepos))])
		b.WriteByte(':')
		fmt.Fprintf(&b, "%d.%d.%d", r.IntN(4), r.IntN(30), r.IntN(40))
		b.WriteString(benchSuffixes[r.IntN(len(benchSuffixes))])
		names[i] = b.String()
	}
	return names
})

// benchPatterns are the keystrokes measured: selective, typical ("nginx 1.2"
// typed the fuzzy way) and broad.
var benchPatterns = []string{"ngx", "pstgr", "ngx1.2", "o", "e1"}

// checked records the patterns whose engine answer was compared with
// fuzzy.Find over the benchmark names (once per process).
var checked sync.Map

// checkBench compares Filter with fuzzy.Find over the benchmark names once
// per pattern, outside the timed loop, so the numbers are for equal answers.
func checkBench(b *testing.B, p string, names []string) {
	if _, done := checked.Load(p); done {
		return
	}
	b.StopTimer()
	defer b.StartTimer()
	res, err := Filter(context.Background(), Query{Kind: Fuzzy, Pattern: p}, names)
	if err != nil {
		b.Fatal(err)
	}
	want := fuzzy.Find(p, names)
	if len(want) != len(res.Matches) {
		b.Fatalf("%q: %d matches, fuzzy.Find has %d", p, len(res.Matches), len(want))
	}
	for i, w := range want {
		if g := res.Matches[i]; g.Index != w.Index || g.Score != w.Score {
			b.Fatalf("%q: match %d is %+v, fuzzy.Find has {%d %d}", p, i, g, w.Index, w.Score)
		}
	}
	checked.Store(p, true)
}

// BenchmarkFuzzyFind is the reference: github.com/sahilm/fuzzy.Find over the
// 10⁶ names, one op = one keystroke's full, ranked result.
func BenchmarkFuzzyFind(b *testing.B) {
	names := benchNames()
	for _, p := range benchPatterns {
		b.Run(p, func(b *testing.B) {
			b.ReportAllocs()
			var n int
			for b.Loop() {
				n = len(fuzzy.Find(p, names))
			}
			b.ReportMetric(float64(n), "matches")
		})
	}
}

// eachPattern runs bench once per pattern over the benchmark names, the
// engine's answer checked against fuzzy.Find first.
func eachPattern(b *testing.B, bench func(b *testing.B, names []string, p string, q Query)) {
	names := benchNames()
	for _, p := range benchPatterns {
		b.Run(p, func(b *testing.B) {
			checkBench(b, p, names)
			bench(b, names, p, Query{Kind: Fuzzy, Pattern: p})
		})
	}
}

// BenchmarkFilter is the engine on the same names and patterns.
func BenchmarkFilter(b *testing.B) {
	ctx := context.Background()
	eachPattern(b, func(b *testing.B, names []string, _ string, q Query) {
		b.ReportAllocs()
		var n int
		for b.Loop() {
			res, err := Filter(ctx, q, names)
			if err != nil {
				b.Fatal(err)
			}
			n = len(res.Matches)
		}
		b.ReportMetric(float64(n), "matches")
	})
}

// BenchmarkNarrow is the extending keystroke: "ngi" was answered over the
// 10⁶ names (≈10⁵ matches) and the user types "n"; one op = Narrow to "ngin"
// from that result.
func BenchmarkNarrow(b *testing.B) {
	names := benchNames()
	ctx := context.Background()
	prev, err := Filter(ctx, Query{Kind: Fuzzy, Pattern: "ngi"}, names)
	if err != nil {
		b.Fatal(err)
	}
	q := Query{Kind: Fuzzy, Pattern: "ngin"}
	fresh, err := Filter(ctx, q, names)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var n int
	for b.Loop() {
		res, err := Narrow(ctx, q, names, prev)
		if err != nil {
			b.Fatal(err)
		}
		n = len(res.Matches)
	}
	if n != len(fresh.Matches) {
		b.Fatalf("Narrow kept %d, Filter %d", n, len(fresh.Matches))
	}
	b.ReportMetric(float64(len(prev.Matches)), "prev-matches")
	b.ReportMetric(float64(n), "matches")
}

// TestWriteBenchNames writes the benchmark names, one per line, to the file
// named by $FILTER_BENCH_NAMES (and is skipped without it), to compare with
// other tools on the same data, e.g. fzf --filter:
//
//	FILTER_BENCH_NAMES=/tmp/names.txt go test ./views/filter -run WriteBenchNames
//	time fzf --filter ngx < /tmp/names.txt > /dev/null
func TestWriteBenchNames(t *testing.T) {
	path := os.Getenv("FILTER_BENCH_NAMES")
	if path == "" {
		t.Skip("FILTER_BENCH_NAMES not set")
	}
	if err := os.WriteFile(path, []byte(strings.Join(benchNames(), "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkAgainstFind measures the engine and fuzzy.Find side by side in
// one loop: each op runs Filter, then fuzzy.Find, on the same pattern and
// names, so a machine busy for a moment slows both and their ratio holds
// (separate benchmarks, run minutes apart, drifted). engine-ms and find-ms
// are each one's time per keystroke, ratio engine/find. Run it on one core
// and on all (the engine uses every core, fuzzy.Find one):
//
//	go test ./views/filter -run '^$' -bench AgainstFind -cpu 1,2 -benchtime 5x -count 3
func BenchmarkAgainstFind(b *testing.B) {
	ctx := context.Background()
	eachPattern(b, func(b *testing.B, names []string, p string, q Query) {
		var engine, find time.Duration
		for b.Loop() {
			start := time.Now()
			if _, err := Filter(ctx, q, names); err != nil {
				b.Fatal(err)
			}
			mid := time.Now()
			fuzzy.Find(p, names)
			engine, find = engine+mid.Sub(start), find+time.Since(mid)
		}
		n := float64(b.N)
		b.ReportMetric(float64(engine.Microseconds())/1e3/n, "engine-ms")
		b.ReportMetric(float64(find.Microseconds())/1e3/n, "find-ms")
		b.ReportMetric(float64(engine)/float64(find), "ratio")
	})
}
