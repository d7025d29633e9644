package ui

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/census"
	"canopy/safe"
	"canopy/theme"
)

// notesShell runs the shell on a fresh small emulator, with the
// organization open, and reads what the demo holds.
func notesShell(t *testing.T, w, h int) (*harness, truth) {
	t.Helper()
	srv, client := newEmulator(t, emulator.Options{Seed: 1})
	hr := startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Host: "test", Identity: "admin (test)",
		Theme: theme.Options{Name: theme.Dark}, Now: func() time.Time { return fixedNow }}, w, h)
	hr.waitText("details: ")
	return hr, readTruth(t, client, srv.OrgUID())
}

// treePane is the tree's pane of a screen: each line's left of the divider.
func treePane(screen string) []string {
	var out []string
	for _, l := range strings.Split(screen, "\n") {
		if left, _, ok := strings.Cut(l, "│"); ok {
			out = append(out, left)
		}
	}
	return out
}

// rowNote is the advisory note on the closed row of a repo ("" for
// none), and whether the row is on the screen. The row is the name, a
// mark of deprecated tags in it, the note, and its tags' count at the
// right once they are counted (each part apart by two spaces or more).
func rowNote(screen, repo string) (string, bool) {
	row := regexp.MustCompile(`^ *> ` + regexp.QuoteMeta(repo) + `(?: \S)?(?:  ((?:\S| \S)+))?(?: {2,}.*| *)$`)
	for _, l := range treePane(screen) {
		if m := row.FindStringSubmatch(l); m != nil {
			return m[1], true
		}
	}
	return "", false
}

// countsIn reads "5 detected, 1 pending upstream" (sep ", ") or the same
// joined by " · " into counts by status; an unknown part fails the test.
func countsIn(t *testing.T, s, sep string) map[census.Status]int {
	t.Helper()
	out := map[census.Status]int{}
	for _, part := range strings.Split(s, sep) {
		if part == "…" {
			continue // a shorter form's mark: statuses left out
		}
		n, name, _ := strings.Cut(part, " ")
		v, err := strconv.Atoi(n)
		i := slices.IndexFunc(statuses(), func(st census.Status) bool { return st.String() == name })
		if err != nil || i < 0 {
			t.Fatalf("%q: no count of a status in %q", part, s)
		}
		out[statuses()[i]] = v
	}
	return out
}

func statuses() []census.Status {
	var out []census.Status
	for s := range census.Statuses {
		out = append(out, s)
	}
	return out
}

// pageCounts is what a repo's page says of its advisories by status (nil
// for "none"), once its ADVISORIES part is counted.
func pageCounts(t *testing.T, h *harness, repo string) map[census.Status]int {
	t.Helper()
	head := "by latest status, for the image name " + repo
	s := h.waitFor(repo+"'s counted advisories", func(s string) bool {
		for _, l := range strings.Split(s, "\n") {
			if _, right, ok := strings.Cut(l, "│"); ok && strings.TrimSpace(right) == head {
				return true
			}
		}
		return false
	})
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if _, right, ok := strings.Cut(l, "│"); ok && strings.TrimSpace(right) == head && i+1 < len(lines) {
			_, next, _ := strings.Cut(lines[i+1], "│")
			if next = strings.TrimSpace(next); next == "none" {
				return nil
			}
			return countsIn(t, next, " · ")
		}
	}
	t.Fatalf("no counts under %q:\n%s", head, s)
	return nil
}

// agree checks a repo row's note against what its page and the feed
// count: the statuses it names, with their numbers, in one of the forms
// the row may take; none only when nothing is counted.
func agree(t *testing.T, repo, note string, page map[census.Status]int, truth census.AdvisoryCount) {
	t.Helper()
	for st := range census.Statuses {
		if page[st] != truth.N[st] {
			t.Errorf("%s's page counts %d %s, the feed holds %d", repo, page[st], st, truth.N[st])
		}
	}
	forms := adviceNotes(truth)
	if len(forms) == 0 {
		if note != "" {
			t.Errorf("%s's row says %q, its page counts none", repo, note)
		}
		return
	}
	if note == "" {
		t.Errorf("%s's row has no note, its page counts %v", repo, page)
		return
	}
	if !slices.Contains(forms, safe.Text(note)) {
		t.Errorf("%s's row says %q, none of %q", repo, note, forms)
	}
	_, parts, _ := strings.Cut(note, ": ")
	said := countsIn(t, parts, ", ")
	if left := len(said) < len(page); left != strings.HasSuffix(note, "…") {
		t.Errorf("%s's row says %q of the page's %v: a form that leaves statuses out ends with …, only it", repo, note, page)
	}
	for st, n := range said {
		if page[st] != n {
			t.Errorf("%s's row says %d %s, its page %d", repo, n, st, page[st])
		}
	}
}

