package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
)

// feedOf reads the whole advisory feed by advisory id.
func feedOf(t *testing.T, c *api.Client) map[string]api.Advisory {
	t.Helper()
	out := map[string]api.Advisory{}
	cur := api.NewCursor(c.ListAdvisories, api.ListOptions{PageSize: api.MaxPageSize}, api.AdvisoryKey)
	for a, err := range cur.All(t.Context()) {
		if err != nil {
			t.Fatal(err)
		}
		out[a.AdvisoryID] = a
	}
	return out
}

// Documents are the feed's own advisories by origin package: each
// advisory of a document is one of the feed, with its aliases and its
// events but patched; the package filter is sent as id, the CVE filter as
// repeated cves, and neither needs a token.
func TestListDocuments(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client
	feed := feedOf(t, c)
	all := must(c.ListDocuments(ctx, api.DocumentFilter{}))(t)
	if all.Cut || len(all.Items) < 10 || !slices.IsSortedFunc(all.Items, func(a, b api.Document) int { return strings.Compare(a.ID, b.ID) }) {
		t.Fatalf("%d documents (cut %v)", len(all.Items), all.Cut)
	}
	for _, d := range all.Items {
		for _, da := range d.Advisories {
			a, ok := feed[da.ID]
			switch {
			case !ok:
				t.Fatalf("%s: %s is no advisory of the feed", d.ID, da.ID)
			case !strings.HasPrefix(a.ArtifactName, d.ID) || !slices.Equal(a.Aliases, da.Aliases):
				t.Errorf("%s holds %s of %s %v, document says %v", d.ID, da.ID, a.ArtifactName, a.Aliases, da.Aliases)
			case da.PackageNamespace != "wolfi" && da.PackageNamespace != "chainguard":
				t.Errorf("%s: namespace %q", da.ID, da.PackageNamespace)
			case len(da.Events) == 0 || da.Events[0].Kind != api.EventDetection || da.Events[0].Timestamp != a.Events[0].CreateTime:
				t.Errorf("%s: events %+v", da.ID, da.Events)
			case slices.ContainsFunc(da.Events, func(ev api.DocumentEvent) bool { return ev.Kind == api.EventPatched }):
				t.Errorf("%s: a document event is patched", da.ID)
			}
		}
	}

	doc := all.Items[len(all.Items)/2]
	e.rec.reset()
	one := must(c.ListDocuments(ctx, api.DocumentFilter{Package: doc.ID}))(t)
	if r := e.rec.last(t); r.Query.Get("id") != doc.ID || len(one.Items) != 1 || one.Items[0].ID != doc.ID ||
		len(one.Items[0].Advisories) != len(doc.Advisories) {
		t.Fatalf("sent %s, read %+v", r.URI, one.Items)
	}
	cves := []string{doc.Advisories[0].Aliases[0], all.Items[0].Advisories[0].Aliases[0]}
	e.rec.reset()
	byCVE := must(c.ListDocuments(ctx, api.DocumentFilter{CVEs: cves}))(t)
	if r := e.rec.last(t); !slices.Equal(r.Query["cves"], cves) || len(byCVE.Items) == 0 {
		t.Fatalf("sent %s, read %d", r.URI, len(byCVE.Items))
	}
	for _, d := range byCVE.Items {
		for _, da := range d.Advisories {
			if !slices.ContainsFunc(da.Aliases, func(s string) bool { return slices.Contains(cves, s) }) {
				t.Errorf("%s of %s goes by none of %v: %v", da.ID, d.ID, cves, da.Aliases)
			}
		}
	}
	if none := must(c.ListDocuments(ctx, api.DocumentFilter{Package: "no-such-package"}))(t); len(none.Items) != 0 {
		t.Errorf("no-such-package: %+v", none.Items)
	}

	anonymous, err := http.Get(e.url + "/advisory/v2/documents?id=" + doc.ID)
	if err != nil || anonymous.StatusCode != http.StatusOK {
		t.Fatalf("without a token: %v %v", anonymous, err)
	}
	anonymous.Body.Close()
}

