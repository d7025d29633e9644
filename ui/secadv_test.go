package ui

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/theme"
)

// secadvShell runs the shell, the organization open, on an emulator whose
// clock is the shell's: what it seeded as resolved lately is what the
// pages ask about.
func secadvShell(t *testing.T, w, h int) (*harness, *api.Client) {
	t.Helper()
	srv, client := newEmulator(t, emulator.Options{Seed: 1, Now: func() time.Time { return fixedNow }})
	return startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Host: "test", Identity: "admin (test)",
		Theme: theme.Options{Name: theme.Dark}, Now: func() time.Time { return fixedNow }}, w, h), client
}

// resolvedIn is what the emulator says an image had resolved in the
// pages' range: the vulnerabilities, newest day first.
func resolvedIn(t *testing.T, c *api.Client, repo, tag string) []api.ResolvedVuln {
	t.Helper()
	q := api.ResolvedQuery{Image: api.ImageRef{Repo: repo}, Start: fixedNow.AddDate(0, 0, -resolvedDays), End: fixedNow}
	if tag != "" {
		q.Image.Tags = []string{tag}
	}
	reports, err := c.ListResolvedVulnsReports(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	var out []api.ResolvedVuln
	for i := len(reports) - 1; i >= 0; i-- {
		out = append(out, reports[i].ResolvedVulns...)
	}
	return out
}

// :documents lists the advisory documents, a package each; enter opens a
// document's page with its advisories and their events, and a there the
// feed's advisories of the package.
func TestDocumentsTableAndPage(t *testing.T) {
	t.Parallel()
	h, c := secadvShell(t, 120, 50)
	docs, err := c.ListDocuments(context.Background(), api.DocumentFilter{})
	if err != nil {
		t.Fatal(err)
	}
	h.waitText("platform")
	typeCommand(h, "documents")
	h.waitText("advisory documents", "PACKAGE", "NAMESPACE", "ADVISORIES", "OPEN", "UPDATED", docs.Items[0].ID,
		fmt.Sprintf("1 of %d", len(docs.Items)))
	// Every document is loaded: a CVE finds its row among them.
	last := docs.Items[len(docs.Items)-1]
	cve := last.Advisories[0].Aliases[0]
	h.typeText("/" + cve)
	s := h.waitFor("the row of "+cve, func(s string) bool { return strings.HasPrefix(strings.TrimSpace(line(s, cve)), last.ID+" ") })
	if strings.Contains(s, "ctrl+s") {
		t.Errorf("the server filter is offered with every document loaded:\n%s", s)
	}
	h.keys("esc")
	h.typeText("/openssl")
	h.keys("enter", "enter")
	s = h.waitText("advisory document: openssl", "package       openssl", "namespace     wolfi", "advisories", "open", "resolved",
		"detected", "a lists the feed's advisories of openssl")
	if !strings.Contains(s, "CGA-") {
		t.Errorf("no advisory on the page:\n%s", s)
	}
	h.keys("a")
	h.waitText("advisories of openssl", "CGA-")
}

// manyDocuments answers a list of every document with more than canopy
// reads of one answer, and the rest as the emulator does.
func manyDocuments(w http.ResponseWriter, r *http.Request, emu http.Handler) {
	if r.URL.Path != "/advisory/v2/documents" || r.URL.RawQuery != "" {
		emu.ServeHTTP(w, r)
		return
	}
	fmt.Fprint(w, `{"documents":[`)
	for i := range api.MaxDocuments + 10 {
		if i > 0 {
			fmt.Fprint(w, ",")
		}
		fmt.Fprintf(w, `{"id":"pkg-%04d","advisories":[{"id":"CGA-aaaa-bbbb-%04d","aliases":["CVE-2026-%d"],"packageNamespace":"wolfi"}]}`, i, i, 10000+i)
	}
	fmt.Fprint(w, `]}`)
}

// Every document loaded, ctrl+s says why it does not ask the server,
// typing or with the filter kept: the filter already searches them all.
func TestDocumentsServerFilterSaysWhyNot(t *testing.T) {
	t.Parallel()
	h, _ := secadvShell(t, 120, 40)
	h.waitText("platform")
	typeCommand(h, "documents")
	h.waitText("advisory documents", "openssl")
	h.typeText("/openssl")
	h.send(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	s := h.waitText("every row is loaded: the filter already searches them all")
	if !strings.Contains(s, "/openssl") || strings.Contains(s, "/openssls") {
		t.Errorf("the key was typed into the filter:\n%s", s)
	}
	h.keys("enter") // the filter kept: ctrl+s says so again
	seq := h.m.flashSeq
	h.send(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	h.waitFor("the reason said again", func(s string) bool {
		return h.m.flashSeq > seq && strings.Contains(s, "every row is loaded: the filter already searches them all")
	})
}

// An answer with more documents than canopy reads: the first ones show,
// counted as a floor, it says so, and the server filter asks for a
// package's or a CVE's.
func TestDocumentsCut(t *testing.T) {
	t.Parallel()
	h := startBehind(t, manyDocuments, api.RetryPolicy{MaxAttempts: 1}, 120, 40)
	h.waitText("platform")
	typeCommand(h, "documents")
	h.waitText("pkg-0000", "1,000+", "the first 1,000 documents, the most canopy reads at once: / then ctrl+s asks for a package's or a CVE's")
	h.typeText("/openssl")
	h.send(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	s := h.waitText(`package = "openssl"`, "1 of 1")
	if !strings.Contains(line(s, "openssl "), "wolfi") {
		t.Errorf("the row of openssl:\n%s", s)
	}
}

// Gone to the end of an answer canopy did not read whole, the table still
// counts a floor (it asked for the rest, which cannot be had, and says
// why), and ctrl+s still asks the server for a CVE's documents.
func TestDocumentsCutToTheEnd(t *testing.T) {
	t.Parallel()
	h := startBehind(t, manyDocuments, api.RetryPolicy{MaxAttempts: 1}, 120, 20)
	h.waitText("platform")
	typeCommand(h, "documents")
	h.waitText("pkg-0000", "1,000+")
	h.keys("G")
	s := h.waitText("pkg-0999", "failed: more documents than canopy reads of one answer (1,000): / then ctrl+s asks")
	if !strings.Contains(s, "of 1,000+") || strings.Contains(s, "of 1,000 ") {
		t.Errorf("the end of a cut answer is counted as the whole:\n%s", s)
	}
	h.typeText("/CVE-2025-14598")
	h.waitText("ctrl+s")
	h.send(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	h.waitText(`alias = CVE-2025-14598`, "1 of 1", "openssl ")
}

// :vulnerabilities lists what is known of each id by id, s turns the
// order; enter opens one's page with its summary, scores, details and
// references.
func TestVulnerabilitiesTableAndPage(t *testing.T) {
	t.Parallel()
	h, c := secadvShell(t, 120, 50)
	first, err := c.ListVulnerabilityMetadata(context.Background(), api.ListOptions{PageSize: 1})
	if err != nil || len(first.Items) == 0 {
		t.Fatal(err)
	}
	v := first.Items[0]
	h.waitText("platform")
	typeCommand(h, "vulnerabilities")
	s := h.waitText("vulnerabilities", "ID", "SCORE", "RATING", "SUMMARY", v.ID, "sort: by id")
	if !strings.Contains(line(s, v.ID), v.Summary[:20]) {
		t.Errorf("the row of %s does not show its summary:\n%s", v.ID, s)
	}
	h.keys("enter")
	h.waitText(v.ID, "summary", "SEVERITIES", "DETAILS", "REFERENCES", "advisory", "https://")
	h.keys("esc")
	h.keys("s")
	h.waitFor("the last id first", func(s string) bool {
		return strings.Contains(s, "sort: by id, last first") && !strings.Contains(s, v.ID)
	})
}

// An advisory's page reads what is known of the ids it goes by: each id's
// score, summary and references.
func TestAdvisoryPageShowsItsVulnerabilities(t *testing.T) {
	t.Parallel()
	h, c := secadvShell(t, 100, 60)
	p, err := c.ListAdvisories(context.Background(), api.ListOptions{PageSize: 1, OrderBy: api.OrderUpdatedDesc})
	if err != nil || len(p.Items) == 0 {
		t.Fatal(err)
	}
	a := p.Items[0]
	vs, err := c.VulnerabilitiesOf(context.Background(), a.Aliases)
	if err != nil || len(vs) == 0 {
		t.Fatalf("%v: %v", a.Aliases, err)
	}
	h.waitText("platform")
	typeCommand(h, "advisories")
	h.waitText("advisories", a.AdvisoryID)
	h.keys("g", "enter")
	s := h.waitText(a.AdvisoryID, "VULNERABILIT", vs[0].ID, vs[0].Summary[:30], "https://")
	if strings.Index(s, "VULNERABILIT") > strings.Index(s, "EVENTS") {
		t.Errorf("the vulnerabilities come after the events:\n%s", s)
	}
}

// A repo's page (the explorer's pane) sums up what its image had resolved
// lately; v, in the pane, lists it day by day; enter on a row opens the
// advisory's page.
func TestRepoPageShowsWhatItsImageResolved(t *testing.T) {
	t.Parallel()
	h, c := secadvShell(t, 120, 60)
	vulns := resolvedIn(t, c, "python", "")
	if len(vulns) == 0 {
		t.Fatal("the emulator resolved nothing in python lately")
	}
	h.waitText("platform")
	h.typeText("/python")
	h.send(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	h.waitText("details: python")
	want := fmt.Sprintf("%d vulnerabilities in python:latest", len(vulns))
	if len(vulns) == 1 {
		want = "1 vulnerability in python:latest"
	}
	h.waitText(fmt.Sprintf("RESOLVED IN THE LAST %d DAYS", resolvedDays), want, "v lists them day by day")
	h.keys("tab", "v")
	s := h.waitText(fmt.Sprintf("resolved in python:latest, last %d days", resolvedDays), "DATE", "ADVISORY", "ALIASES",
		vulns[0].ID, fmt.Sprintf("1 of %d", len(vulns)))
	if !strings.Contains(line(s, vulns[0].ID), vulns[0].Aliases[0]) {
		t.Errorf("the row of %s does not show its aliases:\n%s", vulns[0].ID, s)
	}
	h.keys("g", "enter")
	h.waitText("looking up " + vulns[0].ID)
	h.waitText(vulns[0].ID, "status", "VULNERABILIT", vulns[0].Aliases[0])
}

// A tag's page sums up what its image had resolved, asking about that tag.
func TestTagPageShowsWhatItsImageResolved(t *testing.T) {
	t.Parallel()
	h, c := secadvShell(t, 120, 60)
	vulns := resolvedIn(t, c, "python", "latest")
	h.waitText("platform")
	typeCommand(h, "tags python")
	h.waitText("tags of python", "loaded")
	h.typeText("/latest")
	h.keys("enter", "enter")
	want := fmt.Sprintf("%d vulnerabilities in python:latest", len(vulns))
	if len(vulns) == 0 {
		want = "no vulnerability resolved in python:latest"
	}
	h.waitText("latest", "IMAGE", "RESOLVED IN THE LAST", want)
}