// Every repo of the small demo notes its advisories on its tree row, and
// the row says what the repo's page and the feed count, status by status:
// a repo with advisories only found not affected too (etcd's two).
func TestEveryRepoRowAgreesWithItsPage(t *testing.T) {
	t.Parallel()
	h, tr := notesShell(t, 150, 60)
	// The repos by folder path (a/b), each folder opened in turn.
	folders := map[string][]string{}
	for _, r := range tr.repos {
		path, err := folderPath(t, h, r)
		if err != nil {
			t.Fatal(err)
		}
		folders[path] = append(folders[path], r.Name)
	}
	if n := len(tr.repos); n < 60 {
		t.Fatalf("the small demo has %d repos", n)
	}
	for _, path := range slices.Sorted(maps.Keys(folders)) {
		steps := strings.Split(path, "/")
		for _, step := range steps {
			h.moveTo(step)
			h.keys("l")
		}
		last := steps[len(steps)-1]
		h.moveTo("repos of " + last)
		h.keys("l")
		for _, repo := range folders[path] {
			truth := tr.advisories[repo]
			if len(adviceNotes(truth)) > 0 {
				h.waitFor(repo+"'s note", func(s string) bool { n, _ := rowNote(s, repo); return n != "" })
			}
			h.moveTo(repo)
			page := pageCounts(t, h, repo)
			note, ok := rowNote(h.screen(), repo)
			if !ok {
				t.Fatalf("no closed row of %s:\n%s", repo, h.screen())
			}
			agree(t, repo, note, page, truth)
		}
		// Closed again, so the next folder's rows are few enough to walk.
		h.moveTo(steps[0])
		h.keys("h")
	}
}

// folderPath is the path of the folder a repo is in (its names below the
// organization), as the tree nests them.
func folderPath(t *testing.T, h *harness, r api.Repo) (string, error) {
	t.Helper()
	var names []string
	org := h.srv.OrgUID()
	for uid := api.ParentUID(r.UID); uid != org && uid != ""; uid = api.ParentUID(uid) {
		g, err := h.m.env.client.GetGroup(t.Context(), uid)
		if err != nil {
			return "", fmt.Errorf("folder of %s: %w", r.Name, err)
		}
		names = append([]string{g.Name}, names...)
	}
	return strings.Join(names, "/"), nil
}

// On the 120-column screen of the report, platform's repos each note
// their advisories once counted: aws-cli, curl and node-exporter, whose
// detected and pending upstream did not fit the row together, say their
// detected; etcd, with only advisories found not affected, says those.
func TestPlatformRowsNoteTheirAdvisoriesAt120Columns(t *testing.T) {
	t.Parallel()
	h, tr := notesShell(t, 120, 36)
	for _, node := range []string{"platform", "repos of platform"} {
		h.moveTo(node)
		h.keys("l")
	}
	var names []string
	for _, r := range tr.repos {
		path, err := folderPath(t, h, r)
		if err != nil {
			t.Fatal(err)
		}
		if path == "platform" {
			names = append(names, r.Name)
		}
	}
	for _, want := range []string{"aws-cli", "curl", "etcd", "node-exporter"} {
		if !slices.Contains(names, want) {
			t.Fatalf("platform's repos %v lack %s", names, want)
		}
	}
	s := h.waitFor("a note on every repo of platform", func(s string) bool {
		for _, n := range names {
			if note, _ := rowNote(s, n); note == "" {
				return false
			}
		}
		return true
	})
	for _, want := range []string{"aws-cli  adv: 1 detected, …", "curl  adv: 5 detected, …", "etcd  advisories: 2 not affected",
		"node-exporter  adv: 1 detected, …"} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q:\n%s", want, s)
		}
	}
	for _, n := range names {
		note, _ := rowNote(s, n)
		_, parts, _ := strings.Cut(note, ": ")
		for st, c := range countsIn(t, parts, ", ") {
			if c != tr.advisories[n].N[st] {
				t.Errorf("%s's row says %d %s, the feed holds %d", n, c, st, tr.advisories[n].N[st])
			}
		}
	}
}