// A document event reads its kind from the key its details are under and
// writes it back so.
func TestDocumentEventJSON(t *testing.T) {
	t.Parallel()
	in := `{"timestamp":"2026-05-01T10:00:00.000Z","falsePositiveDetermination":{"note":"n","type":"TYPE_INLINE_MITIGATIONS_EXIST"}}`
	var ev api.DocumentEvent
	if err := json.Unmarshal([]byte(in), &ev); err != nil || ev.Kind != api.EventFalsePositiveDetermination ||
		ev.Details.Type != "TYPE_INLINE_MITIGATIONS_EXIST" || ev.Details.Note != "n" || ev.Timestamp.IsZero() {
		t.Fatalf("%+v %v", ev, err)
	}
	out, err := json.Marshal(ev)
	if err != nil || string(out) != in {
		t.Errorf("wrote %s %v", out, err)
	}
	var scan api.DocumentEvent
	if err := json.Unmarshal([]byte(`{"detection":{"scanv1":{"scanner":"grype"}},"fixed":null}`), &scan); err != nil ||
		scan.Kind != api.EventDetection || scan.Details.Detection != "scanv1" || scan.Details.Facts["scanner"] != "grype" ||
		scan.Event().Kind != api.EventDetection {
		t.Errorf("%+v %v", scan, err)
	}
	// A document names a scan's component and subpackage componentName and
	// subpackageName (advisory/v2); read, they are an advisory event's
	// component and subpackage, and written, a document's again.
	named := `{"timestamp":"2026-05-01T10:00:00.000Z","detection":{"scanv1":{"componentName":"openssl","scanner":"grype","subpackageName":"openssl-dev"}}}`
	var doc api.DocumentEvent
	if err := json.Unmarshal([]byte(named), &doc); err != nil || doc.Details.Facts["component"] != "openssl" ||
		doc.Details.Facts["subpackage"] != "openssl-dev" || doc.Details.Facts["componentName"] != "" {
		t.Errorf("%+v %v", doc, err)
	}
	if out, err := json.Marshal(doc); err != nil || string(out) != named {
		t.Errorf("wrote %s %v, want %s", out, err, named)
	}
}

// documentServer answers ListDocuments with n documents, each holding an
// advisory of so many aliases.
func documentServer(n, aliases int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		names := make([]string, aliases)
		for i := range names {
			names[i] = fmt.Sprintf("CVE-2026-%d", i)
		}
		al, _ := json.Marshal(names)
		fmt.Fprint(w, `{"documents":[`)
		for i := range n {
			if i > 0 {
				fmt.Fprint(w, ",")
			}
			fmt.Fprintf(w, `{"id":"p%d","advisories":[{"id":"CGA-aaaa-bbbb-%04d","aliases":%s}]}`, i, i, al)
		}
		fmt.Fprint(w, `]}`)
	})
}

// However many documents an answer holds, canopy keeps at most
// MaxDocuments, and the whole ones before an answer's bound; both say
// they were cut.
func TestListDocumentsBounded(t *testing.T) {
	t.Parallel()
	c := newClient(t, serve(t, documentServer(api.MaxDocuments+500, 1)), api.Options{TokenSource: static("t"), Retry: api.NoRetry()})
	got := must(c.ListDocuments(t.Context(), api.DocumentFilter{}))(t)
	if !got.Cut || len(got.Items) != api.MaxDocuments || got.Items[api.MaxDocuments-1].ID != fmt.Sprintf("p%d", api.MaxDocuments-1) {
		t.Fatalf("read %d (cut %v)", len(got.Items), got.Cut)
	}
	// 150 documents of 1,000 aliases each pass the values an answer may hold.
	c = newClient(t, serve(t, documentServer(150, 1000)), api.Options{TokenSource: static("t"), Retry: api.NoRetry()})
	got = must(c.ListDocuments(t.Context(), api.DocumentFilter{}))(t)
	if !got.Cut || len(got.Items) < 50 || len(got.Items) > 100 {
		t.Fatalf("read %d (cut %v)", len(got.Items), got.Cut)
	}
	for _, d := range got.Items {
		if len(d.Advisories) != 1 || len(d.Advisories[0].Aliases) != 1000 {
			t.Fatalf("%s kept part of a document: %d aliases", d.ID, len(d.Advisories[0].Aliases))
		}
	}
	// One document past the bound alone is no answer.
	c = newClient(t, serve(t, documentServer(1, 200_000)), api.Options{TokenSource: static("t"), Retry: api.NoRetry()})
	if _, err := c.ListDocuments(t.Context(), api.DocumentFilter{}); err == nil {
		t.Error("a document past every bound was read")
	}
}

