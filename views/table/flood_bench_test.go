package table_test

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/views/table"
	"canopy/views/viewstest"
)

// BenchmarkTypedFlood is a paste into a terminal without bracketed paste:
// n characters reach a tag table's open filter line as n keys, faster than
// the filter answers. Each key is what the program does with it (Update,
// then a frame), and the filter's answers reach the table only after the
// last key, as they come behind a queue of keys; they are delivered in
// the timed part too. The metric is the cost per key: it must not grow
// with n (it grew with every character typed before it: 4.7/13.4/46.1 s
// for 8k/16k/32k keys in the real binary). Run with -benchtime 1x: one
// flood is long.
func BenchmarkTypedFlood(b *testing.B) {
	const rows = 300_000
	c := common()
	l := loadedTags(b, rows)
	for _, n := range []int{2_000, 8_000, 32_000} {
		b.Run(fmt.Sprintf("keys=%d", n), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				m := table.New(c, tagConfig(c, l))
				m.SetSize(benchWidth, benchHeight)
				viewstest.Drive(m.Update(tea.KeyPressMsg{Code: '/', Text: "/"}), func(tea.Msg) bool { return false }, nil)
				b.StartTimer()
				var answers []tea.Cmd
				for range n {
					answers = append(answers, m.Update(tea.KeyPressMsg{Code: 'x', Text: "x"}))
					_ = m.View()
				}
				for _, cmd := range answers {
					viewstest.Drive(cmd, func(tea.Msg) bool { return true }, m.Update)
				}
				_ = m.View()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/key")
		})
	}
}

var _ = api.Tag{}
