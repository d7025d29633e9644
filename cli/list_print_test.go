package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/cli/exit"
	"canopy/safe"
	"canopy/views/table"
)

// TestListJSONIsTheWholeArray: printed a page at a time, seven items a
// page, the JSON is byte for byte the whole collection encoded as one
// indented array and escaped, hostile text included.
func TestListJSONIsTheWholeArray(t *testing.T) {
	t.Parallel()
	srv, err := emulator.New(emulator.Options{Seed: 1, AdminToken: "list-token", Hostile: true})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	getenv := env(t, map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN": "list-token", "CANOPY_ORG": srv.OrgUID()})
	client, err := api.New(api.Options{BaseURL: hs.URL, TokenSource: api.StaticToken("list-token", "test")})
	if err != nil {
		t.Fatal(err)
	}
	whole := api.ListOptions{DescendantsOf: srv.OrgUID(), OrderBy: api.OrderName}
	check := func(kind, got string, all any) {
		t.Helper()
		want, err := json.MarshalIndent(all, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if w := safe.JSON(string(want)) + "\n"; got != w {
			t.Errorf("%s: the JSON printed (%d bytes) is not the whole array's (%d bytes); first difference at byte %d",
				kind, len(got), len(w), firstDifference(got, w))
		}
		if !strings.Contains(got, `\u001b`) {
			t.Errorf("%s: no hostile text in the listing, the test proves less than it says", kind)
		}
	}
	for _, kind := range []string{"repos", "groups"} {
		out, errs, code := list(t, getenv, kind, "-o", "json", "--page-size", "7")
		if code != exit.OK {
			t.Fatalf("%s: exit %d: %s", kind, code, errs)
		}
		switch kind {
		case "repos":
			check(kind, out, readAll(t, client.ListRepos, api.RepoKey, whole))
		case "groups":
			check(kind, out, readAll(t, client.ListGroups, api.GroupKey, whole))
		}
	}
}

func readAll[T any](t *testing.T, list api.Lister[T], key func(*T) string, opts api.ListOptions) []T {
	t.Helper()
	var all []T
	for it, err := range api.NewCursor(list, opts, key).All(t.Context()) {
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, it)
	}
	return all
}

func firstDifference(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestListTableIsWriteTable: the table printed a page at a time is the
// one writeTable prints of the same cells, wide, combining, bidi and
// escaped text included (each cell's width is measured once, and plain
// ASCII by its length).
func TestListTableIsWriteTable(t *testing.T) {
	t.Parallel()
	texts := []string{"nginx", "", "漢字テスト 🐍", "Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫg̅ö", "invoice\u202etxt.exe", "\x1b]0;pwned\x07title", "zero\u200bwidth", "ｗｉｄｅ", "a b", "~}|{"}
	cols := []table.Column[int]{
		{Title: "NAME", Cell: func(i *int) safe.Text { return safe.Of(texts[*i%len(texts)]) }},
		{Title: "NUMBER", Cell: func(i *int) safe.Text { return safe.Of(fmt.Sprint(*i)) }},
		{Title: "OTHER", Cell: func(i *int) safe.Text { return safe.Of(texts[(*i*7+3)%len(texts)]) }},
	}
	rows := [][]string{{"NAME", "NUMBER", "OTHER"}}
	var items []int
	for i := range 300 {
		items = append(items, i)
		row := make([]string, len(cols))
		for j, c := range cols {
			row[j], _ = fitCell(string(c.Cell(&i)), false)
		}
		rows = append(rows, row)
	}
	var want, got bytes.Buffer
	if err := writeTable(&want, rows); err != nil {
		t.Fatal(err)
	}
	p := &tablePrinter[int]{out: &got, cols: cols}
	for page := range slices7(items) {
		if err := p.add(t.Context(), page); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.close(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("the table printed differs from writeTable's at byte %d:\n%s", firstDifference(got.String(), want.String()), got.String())
	}
	for _, s := range append(texts, "plain ascii", "tab\there", "\x7f") {
		if s = safe.String(s); cellWidth(s) != ansi.StringWidth(s) {
			t.Errorf("cellWidth(%q) = %d, the terminal's width %d", s, cellWidth(s), ansi.StringWidth(s))
		}
	}
}

// slices7 yields items seven at a time, as pages.
func slices7[T any](items []T) func(func([]T) bool) {
	return func(yield func([]T) bool) {
		for len(items) > 0 {
			n := min(7, len(items))
			if !yield(items[:n]) {
				return
			}
			items = items[n:]
		}
	}
}
