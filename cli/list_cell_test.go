package cli

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/charmbracelet/x/ansi"

	"canopy/api/apitest"
)

// TestFitCellCutsToTheCap: a cell is at most cellMax cells, cut at its end
// or, for a Middle column, in its middle, and marked; what fits is kept
// whole; a value longer than cellMaxBytes is read only in part, and the cut
// cell is a copy, not a slice that keeps the value alive.
func TestFitCellCutsToTheCap(t *testing.T) {
	t.Parallel()
	fit := strings.Repeat("n", cellMax)
	sig := "sha256-" + strings.Repeat("0123456789abcdef", 4) + ".sig"
	huge := strings.Repeat("W", 1<<20)
	for _, tc := range []struct {
		name, in string
		middle   bool
		want     string // the whole cell, or a pattern if it starts with ^
	}{
		{"empty", "", false, "-"},
		{"short", "nginx", false, "nginx"},
		{"as wide as the cap", fit, false, fit},
		{"a cell wider", fit + "x", false, strings.Repeat("n", cellMax-1) + "…"},
		{"a signature tag fits", sig, true, sig},
		{"wide characters", strings.Repeat("漢", cellMax), false, "^(漢){39}…$"},
		{"cut in the middle", strings.Repeat("a", 200) + ".sig", true, `^a{39}…a{36}\.sig$`},
		{"made safe, then cut", strings.Repeat("\u200b", cellMax), false, `^(\\u200b){13}\\…$`},
		{"1 MiB", huge, false, "^W{79}…$"},
		{"1 MiB cut in the middle", "head" + huge + "end", true, "^headW{35}…W{37}end$"},
		{"1 MiB of combining marks", "a" + strings.Repeat("\u0301", 1<<19), false, "^a\u0301+…$"},
		{"1 MiB of wide characters", strings.Repeat("漢", 1<<18), true, "^(漢){19}…(漢){20}$"},
	} {
		got, w := fitCell(tc.in, tc.middle)
		switch {
		case w != ansi.StringWidth(got):
			t.Errorf("%s: width %d, the terminal's %d", tc.name, w, ansi.StringWidth(got))
		case w > cellMax:
			t.Errorf("%s: %d cells wide, the cap is %d", tc.name, w, cellMax)
		case len(got) > 6*cellMaxBytes:
			t.Errorf("%s: %d bytes held", tc.name, len(got))
		case strings.HasPrefix(tc.want, "^") && !regexp.MustCompile(tc.want).MatchString(got),
			!strings.HasPrefix(tc.want, "^") && got != tc.want:
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
		if start := uintptr(unsafe.Pointer(unsafe.StringData(tc.in))); len(got) < len(tc.in) && len(tc.in) > 0 {
			if p := uintptr(unsafe.Pointer(unsafe.StringData(got))); p >= start && p < start+uintptr(len(tc.in)) {
				t.Errorf("%s: the cut cell is a slice of the value, keeping it all alive", tc.name)
			}
		}
	}
}

// TestListTableCutsAHostileName lists 1,000 repos, one named with 1 MiB of
// W: the table is some 120 KB, not a gigabyte (every row was padded to
// the widest name), the name is cut to the cap and marked, the other rows
// are as before, and -o json keeps the whole name. (The real binary's
// memory is e2e's TestListTableBoundsAHostileName.)
func TestListTableCutsAHostileName(t *testing.T) {
	t.Parallel()
	hs := apitest.WideRepos(t, "d")
	getenv := env(t, map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN": "t", "CANOPY_ORG": strings.Repeat("d", 40)})
	out, errs, code := list(t, getenv, "repos")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if len(out) > 300<<10 {
		t.Fatalf("the table is %d bytes, want at most 300 KB", len(out))
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 1001 || !regexp.MustCompile(`^NAME +FOLDER +TIER +DESCRIPTION +UPDATED +CREATED$`).MatchString(lines[0]) {
		t.Fatalf("%d lines, header %q", len(lines), lines[0])
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > 6*cellMax+5*2 {
			t.Fatalf("line %d is %d cells wide: %.200q", i, w, l)
		}
	}
	// Every row is padded to the cut name: its columns stay in line.
	row := regexp.MustCompile(`^(\S+) +wide    -     d            -        -$`)
	if m := row.FindStringSubmatch(lines[501]); m == nil || m[1] != strings.Repeat("W", cellMax-1)+"…" {
		t.Errorf("the 500th repo's row: %.200q", lines[501])
	}
	if m := row.FindStringSubmatch(lines[1]); m == nil || m[1] != "repo-0" || ansi.StringWidth(lines[1]) != ansi.StringWidth(lines[501]) {
		t.Errorf("the first repo's row: %q", lines[1])
	}

	out, errs, code = list(t, getenv, "repos", "-o", "json")
	if code != 0 || !strings.Contains(out, `"name": "`+strings.Repeat("W", 1<<20)+`"`) {
		t.Errorf("exit %d (%s): the JSON does not hold the whole name", code, errs)
	}
}

// TestWriteTablePadsToTheCap: a value longer than the cap (canopy config
// and info print settings and paths whole) pushes the rest of its own row,
// not every row's.
func TestWriteTablePadsToTheCap(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("p", 10_000)
	rows := [][]string{{"SETTING", "VALUE", "FROM"}, {"config", long, "default"}}
	for i := range 100 {
		rows = append(rows, []string{"s" + strconv.Itoa(i), "v", "file"})
	}
	var b bytes.Buffer
	if err := writeTable(&b, rows); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if lines[1] != "config   "+long+"  default" {
		t.Errorf("the long value is not whole on its row: %.100q", lines[1])
	}
	if want := "s0       v" + strings.Repeat(" ", cellMax-1+2) + "file"; lines[2] != want {
		t.Errorf("a short row: %q, want %q", lines[2], want)
	}
	if b.Len() > len(long)+len(rows)*(3*cellMax) {
		t.Errorf("%d bytes for %d rows", b.Len(), len(rows))
	}
}
