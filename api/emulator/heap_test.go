package emulator

import (
	"runtime"
	"testing"
)

// heapPerTag seeds one emulator of a size, makes every tag (as a list of
// all does) and reports its live heap (after a collection, before New
// and after the tags are made) divided by its tags: what the store keeps,
// not what seeding allocated on the way. opened is the live heap once
// New returns, before any tag of a generated repo is made.
func heapPerTag(tb testing.TB, size string) (perTag float64, tags int, opened int64) {
	tb.Helper()
	var before, seeded, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	srv, err := New(Options{Seed: 1, Size: size})
	if err != nil {
		tb.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&seeded)
	srv.st.makeAllTags()
	runtime.GC()
	runtime.ReadMemStats(&after)
	tags = srv.st.tags.live
	runtime.KeepAlive(srv)
	return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(tags), tags,
		int64(seeded.HeapAlloc) - int64(before.HeapAlloc)
}

// BenchmarkSeedHeap seeds each size and makes every tag, and reports the
// live heap per tag (B/tag), the live heap once seeded, before any
// generated repo's tags are made (MB-opened), and the time of both
// (ns/op); run with -benchtime=1x at large.
func BenchmarkSeedHeap(b *testing.B) {
	for _, size := range []string{"medium", "large"} {
		b.Run(size, func(b *testing.B) {
			var perTag float64
			var tags int
			var opened int64
			for b.Loop() {
				perTag, tags, opened = heapPerTag(b, size)
			}
			b.ReportMetric(perTag, "B/tag")
			b.ReportMetric(float64(tags), "tags")
			b.ReportMetric(float64(opened)/(1<<20), "MB-opened")
		})
	}
}

// TestSeedHeapPerTag holds the store to its budget of 300 bytes a tag
// (issue 22): measured at medium, whose fixed costs weigh more per tag
// than large's (BenchmarkSeedHeap measures both).
func TestSeedHeapPerTag(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds ~100k tags")
	}
	perTag, tags, _ := heapPerTag(t, "medium")
	t.Logf("medium: %d tags, %.0f B/tag", tags, perTag)
	if perTag > 300 {
		t.Errorf("the store holds %.0f B a tag, over the budget of 300", perTag)
	}
}
