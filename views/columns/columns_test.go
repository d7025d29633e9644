package columns

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"canopy/api"
	"canopy/keymap"
	"canopy/theme"
	"canopy/views"
	"canopy/views/paging"
	"canopy/views/table"
	"canopy/views/viewstest"

	tea "charm.land/bubbletea/v2"
)

var colorSGR = regexp.MustCompile(`\x1b\[[0-9;]*(38|48|3[0-7]|4[0-7]|9[0-7])[;m]`)

func tagTable(t *testing.T, o theme.Options) *table.Model[api.Tag] {
	t.Helper()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	c := views.Common{Theme: theme.New(o), Keys: keymap.Default(), Now: func() time.Time { return now }}
	tags := []api.Tag{
		{UID: "o/r/1", Name: "1.25.0", Digest: "sha256:" + strings.Repeat("1", 64), Deprecated: true, UpdateTime: api.TimeOf(now.Add(-143 * 24 * time.Hour))},
		{UID: "o/r/2", Name: "1.27.3", Digest: "sha256:" + strings.Repeat("2", 64), UpdateTime: api.TimeOf(now.Add(-2 * time.Hour))},
		{UID: "o/r/3", Name: "latest", Digest: "sha256:" + strings.Repeat("2", 64), UpdateTime: api.TimeOf(now.Add(-2 * time.Hour))},
	}
	src := func(context.Context, paging.Request) (paging.Result[api.Tag], error) {
		return paging.Result[api.Tag]{Items: tags, Total: 3}, nil
	}
	m := table.New(c, table.Config[api.Tag]{Columns: Tags(c, nil), List: paging.New(context.Background(), src, api.TagKey),
		Key: api.TagKey, Orders: Orders(), RowKind: TagRow})
	m.SetSize(100, 6)
	viewstest.Drive(m.Init(), func(msg tea.Msg) bool { _, ok := msg.(paging.PageMsg); return ok }, m.Update)
	m.Update(viewstest.Key("j")) // the cursor off the deprecated row
	return m
}

func TestDeprecatedTagsStandOutWithAndWithoutColor(t *testing.T) {
	for _, o := range []theme.Options{{Name: theme.Dark}, {Name: theme.Dark, NoColor: true}} {
		lines := strings.Split(tagTable(t, o).View(), "\n")
		dep, plain := lines[1], lines[3]
		if !strings.Contains(ansi.Strip(dep), "deprecated") || strings.Contains(ansi.Strip(plain), "deprecated") {
			t.Errorf("%+v: the STATUS column does not tell: %q / %q", o, ansi.Strip(dep), ansi.Strip(plain))
		}
		if !regexp.MustCompile(`\x1b\[([0-9;]*;)?9[;m]`).MatchString(dep) {
			t.Errorf("%+v: deprecated row not struck through: %q", o, dep)
		}
		if !strings.Contains(ansi.Strip(dep), "deprecated, 143 days old") {
			t.Errorf("%+v: no age: %q", o, ansi.Strip(dep))
		}
		if o.NoColor && colorSGR.MatchString(strings.Join(lines, "\n")) {
			t.Errorf("NO_COLOR table sets colors:\n%q", lines)
		}
		if o.NoColor && !strings.Contains(lines[2], "\x1b[7m") {
			t.Errorf("NO_COLOR selection is not reverse video: %q", lines[2])
		}
	}
}

func TestServerFilterChips(t *testing.T) {
	if RepoNameChip("nginx") != `name = "nginx"` || RepoNameChip("NGX!") != "" {
		t.Error("repo chips")
	}
	if TagNameChip("latest-dev") != `name = "latest-dev"` || TagNameChip("-x") != "" {
		t.Error("tag chips")
	}
	if c, id := AdvisoryFilter("CGA-xvgw-cvr7-9g2q"); !id || c != "id = CGA-xvgw-cvr7-9g2q" {
		t.Errorf("advisory id: %q %v", c, id)
	}
	if c, id := AdvisoryFilter("openssl"); id || c != `text ~ "openssl"` {
		t.Errorf("advisory text: %q %v", c, id)
	}
}

// In a narrow table of many repos the REPO column outlives STATUS: rows of
// different repos must be told apart.
func TestNarrowTagsKeepTheRepo(t *testing.T) {
	c := views.Common{Theme: theme.New(theme.Options{Name: theme.Mono}), Keys: keymap.Default()}
	cols := Tags(c, func() func(string) string { return func(string) string { return "python" } })
	tags := []api.Tag{{UID: "o/r/1", Name: "0", Digest: "sha256:" + strings.Repeat("1", 64), Deprecated: true}}
	src := func(context.Context, paging.Request) (paging.Result[api.Tag], error) {
		return paging.Result[api.Tag]{Items: tags, Total: 1}, nil
	}
	m := table.New(c, table.Config[api.Tag]{Columns: cols, List: paging.New(context.Background(), src, api.TagKey), Key: api.TagKey})
	viewstest.Drive(m.Init(), func(msg tea.Msg) bool { _, ok := msg.(paging.PageMsg); return ok }, m.Update)
	// Columns are as wide as their cells: TAG takes 4 cells, REPO 7,
	// DIGEST 20 and STATUS at least 11; at 20, two must go.
	m.SetSize(20, 5)
	head := strings.Split(ansi.Strip(m.View()), "\n")[0]
	if !strings.Contains(head, "REPO") || strings.Contains(head, "STATUS") {
		t.Errorf("at 20 columns: %q", head)
	}
	m.SetSize(70, 5)
	if row := strings.Split(ansi.Strip(m.View()), "\n")[1]; !strings.Contains(row, "python") || !strings.Contains(row, "deprecated") {
		t.Errorf("at 70 columns: %q", row)
	}
}
