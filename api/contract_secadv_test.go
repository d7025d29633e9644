package api_test

import (
	"time"

	"canopy/api"
)

// driveSecurityAdvisory makes every call of the security advisory service:
// documents by package and by CVE, vulnerability metadata by id and paged,
// and the resolved vulnerabilities of an image with and without tags.
func driveSecurityAdvisory(ck *contractCheck, c *api.Client, now time.Time) {
	t, ctx := ck.t, ck.t.Context()
	docs := must(c.ListDocuments(ctx, api.DocumentFilter{}))(t)
	ck.done("ListDocuments", -1)
	if len(docs.Items) == 0 || len(docs.Items[0].Advisories) == 0 {
		t.Fatalf("no documents: %+v", docs)
	}
	doc := docs.Items[0]
	must(c.ListDocuments(ctx, api.DocumentFilter{Package: doc.ID}))(t)
	ck.done("ListDocuments", -1)
	must(c.ListDocuments(ctx, api.DocumentFilter{CVEs: doc.Advisories[0].Aliases}))(t)
	ck.done("ListDocuments", -1)

	first := must(c.ListVulnerabilityMetadata(ctx, api.ListOptions{PageSize: 1, OrderBy: api.OrderIDDesc}))(t)
	ck.done("ListVulnerabilityMetadata", len(first.Items))
	next := must(c.ListVulnerabilityMetadata(ctx, api.ListOptions{PageSize: 1, OrderBy: api.OrderIDDesc,
		PageToken: first.NextPageToken, Skip: 1}))(t)
	ck.done("ListVulnerabilityMetadata", len(next.Items))
	byID := must(c.ListVulnerabilityMetadata(ctx, api.ListOptions{VulnerabilityIDs: doc.Advisories[0].Aliases}))(t)
	ck.done("ListVulnerabilityMetadata", len(byID.Items))
	must(c.VulnerabilitiesOf(ctx, doc.Advisories[0].Aliases))(t)
	ck.done("ListVulnerabilityMetadata", -1)

	q := api.ResolvedQuery{Image: api.ImageRef{Repo: "python"}, Start: now.AddDate(0, 0, -30), End: now}
	must(c.ListResolvedVulnsReports(ctx, q))(t)
	ck.done("ListResolvedVulnsReports", -1)
	q.Image.Tags = []string{"latest", "3.12"}
	must(c.ListResolvedVulnsReports(ctx, q))(t)
	ck.done("ListResolvedVulnsReports", -1)
}
