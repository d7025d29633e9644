package table_test

import (
	"context"
	"runtime"
	"testing"

	tea "charm.land/bubbletea/v2"

	"canopy/views/paging"
	"canopy/views/table"
)

// TestFrameAllocsDoNotGrow checks that a frame (`j`, then View) allocates
// as much with 10⁵ loaded rows as with 10³: nothing in a frame walks the
// loaded rows. (BenchmarkFrame reports the same at 10⁶.)
func TestFrameAllocsDoNotGrow(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 10⁵ rows")
	}
	allocs := map[int]float64{}
	for _, n := range []int{1_000, 100_000} {
		l := loadedTags(t, n)
		c := common()
		m := table.New(c, tagConfig(c, l))
		m.SetSize(benchWidth, benchHeight)
		lo, hi := span(n)
		goTo(t, m, lo)
		allocs[n] = testing.AllocsPerRun(hi-lo-1, func() {
			m.Update(keyDown)
			_ = m.View()
		})
	}
	small, large := allocs[1_000], allocs[100_000]
	t.Logf("allocs per frame: %.0f at 10³ rows, %.0f at 10⁵", small, large)
	// A few more for the longer numbers in the counts ("50,000/100,000").
	if large > small*1.03+4 {
		t.Errorf("a frame allocates %.0f times at 10⁵ rows and %.0f at 10³: it grows with the data", large, small)
	}
}

// TestHeapPerLoadedTag holds the memory target of a loaded tag (< 300 B of
// heap each, BenchmarkLoadedTagsMemory measures it at 10⁶) at 10⁵ tags.
func TestHeapPerLoadedTag(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 10⁵ tags")
	}
	const n = 100_000
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	l := paging.New(context.Background(), tagSource(n), tagKey)
	loadAll(t, l, l.Start(), func(msg paging.PageMsg) tea.Cmd {
		_, cmd := l.Update(msg)
		return cmd
	})
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(l)
	perTag := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / n
	t.Logf("%.1f B of heap per loaded tag", perTag)
	if perTag >= 300 {
		t.Errorf("%.1f B of heap per loaded tag, want < 300", perTag)
	}
}