// Vulnerability metadata is the feed's: one of each id its advisories go
// by, their scores the advisory's; ids are sent repeated, paging and the
// order by id as the service takes them.
func TestVulnerabilityMetadata(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client
	adv := must(c.ListAdvisories(ctx, api.ListOptions{PageSize: 50}))(t).Items
	a := adv[slices.IndexFunc(adv, func(a api.Advisory) bool { return len(a.Aliases) > 1 })]
	e.rec.reset()
	got := must(c.VulnerabilitiesOf(ctx, append([]string{"CVE-1999-0000", ""}, a.Aliases...)))(t)
	if r := e.rec.last(t); !slices.Equal(r.Query["ids"], append([]string{"CVE-1999-0000"}, a.Aliases...)) {
		t.Fatalf("sent %s", r.URI)
	}
	if len(got) != len(a.Aliases) {
		t.Fatalf("read %d of %v", len(got), a.Aliases)
	}
	for i, v := range got {
		if v.ID != a.Aliases[i] || !strings.HasPrefix(v.Summary, a.ComponentName+": ") || v.Details == "" ||
			!slices.Equal(v.Severities, a.Severities) || len(v.References) < 2 {
			t.Errorf("%s: %+v", a.Aliases[i], v)
		}
		for _, ref := range v.References {
			if !slices.Contains(api.ReferenceKinds(), ref.Type) || !strings.HasPrefix(ref.URL, "https://") {
				t.Errorf("%s: reference %+v", v.ID, ref)
			}
		}
	}

	first := must(c.ListVulnerabilityMetadata(ctx, api.ListOptions{PageSize: 2, OrderBy: api.OrderIDDesc}))(t)
	if r := e.rec.last(t); r.Query.Get("order_by") != "id desc" || r.Query.Get("page_size") != "2" || len(first.Items) != 2 ||
		first.Items[0].ID < first.Items[1].ID || !first.HasTotal || first.Total < 100 || first.Last() {
		t.Fatalf("sent %s, read %+v", r.URI, first)
	}
	next := must(c.ListVulnerabilityMetadata(ctx, api.ListOptions{PageSize: 2, OrderBy: api.OrderIDDesc,
		PageToken: first.NextPageToken, Skip: 1}))(t)
	if len(next.Items) != 2 || next.Skipped != 1 || next.Items[0].ID >= first.Items[1].ID {
		t.Errorf("next page %+v after %+v", next.Items, first.Items)
	}
	e.rec.reset()
	many := make([]string, api.MaxVulnerabilityIDs+1)
	for i := range many {
		many[i] = fmt.Sprintf("CVE-2026-%d", i)
	}
	if _, err := c.VulnerabilitiesOf(ctx, many); err == nil || e.rec.count() != 0 {
		t.Errorf("%d ids: %v, %d requests", len(many), err, e.rec.count())
	}
	if _, err := c.ListVulnerabilityMetadata(ctx, api.ListOptions{VulnerabilityIDs: many}); err == nil || e.rec.count() != 0 {
		t.Errorf("%d ids listed: %v", len(many), err)
	}
}

