package table

import (
	"canopy/safe"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// highlighted is the text a row line shows in the match paint.
func highlighted(m *Model[row], line string) string {
	var letters string
	for _, p := range strings.Split(line, m.paints.match.Pre())[1:] {
		if end := strings.IndexByte(p, '\x1b'); end > 0 {
			letters += p[:end]
		}
	}
	return letters
}

// rowLine is the first line of the raw frame whose unstyled text has s.
func rowLine(m *Model[row], s string) string {
	for _, l := range strings.Split(m.View(), "\n") {
		if strings.Contains(ansi.Strip(l), s) {
			return l
		}
	}
	return ""
}

// withColumns makes a 40-row table whose NAME never matches "pyth" and
// whose other searched columns are given.
func withColumns(t *testing.T, cols ...Column[row]) *Model[row] {
	m, _ := newTable(t, 40, nil)
	m.cfg.Columns = append(m.cfg.Columns[:1:1], cols...)
	m.SetSize(80, 12)
	return m
}

// A row found by another column than its name has the matched letters of
// that column highlighted, as a name match has its name's.
func TestSecondaryMatchIsHighlighted(t *testing.T) {
	m := withColumns(t, Column[row]{Title: "ARTIFACT", Width: 12, Search: true, Cell: func(r *row) safe.Text {
		if r.uid == "u7" {
			return "python-3"
		}
		return "go"
	}})
	press(m, "/")
	typeAndSettle(m, "pyth")
	line := rowLine(m, "python-3")
	if line == "" {
		t.Fatalf("the python row is not listed:\n%s", screen(m))
	}
	if got := highlighted(m, line); got != "pyth" {
		t.Errorf("highlighted %q in %q, want pyth", got, line)
	}
	// A name match still marks the name, not the other column.
	press(m, "esc", "/")
	typeAndSettle(m, "00007")
	if got := highlighted(m, rowLine(m, "name-00007")); got != "00007" {
		t.Errorf("name match highlighted %q", got)
	}
}

// A match spread over two searched columns marks its letters in each.
func TestMatchAcrossColumnsIsHighlighted(t *testing.T) {
	m := withColumns(t,
		Column[row]{Title: "A", Width: 8, Search: true, Cell: func(r *row) safe.Text { return safe.Text("py" + strings.TrimPrefix(r.uid, "u")) }},
		Column[row]{Title: "B", Width: 8, Search: true, Cell: func(r *row) safe.Text { return "thon" }},
	)
	press(m, "/")
	typeAndSettle(m, "pyth")
	line := rowLine(m, "py3 ")
	if line == "" {
		t.Fatalf("no row listed:\n%s", screen(m))
	}
	got := highlighted(m, line)
	if got != "pyth" {
		t.Errorf("highlighted %q in %q, want py in A and th in B", got, line)
	}
}

// A column reading names the shell learns (FOLDER, REPO) is searched with
// the names its Snap took in Update, and searched again when NamesMsg says
// more were learned.
func TestSnapColumnSearchesLearnedNames(t *testing.T) {
	names := map[string]string{} // replaced, never written: as the shell's namer
	lookup := func() func(*row) safe.Text {
		n := names
		return func(r *row) safe.Text {
			if v := n[r.uid]; v != "" {
				return safe.Text(v)
			}
			return "?"
		}
	}
	m := withColumns(t, Column[row]{Title: "REPO", Width: 10, Search: true,
		Cell: func(r *row) safe.Text { return lookup()(r) },
		Snap: lookup})
	press(m, "/")
	typeAndSettle(m, "redis")
	if !strings.Contains(screen(m), "no loaded row matches") {
		t.Fatalf("matched before the names came:\n%s", screen(m))
	}
	names = map[string]string{"u3": "redis", "u9": "redis"}
	driveFilter(m, m.Update(NamesMsg{}))
	if len(m.search.Matches()) != 2 || rowLine(m, "name-00003") == "" || rowLine(m, "name-00009") == "" {
		t.Fatalf("learned names not searched:\n%s", screen(m))
	}
	if got := highlighted(m, rowLine(m, "name-00003")); got != "redis" {
		t.Errorf("highlighted %q", got)
	}
	// Inverse drops them.
	press(m, "esc", "/")
	typeAndSettle(m, "!redis")
	if n := len(m.search.Matches()); n != 38 || rowLine(m, "name-00003") != "" {
		t.Errorf("!redis kept %d rows:\n%s", n, screen(m))
	}
}
