//go:build linux

package e2e

import (
	"bytes"
	"context"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"canopy/api/apitest"
)

// wideOrg is the organization the wide server serves.
const wideOrg = apitest.WideOrg

// wideName is the name a hostile server gives one repo: 1 MiB of W.
var wideName = apitest.WideName()

// wideServer serves 1,000 repos, one named wideName (apitest.WideRepos).
func wideServer(t testing.TB) string { return apitest.WideRepos(t, "").URL }

// keptOutput keeps the first 4 MiB written to it and counts the rest, so
// that a run printing a gigabyte (as before the fix) fails the test rather
// than the machine.
type keptOutput struct {
	kept  bytes.Buffer
	total int
}

func (k *keptOutput) Write(p []byte) (int, error) {
	k.total += len(p)
	if room := 4<<20 - k.kept.Len(); room > 0 {
		k.kept.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// runWide runs `canopy list repos` with args against the wide server and
// returns its output and its peak resident memory in bytes.
func runWide(t *testing.T, bin, url string, args ...string) (*keptOutput, int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), longPatience)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"list", "repos"}, args...)...)
	cmd.Env = []string{"CANOPY_API_URL=" + url, "CANOPY_TOKEN=t", "CANOPY_ORG=" + wideOrg, "HOME=" + t.TempDir()}
	var out keptOutput
	var errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	peak := measured(t, cmd)
	if err := cmd.Run(); err != nil || ctx.Err() != nil {
		t.Fatalf("canopy list repos %v: %v; stderr %q", args, err, errs.String())
	}
	return &out, peak()
}

// TestListTableBoundsAHostileName runs the real binary against a server
// that names one repo of 1,000 with 1 MiB of W (issue 33, item 1). Before,
// every column was as wide as its widest cell: here the table was 1.05 GB
// and canopy peaked at 3.4 GB. Now a cell is cut to the column cap (80
// cells, marked "…"): the table is 120 KB, canopy peaks near 33 MB (at
// most 60 asked), and -o json still holds the whole name.
func TestListTableBoundsAHostileName(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the binary and lists 1,000 repos with a 1 MiB name; skipped with -short")
	}
	bin := canopyBinary(t)
	url := wideServer(t)

	out, rss := runWide(t, bin, url)
	t.Logf("table: %d bytes, max RSS %d MB", out.total, rss>>20)
	if out.total > 300<<10 {
		t.Fatalf("the table is %d bytes, want at most 300 KB", out.total)
	}
	if rss > 60<<20 {
		t.Errorf("max RSS %d MB, want at most 60 MB", rss>>20)
	}
	lines := strings.Split(strings.TrimSuffix(out.kept.String(), "\n"), "\n")
	if len(lines) != 1001 || !regexp.MustCompile(`^NAME +FOLDER +TIER +DESCRIPTION +UPDATED +CREATED$`).MatchString(lines[0]) {
		t.Fatalf("%d lines, header %q", len(lines), lines[0])
	}
	// Six columns of at most 80 cells, two spaces between them.
	const widest = 6*80 + 5*2
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > widest {
			t.Fatalf("line %d is %d cells wide, want at most %d: %.200q", i, w, widest, l)
		}
	}
	if !regexp.MustCompile(`(?m)^W{79}… +wide +`).MatchString(out.kept.String()) {
		t.Errorf("no row with the name cut to 80 cells and marked:\n%.2000s", lines[501])
	}
	if !regexp.MustCompile(`(?m)^repo-0 +wide +- +- +`).MatchString(out.kept.String()) {
		t.Errorf("no row for repo-0 as before:\n%.2000s", lines[1])
	}

	// JSON is what a script reads: every name whole.
	out, rss = runWide(t, bin, url, "-o", "json")
	t.Logf("JSON: %d bytes, max RSS %d MB", out.total, rss>>20)
	if !strings.Contains(out.kept.String(), `"name": "`+wideName+`"`) {
		t.Errorf("the JSON does not hold the whole 1 MiB name")
	}
}