// A server whose pages never end, or that answers ids not asked for, gets
// a bounded number of requests and its strays dropped.
func TestVulnerabilitiesOfBounded(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	endless := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, `{"vulnerabilityMetadata":[{"id":"CVE-2026-%d"},{"id":"CVE-2026-0001","summary":"s"}],"nextPageToken":"more"}`, n.Add(1)+100)
	})
	c := newClient(t, serve(t, endless), api.Options{TokenSource: static("t"), Retry: api.NoRetry()})
	got := must(c.VulnerabilitiesOf(t.Context(), []string{"CVE-2026-0001", "CVE-2026-0002"}))(t)
	if len(got) != 1 || got[0].ID != "CVE-2026-0001" || n.Load() > 2 {
		t.Errorf("read %+v in %d requests", got, n.Load())
	}
}

// The vulnerabilities resolved in an image are the feed's advisories of
// what it ships, on the day of their fix: one report a day of the range.
// The image travels as its repo and tags, the range as two timestamps.
func TestResolvedVulns(t *testing.T) {
	t.Parallel()
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client
	feed := feedOf(t, c)
	now := e.clock.Now()
	q := api.ResolvedQuery{Image: api.ImageRef{Repo: "python"}, Start: now.AddDate(0, 0, -180), End: now}
	e.rec.reset()
	reports := must(c.ListResolvedVulnsReports(ctx, q))(t)
	r := e.rec.last(t)
	if r.Query.Get("image_refs.repo") != "python" || len(r.Query["image_refs.tags"]) != 0 ||
		r.Query.Get("start_time") != q.Start.Format("2006-01-02T15:04:05.000Z") || r.Query.Get("end_time") == "" {
		t.Fatalf("sent %s", r.URI)
	}
	if len(reports) != 181 {
		t.Fatalf("%d reports for 181 days", len(reports))
	}
	resolved := 0
	for i, rep := range reports {
		if day := q.Start.Truncate(24*time.Hour).AddDate(0, 0, i); !rep.Date.Time().Equal(day) {
			t.Fatalf("report %d of %s, want %s", i, rep.Date.Time(), day)
		}
		for _, v := range rep.ResolvedVulns {
			resolved++
			a, ok := feed[v.ID]
			fixed := ok && slices.ContainsFunc(a.Events, func(ev api.AdvisoryEvent) bool {
				return (ev.Kind == api.EventFixed || ev.Kind == api.EventPatched) && ev.CreateTime.Time().Truncate(24*time.Hour).Equal(rep.Date.Time())
			})
			if !fixed || !slices.Equal(a.Aliases, v.Aliases) || !slices.Equal(a.Severities, v.CVSSSeverities) {
				t.Errorf("%s resolved on %s: %+v", v.ID, rep.Date.Time().Format(time.DateOnly), a)
			}
		}
	}
	if resolved == 0 {
		t.Error("nothing resolved in python in half a year")
	}

	q.Image.Tags = []string{"latest", "3.12"}
	e.rec.reset()
	must(c.ListResolvedVulnsReports(ctx, q))(t)
	if r := e.rec.last(t); !slices.Equal(r.Query["image_refs.tags"], q.Image.Tags) {
		t.Errorf("sent %s", r.URI)
	}
	_, err := c.ListResolvedVulnsReports(ctx, api.ResolvedQuery{Image: api.ImageRef{Repo: "no-such-repo"}, Start: q.Start, End: now})
	if !api.IsNotFound(err) {
		t.Errorf("no-such-repo: %v", err)
	}
	e.rec.reset()
	for _, bad := range []api.ResolvedQuery{
		{Image: api.ImageRef{Repo: "python"}, Start: now.AddDate(-2, 0, 0), End: now},
		{Image: api.ImageRef{Repo: "python"}, Start: now, End: now.AddDate(0, 0, -1)},
		{Start: q.Start, End: now},
	} {
		if _, err := c.ListResolvedVulnsReports(ctx, bad); err == nil {
			t.Errorf("%+v was asked", bad)
		}
	}
	if e.rec.count() != 0 {
		t.Errorf("%d requests for ranges and images canopy does not ask about", e.rec.count())
	}
}
